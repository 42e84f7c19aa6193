import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

extension URLSession {
    /// Sends a request and decodes the response with a serializer.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().request(method: "GET", urlString: url, parameters: ["q": "swift"])
    /// let result = try await URLSession.shared.response(for: request, serializer: JSONResponseSerializer())
    /// ```
    ///
    /// - Parameters:
    ///   - request: the request to send, checked before it goes out.
    ///   - serializer: validates the response and decodes its body.
    ///   - allowsRedirectedBodies: a request with a body that gets redirected is an error unless
    ///     this is true (URLSession may drop the body on the way).
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidHTTPMethod(_:)``,
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidURL(_:)`` or
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidHeaderField(name:reason:)`` for a request
    ///   that would corrupt the wire (checked before sending), ``/HTTPSerializationCore/TransportError`` when no response came,
    ///   ``/HTTPSerializationCore/RequestSerializationError/redirectedWithBody(from:to:)``, and the
    ///   serializer's errors.
    public func response<Serializer: ResponseSerializer>(
        for request: URLRequest, serializer: Serializer, allowsRedirectedBodies: Bool = false
    ) async throws -> SerializedResponse<Serializer.Output> {
        try request.validateForSending()
        let (data, response) = try await Self.exchange(request) { try await self.data(for: request) }
        let hasBody = request.httpBody != nil || request.httpBodyStream != nil
        try request.checkNotRedirected(to: response, hasBody: hasBody && !allowsRedirectedBodies)
        return try SerializedResponse.decoding(response, data: data, request: request, serializer: serializer)
    }

    /// Uploads a multipart request the right way for the platform and decodes the response.
    ///
    /// On Linux, URLSession sends a body stream chunked (and would add `Content-Length` too),
    /// so the body is written to a temporary file and uploaded from it with a real
    /// `Content-Length`; the file is removed afterwards. Elsewhere the body stream is sent.
    ///
    /// - Parameters:
    ///   - request: the request built by `multipartFormRequest`; its method, URL and headers are sent.
    ///   - form: the form to send; when nil, the request's `MultipartBodyStream`'s form.
    ///   - serializer: validates the response and decodes its body.
    ///   - progress: called as the body goes out.
    ///   - allowsRedirectedBodies: a redirected upload is an error unless this is true.
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/redirectedWithBody(from:to:)`` when the
    ///   upload was redirected, ``/HTTPSerializationCore/TransportError`` when no response came, and the serializer's errors.
    public func uploadMultipart<Serializer: ResponseSerializer>(
        _ request: URLRequest, form: MultipartFormData? = nil, serializer: Serializer,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, allowsRedirectedBodies: Bool = false
    ) async throws -> SerializedResponse<Serializer.Output> {
        guard let form = form ?? (request.httpBodyStream as? MultipartBodyStream)?.form else {
            throw RequestSerializationError.multipartSourceUnavailable(part: "the request body", reason: "the request carries no multipart form")
        }
        try request.validateForSending()
        var request = request
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        #if os(Linux) || os(Windows) || os(Android)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try await form.writeEncodedBody(to: file)
        request.httpBodyStream = nil
        request.httpBody = nil
        request.setValue(String(form.contentLength), forHTTPHeaderField: "Content-Length")
        let (data, response) = try await Self.exchange(request) {
            try await self.upload(for: request, fromFile: file, delegate: progress.map(UploadProgressDelegate.init))
        }
        #else
        request.setValue(String(form.contentLength), forHTTPHeaderField: "Content-Length")
        request.httpBodyStream = form.makeInputStream()
        let (data, response) = try await Self.exchange(request) {
            try await self.data(for: request, delegate: progress.map(UploadProgressDelegate.init))
        }
        #endif
        try request.checkNotRedirected(to: response, hasBody: !form.isEmpty && !allowsRedirectedBodies)
        return try SerializedResponse.decoding(response, data: data, request: request, serializer: serializer)
    }

    /// Runs one URLSession exchange, turning its transport failures into ``/HTTPSerializationCore/TransportError``s.
    private static func exchange<Result>(_ request: URLRequest, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            throw TransportError(urlSessionError: error, request: request) ?? error
        }
    }
}

/// Forwards a task's upload progress to a closure.
///
/// `@unchecked Sendable`: its only state is an immutable `@Sendable` closure; NSObject
/// subclasses cannot state that to the compiler.
final class UploadProgressDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let progress: @Sendable (TransferProgress) -> Void

    init(_ progress: @escaping @Sendable (TransferProgress) -> Void) {
        self.progress = progress
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        progress(TransferProgress(completed: totalBytesSent, total: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil))
    }
}
