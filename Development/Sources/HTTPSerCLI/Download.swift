import Foundation
import AsyncHTTPClient
import HTTPSerialization
import NIOCore
import NIOHTTP1

/// `--download`: where the body goes, and how a partial file is resumed.
enum DownloadTarget {
    /// The file name a download gets without `--output`: the `Content-Disposition` file name,
    /// else the URL's last path segment, else `index`; with an extension from the content type
    /// when it has none, and a `-1`, `-2`… suffix instead of overwriting a file.
    static func fileName(contentDisposition: String?, url: URL, contentType: String?, exists: (String) -> Bool) -> String {
        var name = contentDisposition.flatMap(Self.dispositionFileName).map(sanitized) ?? ""
        if name.isEmpty { name = sanitized(url.lastPathComponent == "/" ? "" : url.lastPathComponent) }
        if name.isEmpty { name = "index" }
        if !name.contains("."), let pathExtension = fileExtension(for: BodyDisplay.mediaType(contentType)) {
            name += "." + pathExtension
        }
        guard exists(name) else { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 } ?? name.endIndex
        let (stem, suffix) = (name[..<dot], name[dot...])
        var attempt = 1
        while exists("\(stem)-\(attempt)\(suffix)") { attempt += 1 }
        return "\(stem)-\(attempt)\(suffix)"
    }

    /// `filename*=UTF-8''…` (RFC 6266, preferred) or `filename="…"`.
    static func dispositionFileName(_ header: String) -> String? {
        var plain: String?
        for parameter in header.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            let key = pair[0].lowercased()
            if key == "filename*" {
                let parts = pair[1].split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if parts.count == 3, parts[0].lowercased() == "utf-8", let decoded = String(parts[2]).removingPercentEncoding {
                    return decoded
                }
            } else if key == "filename" {
                var value = pair[1]
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                }
                plain = value
            }
        }
        return plain
    }

    /// A server-chosen name made safe to create in the current folder: no folders, no
    /// leading dots, no control characters (C0, DEL, C1).
    static func sanitized(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(String.UnicodeScalarView(last.unicodeScalars.filter { !TerminalText.isControl($0) && $0 != "\t" && $0 != "\n" && $0 != "\r" }))
        return String(clean.drop { $0 == "." || $0 == " " })
    }

    private static let preferredExtensions = [
        "text/plain": "txt", "image/jpeg": "jpg", "text/javascript": "js", "application/javascript": "js", "image/svg+xml": "svg",
    ]

    static func fileExtension(for type: String) -> String? {
        guard !type.isEmpty, type != MIMETypes.defaultType else { return nil }
        if let preferred = preferredExtensions[type] { return preferred }
        let subtype = type.split(separator: "/").last.map(String.init) ?? ""
        if MIMETypes.type(forPathExtension: subtype) == type { return subtype }
        return MIMETypes.knownExtensions.filter { MIMETypes.type(forPathExtension: $0) == type }.sorted().first
    }

    /// The whole length a `416` reports: `T` of `Content-Range: bytes */T`.
    static func completeLength(_ contentRange: String?) -> Int64? {
        guard let contentRange, contentRange.lowercased().hasPrefix("bytes */") else { return nil }
        return Int64(contentRange.dropFirst("bytes */".count).trimmingCharacters(in: .whitespaces))
    }

    /// Where a `206 Partial Content` continues: the first byte of `Content-Range: bytes N-M/T`.
    static func rangeStart(_ contentRange: String?) -> Int64? {
        guard let contentRange, contentRange.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = contentRange.dropFirst(6)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        return Int64(spec[..<dash].trimmingCharacters(in: .whitespaces))
    }
}

/// Saves a response body to a file for `--download`, streaming it with a progress bar, and
/// checks that every byte the server announced arrived.
struct DownloadRunner {
    let console: Console
    let quiet: Bool

    func save(_ hop: Exchange.Hop, timeout: TimeAmount?, output: String?, resumeFrom: Int64) async throws {
        let response = hop.response
        let status = Int(response.status.code)
        let path = output ?? DownloadTarget.fileName(
            contentDisposition: response.headers.first(name: "content-disposition"), url: hop.request.url ?? URL(fileURLWithPath: "/"),
            contentType: response.headers.first(name: "content-type"), exists: { FileManager.default.fileExists(atPath: $0) })
        if status == 416 {
            // The range began at or past the end: complete only if the server's size is ours.
            guard DownloadTarget.completeLength(response.headers.first(name: "content-range")) == resumeFrom else {
                throw RuntimeFailure("the server refused to resume \(path) at byte \(resumeFrom) (416, \(response.headers.first(name: "content-range") ?? "no Content-Range")); remove the file to download it again")
            }
            if !quiet { console.error("\(path) is already complete (\(resumeFrom) bytes)\n") }
            return
        }
        var offset: Int64 = 0
        if resumeFrom > 0, status == 206 {
            guard let start = DownloadTarget.rangeStart(response.headers.first(name: "content-range")), start == resumeFrom else {
                throw RuntimeFailure("the server resumed at a different byte than the \(resumeFrom) already in \(path)")
            }
            offset = resumeFrom
        }
        let length = response.headers.first(name: "content-length").flatMap { Int64($0) }
        if let length, length > Int64.max - offset {
            throw RuntimeFailure("the server announced \(length) more bytes, more than a file can hold")
        }
        let total = length.map { $0 + offset }
        let handle = try open(path, appending: offset > 0)
        defer { try? handle.close() }
        if !quiet {
            let size = total.map(ProgressBar.size) ?? "an unknown size"
            console.error(offset > 0 ? "Resuming \(path) at \(ProgressBar.size(offset)), \(size) in all\n" : "Downloading \(size) to \"\(path)\"\n")
        }
        let bar = ProgressBar(label: "download", console: console, minimum: quiet ? .max : ProgressBar.defaultMinimum)
        defer { bar.finish() }
        let started = Date()
        var received: Int64 = 0
        do {
            try await hop.readBody(timeout: timeout) { buffer in
                try handle.write(contentsOf: Data(buffer.readableBytesView))
                received += Int64(buffer.readableBytes)
                bar.update(TransferProgress(completed: offset + received, total: total))
            }
        } catch {
            console.error("httpser: the download stopped after \(offset + received) bytes" + Self.resumeHint(path: path, output: output) + "\n")
            throw error
        }
        if let length, received != length {
            throw RuntimeFailure("incomplete download: \(offset + received) of \(offset + length) bytes arrived in \(path)" + Self.resumeHint(path: path, output: output))
        }
        if !quiet {
            let seconds = Date().timeIntervalSince(started)
            let rate = seconds > 0 ? ", \(ProgressBar.size(Int64(Double(received) / seconds)))/s" : ""
            console.error("Done. \(ProgressBar.size(received)) in \(String(format: "%.2f", seconds)) s\(rate)\n")
        }
    }

    private static func resumeHint(path: String, output: String?) -> String {
        output == nil ? "; resume with --download --continue --output \(path)" : "; --continue resumes it"
    }

    private func open(_ path: String, appending: Bool) throws -> FileHandle {
        if !appending { guard FileManager.default.createFile(atPath: path, contents: nil) else { throw cannotWrite(path) } }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw cannotWrite(path) }
        if appending { try handle.seekToEnd() }
        return handle
    }

    private func cannotWrite(_ path: String) -> RequestSerializationError {
        .fileWriteFailed(path: path, reason: "the file cannot be opened for writing")
    }
}

/// A failure while the exchange runs (exit status 1), as opposed to a usage error (2).
struct RuntimeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
