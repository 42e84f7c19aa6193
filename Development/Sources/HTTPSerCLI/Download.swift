import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
}

/// Saves a response body to a file for `--download` through the library's `FileDownload`,
/// with a progress bar and HTTPie's messages around it. Partial files are kept, for `--continue`.
struct DownloadRunner {
    let console: Console
    let quiet: Bool

    /// The attempt `--continue` sends: the library's `Range` field for the partial file at
    /// `output`, copied into `request`.
    static func resuming(_ output: String, request: inout URLRequest) throws -> FileDownload.Attempt {
        let download = FileDownload(to: URL(fileURLWithPath: output), resumesPartialFile: true, keepsPartialFile: true)
        let attempt = try download.begin(head(of: request))
        if let range = attempt.request.request.headerFields[.range] { request.setValue(range, forHTTPHeaderField: "Range") }
        return attempt
    }

    /// What `FileDownload` needs of the request: its method, and whether it asks for a range.
    private static func head(of request: URLRequest) -> SerializedRequest {
        let method = request.httpMethod.flatMap { HTTPRequest.Method($0) } ?? .get
        var head = HTTPRequest(method: method, scheme: nil, authority: nil, path: nil)
        if let range = request.value(forHTTPHeaderField: "Range") { head.headerFields[.range] = range }
        return SerializedRequest(request: head)
    }

    func save(_ hop: Exchange.Hop, timeout: TimeAmount?, output: String?, resumed: FileDownload.Attempt?) async throws {
        let response = hop.response
        let path = output ?? DownloadTarget.fileName(
            contentDisposition: response.headers.first(name: "content-disposition"), url: hop.request.url ?? URL(fileURLWithPath: "/"),
            contentType: response.headers.first(name: "content-type"), exists: { FileManager.default.fileExists(atPath: $0) })
        // A fresh download's file is named by the response, so its attempt begins now; the
        // request it would send has gone already and only the file is looked at.
        let attempt = try resumed ?? FileDownload(to: URL(fileURLWithPath: path), keepsPartialFile: true).begin(Self.head(of: hop.request))
        let head = HTTPResponse(response)
        // Announced with the first bytes, once the library has accepted the status and range.
        let announcement = head.status.code == 416 || quiet ? nil : Self.announcement(head, path: path, offset: attempt.resumingAt ?? 0)
        let announced = Flag()
        let bar = ProgressBar(label: "download", console: console, minimum: quiet ? .max : ProgressBar.defaultMinimum)
        let started = Date()
        let url = hop.request.url?.absoluteString ?? ""
        let streamed = StreamedResponse(response: head, body: response.body.map(\.readableBytesView), request: Self.head(of: hop.request).request)
        let file: DownloadedFile
        do {
            file = try await attempt.finish(streamed) { [console] progress in
                if let announcement, announced.setOnce() { console.error(announcement) }
                bar.update(progress)
            }
            bar.finish()
        } catch let error as DownloadError {
            bar.finish()
            switch error {
            case .rangeNotSatisfiable(_, let fileLength, _):
                throw RuntimeFailure("the server refused to resume \(path) at byte \(fileLength) (416, \(response.headers.first(name: "content-range") ?? "no Content-Range")); remove the file to download it again")
            case .lengthMismatch:
                throw RuntimeFailure(error.description + Self.resumeHint(path: path, output: output))
            default:
                throw RuntimeFailure(error.description)
            }
        } catch {
            bar.finish()
            let arrived = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            console.error("httpser: the download stopped after \(arrived) bytes." + Self.resumeHint(path: path, output: output) + "\n")
            throw TransportError(asyncHTTPClientError: error, url: url, timeout: timeout ?? .seconds(10)) ?? error
        }
        if file.response.status.code == 416 {
            if !quiet { console.error("\(path) is already complete (\(file.length) bytes)\n") }
            return
        }
        if let announcement, announced.setOnce() { console.error(announcement) }
        if !quiet {
            let seconds = Date().timeIntervalSince(started)
            let rate = seconds > 0 ? ", \(ProgressBar.size(Int64(Double(file.bytesWritten) / seconds)))/s" : ""
            console.error("Done. \(ProgressBar.size(file.bytesWritten)) in \(String(format: "%.2f", seconds)) s\(rate)\n")
        }
    }

    private static func resumeHint(path: String, output: String?) -> String {
        output == nil ? " Resume with --download --continue --output \(path)." : " --continue resumes it."
    }

    /// "Downloading … to …", or "Resuming … at …" for a 206 to a resumed request.
    private static func announcement(_ head: HTTPResponse, path: String, offset: Int64) -> String {
        let length = head.headerFields[.contentLength].flatMap { Int64($0) }
        let resuming = head.status.code == 206 && offset > 0
        let size = length.map { ProgressBar.size($0 + (resuming ? offset : 0)) } ?? "an unknown size"
        return resuming ? "Resuming \(path) at \(ProgressBar.size(offset)), \(size) in all\n" : "Downloading \(size) to \"\(path)\"\n"
    }

    /// True the first time only, from any thread. `@unchecked Sendable` is sound: `done` is
    /// only touched under `lock`.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        func setOnce() -> Bool { lock.withLock { defer { done = true }; return !done } }
    }
}

/// A failure while the exchange runs (exit status 1), as opposed to a usage error (2).
struct RuntimeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
