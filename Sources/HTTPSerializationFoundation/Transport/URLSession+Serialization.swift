import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

extension URLSession {
    /// Sends a request and decodes the response with a serializer.
    ///
    /// Every body goes out the way the platform sends it best: bytes as they are, a form or a
    /// stream of known length with a real `Content-Length` (on Linux, where URLSession would
    /// send a stream chunked, from a file: its own, or a temporary copy removed afterwards),
    /// a stream of unknown length chunked.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().request(method: "GET", urlString: url, parameters: ["q": "swift"])
    /// let result = try await URLSession.shared.response(for: request, serializer: JSONResponseSerializer())
    /// ```
    ///
    /// - Parameters:
    ///   - request: the request to send, checked before it goes out; its timeout, cache policy
    ///     and other settings apply.
    ///   - serializer: validates the response and decodes its body.
    ///   - uploadProgress: called as the body goes out.
    ///   - allowsRedirectedBodies: a request with a body that gets redirected is an error unless
    ///     this is true (URLSession may drop the body on the way).
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/invalidHTTPMethod(_:)``,
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidURL(_:)`` or
    ///   ``/HTTPSerializationCore/RequestSerializationError/invalidHeaderField(name:reason:)`` for a request
    ///   that would corrupt the wire (checked before sending), ``/HTTPSerializationCore/TransportError`` when no response came,
    ///   ``/HTTPSerializationCore/TransportError/redirectedWithBody(url:to:)``, and the
    ///   serializer's errors.
    public func response<Serializer: ResponseSerializer>(
        for request: URLRequest, serializer: Serializer,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil, allowsRedirectedBodies: Bool = false
    ) async throws -> SerializedResponse<Serializer.Output> {
        let body = try request.bodyForSending(request.serializationParts().body)
        return try await send(request, body: body, serializer: serializer, progress: uploadProgress,
                              allowsRedirectedBodies: allowsRedirectedBodies)
    }

    /// Sends a serialized request and decodes the response with a serializer: the same path
    /// as the async-http-client bridge's `execute`, through `URLSession`.
    ///
    /// ```swift
    /// let serialized = try JSONRequestSerializer().httpRequest(method: .post, url: ordersURL, body: order)
    /// let result = try await URLSession.shared.response(for: serialized, serializer: DecodableResponseSerializer<Receipt>())
    /// ```
    ///
    /// - Parameters:
    ///   - request: the request to send, as `URLRequest(_: SerializedRequest)` converts it.
    ///   - serializer: validates the response and decodes its body.
    ///   - uploadProgress: called as the body goes out.
    ///   - allowsRedirectedBodies: a request with a body that gets redirected is an error unless this is true.
    /// - Throws: as ``response(for:serializer:uploadProgress:allowsRedirectedBodies:)``.
    public func response<Serializer: ResponseSerializer>(
        for request: SerializedRequest, serializer: Serializer,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil, allowsRedirectedBodies: Bool = false
    ) async throws -> SerializedResponse<Serializer.Output> {
        try await send(URLRequest(request), body: request.body, serializer: serializer, progress: uploadProgress,
                       allowsRedirectedBodies: allowsRedirectedBodies)
    }

    /// Uploads a multipart request and decodes the response: AFNetworking's multipart upload,
    /// kept for the requests `multipartFormRequest` makes.
    ///
    /// - Parameters:
    ///   - request: the request built by `multipartFormRequest`; its method, URL and headers are sent.
    ///   - form: the form to send; when nil, the form the request's body stream reads.
    ///   - serializer: validates the response and decodes its body.
    ///   - uploadProgress: called as the body goes out.
    ///   - allowsRedirectedBodies: a redirected upload is an error unless this is true.
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError/multipartSourceUnavailable(part:reason:)``
    ///   when there is no form to send, ``/HTTPSerializationCore/TransportError/redirectedWithBody(url:to:)``
    ///   when the upload was redirected, ``/HTTPSerializationCore/TransportError`` when no response came, and the serializer's errors.
    public func uploadMultipart<Serializer: ResponseSerializer>(
        _ request: URLRequest, form: MultipartFormData? = nil, serializer: Serializer,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil, allowsRedirectedBodies: Bool = false
    ) async throws -> SerializedResponse<Serializer.Output> {
        let body = try form.map { RequestBody.multipart($0) } ?? request.serializationParts().body
        guard case .multipart(let form) = body else {
            throw RequestSerializationError.multipartSourceUnavailable(part: "the request body", reason: "the request carries no multipart form")
        }
        var request = request
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        return try await send(request, body: body, serializer: serializer, progress: uploadProgress,
                              allowsRedirectedBodies: allowsRedirectedBodies)
    }

    /// The previous spelling of ``uploadMultipart(_:form:serializer:uploadProgress:allowsRedirectedBodies:)``.
    @available(*, deprecated, renamed: "uploadMultipart(_:form:serializer:uploadProgress:allowsRedirectedBodies:)")
    public func uploadMultipart<Serializer: ResponseSerializer>(
        _ request: URLRequest, form: MultipartFormData? = nil, serializer: Serializer,
        progress: (@Sendable (TransferProgress) -> Void)?, allowsRedirectedBodies: Bool = false
    ) async throws -> SerializedResponse<Serializer.Output> {
        try await uploadMultipart(request, form: form, serializer: serializer, uploadProgress: progress,
                                  allowsRedirectedBodies: allowsRedirectedBodies)
    }

    /// The one URLSession path: `head`'s method, URL, fields and settings, with `body` sent the
    /// platform's best way, then the redirect rule and the serializer.
    private func send<Serializer: ResponseSerializer>(
        _ head: URLRequest, body: RequestBody, serializer: Serializer,
        progress: (@Sendable (TransferProgress) -> Void)?, allowsRedirectedBodies: Bool
    ) async throws -> SerializedResponse<Serializer.Output> {
        try head.validateForSending()
        let plan = try await UploadPlan(head, body: body)
        defer { plan.removeTemporaryFile() }
        let delegate = progress.map(UploadProgressDelegate.init)
        let request = plan.request
        let (data, response) = try await Self.exchange(request) {
            if let file = plan.file {
                return try await self.upload(for: request, fromFile: file, delegate: delegate)
            }
            return try await self.data(for: request, delegate: delegate)
        }
        try request.checkNotRedirected(to: response, hasBody: !body.isEmpty && !allowsRedirectedBodies)
        return try SerializedResponse.decoding(response, data: data, request: request, serializer: serializer)
    }

    /// Runs one URLSession exchange, turning its transport failures into ``/HTTPSerializationCore/TransportError``s.
    static func exchange<Result>(_ request: URLRequest, _ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            throw TransportError(urlSessionError: error, request: request) ?? error
        }
    }
}

/// How a body goes out through URLSession: in the request, as a stream, or from a file.
///
/// URLSession on Linux sends any body stream chunked (and would add `Content-Length` too), so
/// there a form or stream of known length goes from a file: its own, or a temporary copy. A body
/// read from an async sequence goes from a temporary copy everywhere, with its length.
struct UploadPlan {
    /// The head with the body set, when it travels in the request.
    var request: URLRequest
    /// The file to upload from, when it goes from one.
    var file: URL?
    /// A copy made for the upload, removed once the exchange is over.
    var temporaryFile: URL?

    init(_ head: URLRequest, body: RequestBody) async throws {
        var request = head
        request.httpBody = nil
        request.httpBodyStream = nil
        switch body {
        case .none:
            break
        case .bytes(let bytes):
            request.httpBody = bytes
        case .stream where body.asyncChunks != nil:
            // An async-sequence body is spooled first: URLSession reads a body stream with its
            // queue held while its own async calls wait on that queue from Swift's pool, so a
            // stream waiting for a task there could never be fed.
            let copy = try await Self.temporaryCopy(of: body)
            temporaryFile = copy
            file = copy
            let size = (try? FileManager.default.attributesOfItem(atPath: copy.path)[.size] as? NSNumber)?.int64Value ?? 0
            request.setValue(String(size), forHTTPHeaderField: "Content-Length")
        case .multipart, .stream:
            if let length = body.length { request.setValue(String(length), forHTTPHeaderField: "Content-Length") }
            #if os(Linux) || os(Windows) || os(Android)
            if body.length != nil {
                if case .stream(let stream) = body, let file = try stream.fileForDirectUpload() {
                    self.file = file
                } else {
                    let copy = try await Self.temporaryCopy(of: body)
                    temporaryFile = copy
                    self.file = copy
                }
            }
            #endif
            if file == nil { request.httpBodyStream = body.makeInputStream() }
        }
        self.request = request
    }

    /// The body written to a new temporary file, removed again if writing fails.
    private static func temporaryCopy(of body: RequestBody) async throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("httpser-upload-\(UUID().uuidString)")
        do {
            try await body.write(to: copy)
        } catch {
            try? FileManager.default.removeItem(at: copy)
            throw error
        }
        return copy
    }

    func removeTemporaryFile() {
        if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
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
