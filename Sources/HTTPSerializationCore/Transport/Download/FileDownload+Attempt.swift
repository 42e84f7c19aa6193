#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes

extension FileDownload {
    /// One try at a download: the request to send, and the partial file's length it was made for.
    ///
    /// Made by ``FileDownload/begin(_:)``; send ``request``, then hand the streamed response
    /// to ``finish(_:progress:)``.
    public struct Attempt: Sendable {
        /// The download this attempt belongs to.
        public let download: FileDownload
        /// The request to send: the caller's, with the download's `Range`, `If-Range` and
        /// `Accept-Encoding` fields.
        public let request: SerializedRequest
        /// The partial file's length when it is being resumed; nil when it is written from the start.
        public let resumingAt: Int64?
        let path: String
        /// Whether the request carries a `Range` (the download's or the caller's own), so a `206` may answer it.
        let asksForRange: Bool

        init(download: FileDownload, path: String, request: SerializedRequest, resumingAt: Int64?, asksForRange: Bool) {
            self.download = download
            self.path = path
            self.request = request
            self.resumingAt = resumingAt
            self.asksForRange = asksForRange
        }

        /// The most of an unacceptable response's body kept for its error.
        static let errorBodyLimit = 64 << 10

        /// Saves `streamed`'s body to the file as it arrives, as its status says (see
        /// ``FileDownload``), and checks it arrived whole.
        ///
        /// - Parameters:
        ///   - streamed: the response to ``request``, its body not yet read.
        ///   - progress: called after each chunk is taken, with the bytes in the file (a resumed
        ///     file's earlier bytes included) and the length it will have when known.
        /// - Throws: ``DownloadError``, ``ResponseSerializationError/unacceptableStatusCode(_:response:underlying:)``,
        ///   and what reading the body throws (the transport's errors, `CancellationError`).
        ///   Unless the download keeps partial files, the file this attempt wrote or was
        ///   resuming is removed first (never one that changed under it, and never one it was
        ///   only going to replace).
        public func finish<Body: AsyncSequence>(
            _ streamed: StreamedResponse<Body>, progress: (@Sendable (TransferProgress) -> Void)? = nil
        ) async throws -> DownloadedFile where Body.Element: Sequence<UInt8> {
            var sink: DownloadFileSink?
            do {
                return try await save(streamed, progress: progress, sink: &sink)
            } catch {
                // What arrived is written out; then, unless kept, the file this attempt wrote
                // (or was resuming) goes. A file that changed under it is someone else's now.
                let opened = sink != nil
                try? await sink?.close()
                if case DownloadError.fileChanged = error {
                } else if opened, !download.keepsPartialFile {
                    DownloadFileSink.remove(path)
                } else if !opened {
                    abandon()
                }
                throw error
            }
        }

        /// Ends an attempt whose request failed before any response: a resumed file is removed
        /// unless the download keeps partial files; a file not being resumed is left as it was.
        public func abandon() {
            if resumingAt != nil, !download.keepsPartialFile { DownloadFileSink.remove(path) }
        }

        private func save<Body: AsyncSequence>(
            _ streamed: StreamedResponse<Body>, progress: (@Sendable (TransferProgress) -> Void)?, sink: inout DownloadFileSink?
        ) async throws -> DownloadedFile where Body.Element: Sequence<UInt8> {
            let head = streamed.response
            let status = head.status.code
            if status == 416, let resumingAt {
                // The range began at or past the end: whole only if the server's length is the file's.
                let reported = head.headerFields[.contentRange].flatMap(ContentRange.init)
                guard let reported, reported.range == nil, reported.completeLength == resumingAt else {
                    throw DownloadError.rangeNotSatisfiable(path: path, fileLength: resumingAt, resourceLength: reported?.completeLength)
                }
                let length = DownloadFileSink.regularFileLength(path) ?? 0
                guard length == resumingAt else {
                    throw DownloadError.fileChanged(path: path, expectedLength: resumingAt, actualLength: length)
                }
                return file(head, streamed, length: resumingAt, written: 0, resumedFrom: resumingAt)
            }
            guard (200..<300).contains(status) else {
                let body = await Self.prefix(of: streamed.body, limit: Self.errorBodyLimit)
                throw ResponseSerializationError.unacceptableStatusCode(
                    status, response: ResponseContext(response: head, data: body, requestMethod: streamed.requestMethod, request: streamed.request))
            }
            // No body by definition: the file stays as it is.
            if streamed.requestMethod == .head || status == 204 || status == 205 {
                let length = DownloadFileSink.regularFileLength(path) ?? 0
                return file(head, streamed, length: length, written: 0, resumedFrom: nil)
            }
            var expected = announcedLength(head)
            var appendAt: Int64?
            var unfinishedLength: Int64?
            if status == 206 {
                let field = head.headerFields[.contentRange]
                let mismatch = DownloadError.rangeMismatch(path: path, requestedStart: resumingAt, contentRange: field)
                // A resumed file holds the bytes as handed over, so a range of coded bytes (which a
                // transport may decode) cannot be appended to it.
                guard asksForRange, let contentRange = field.flatMap(ContentRange.init), let range = contentRange.range,
                      resumingAt == nil || (range.lowerBound == resumingAt && checksLength(head)) else { throw mismatch }
                let (span, overflow) = (range.upperBound - range.lowerBound).addingReportingOverflow(1)
                guard !overflow, expected == nil || expected == span else { throw mismatch }
                if checksLength(head) { expected = span }
                appendAt = resumingAt
                // The download's own range runs to the end: a server that sends less (some cap
                // a range's size) has not made the file whole.
                if resumingAt != nil, let whole = contentRange.completeLength, whole != range.upperBound + 1 {
                    unfinishedLength = whole
                }
            }
            let base = appendAt ?? 0
            if let length = expected, length > Int64.max - base {
                throw DownloadError.rangeMismatch(path: path, requestedStart: resumingAt, contentRange: head.headerFields[.contentRange])
            }
            let total = expected.map { base + $0 }
            let opened = try await DownloadFileSink.opening(path: path, appendingAt: appendAt)
            sink = opened
            var received: Int64 = 0
            for try await chunk in streamed.body {
                var count = 0
                chunk.withChunkBytes { bytes in
                    count = bytes.count
                    // Bytes past the announced length are never written: a kept file stays a
                    // true prefix of the body, and a resume starts at the right byte.
                    let room = expected.map { Int(clamping: $0 - received) } ?? bytes.count
                    opened.take(UnsafeBufferPointer(rebasing: bytes.prefix(max(0, room))))
                }
                if opened.isFull { try await opened.flush() }
                received += Int64(count)
                if let expected, received > expected {
                    throw DownloadError.lengthMismatch(path: path, expected: base + expected, received: base + received)
                }
                progress?(TransferProgress(completed: base + received, total: total))
            }
            // A transport that ends its body quietly when cancelled must not look finished.
            try Task.checkCancellation()
            if let expected, received != expected {
                throw DownloadError.lengthMismatch(path: path, expected: base + expected, received: base + received)
            }
            try await opened.close()
            if let unfinishedLength {
                throw DownloadError.lengthMismatch(path: path, expected: unfinishedLength, received: base + received)
            }
            return file(head, streamed, length: base + received, written: received, resumedFrom: appendAt)
        }

        /// `Content-Length`, when it counts the bytes the body will hand over: not under a
        /// `Content-Encoding` a transport may have undone.
        private func announcedLength(_ head: HTTPResponse) -> Int64? {
            guard checksLength(head) else { return nil }
            return head.headerFields[.contentLength].flatMap { Int64($0) }
        }

        private func checksLength(_ head: HTTPResponse) -> Bool {
            guard let coding = head.headerFields[.contentEncoding] else { return true }
            return coding.lowercased().filter { $0 != " " && $0 != "\t" } == "identity"
        }

        private func file<Body>(
            _ head: HTTPResponse, _ streamed: StreamedResponse<Body>, length: Int64, written: Int64, resumedFrom: Int64?
        ) -> DownloadedFile {
            DownloadedFile(fileURL: download.destination, response: head, url: streamed.url, length: length, bytesWritten: written,
                           resumedFrom: resumedFrom)
        }

        /// Up to `limit` bytes of a body, for an error; the rest is not waited for, and a body
        /// that fails gives what came before (the status is the error worth reporting).
        private static func prefix<Body: AsyncSequence>(of body: Body, limit: Int) async -> Data where Body.Element: Sequence<UInt8> {
            var data = Data()
            do {
                for try await chunk in body {
                    chunk.withChunkBytes { data.append(contentsOf: UnsafeBufferPointer(rebasing: $0.prefix(limit - data.count))) }
                    if data.count >= limit { break }
                }
            } catch {}
            return data
        }
    }
}
