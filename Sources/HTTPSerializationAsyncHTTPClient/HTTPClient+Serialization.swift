// The bridge exists only with the package trait `AsyncHTTPClient`, so apps that do not use it
// never resolve async-http-client and swift-nio.
#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension HTTPClientRequest {
    /// An async-http-client request from a serialized `URLRequest`.
    ///
    /// A multipart body (given, or found in the request's `MultipartBodyStream`) is streamed
    /// lazily with its exact length, so it goes out with a real `Content-Length`; other bodies
    /// are sent as bytes.
    public init(
        _ request: URLRequest, multipartForm: MultipartFormData? = nil,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
    ) throws {
        // The method, URL and headers are copied onto the wire as they are: check them first.
        try request.validateForSending()
        guard let url = request.url?.absoluteString else { throw RequestSerializationError.invalidURL("") }
        self.init(url: url)
        method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            // The body below sets the framing.
            let lower = name.lowercased()
            if lower == "content-length" || lower == "transfer-encoding" { continue }
            headers.add(name: name, value: value)
        }
        if let form = multipartForm ?? (request.httpBodyStream as? MultipartBodyStream)?.form {
            if headers.first(name: "content-type") == nil { headers.add(name: "Content-Type", value: form.contentType) }
            body = .stream(ProgressReportingChunks(form: form, progress: uploadProgress), length: .known(Int64(form.contentLength)))
        } else if let stream = request.httpBodyStream {
            let data = try Self.readAll(stream)
            uploadProgress?(TransferProgress(completed: Int64(data.count), total: Int64(data.count)))
            body = .bytes(ByteBuffer(data: data))
        } else if let data = request.httpBody {
            uploadProgress?(TransferProgress(completed: Int64(data.count), total: Int64(data.count)))
            body = .bytes(ByteBuffer(data: data))
        }
    }

    private static func readAll(_ stream: InputStream) throws -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 {
                throw RequestSerializationError.multipartSourceUnavailable(
                    part: "the request body", reason: "the stream failed: \(stream.streamError.map { "\($0)" } ?? "unknown error")")
            }
            if count == 0 { return data }
            data.append(buffer, count: count)
        }
    }
}

/// A form's body read straight into `ByteBuffer`s, counting what has been handed to the
/// transport.
struct ProgressReportingChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// Large reads keep per-chunk costs (a syscall, a channel write, a progress call) small
    /// next to the copy; a few are in flight at once, far under the memory bound.
    static let chunkSize = 1 << 20

    let form: MultipartFormData
    let progress: (@Sendable (TransferProgress) -> Void)?

    func makeAsyncIterator() -> Iterator {
        Iterator(producer: MultipartChunkProducer(form: form, chunkSize: Self.chunkSize), total: Int64(form.contentLength),
                 progress: progress)
    }

    struct Iterator: AsyncIteratorProtocol {
        var producer: MultipartChunkProducer
        let total: Int64
        let progress: (@Sendable (TransferProgress) -> Void)?
        let allocator = ByteBufferAllocator()
        var sent: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            let allocator = self.allocator
            let chunk = try await producer.next { count, read -> ByteBuffer in
                var buffer = allocator.buffer(capacity: count)
                _ = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { free in
                    try read(UnsafeMutableRawBufferPointer(rebasing: free[..<count]))
                }
                return buffer
            }
            guard let chunk else { return nil }
            sent += Int64(chunk.readableBytes)
            progress?(TransferProgress(completed: sent, total: total))
            return chunk
        }
    }
}

extension HTTPURLResponse {
    /// The head of an async-http-client response as an `HTTPURLResponse`, for the package's
    /// response serializers.
    ///
    /// For code that reads an `HTTPClientResponse` itself (streaming its body, following
    /// redirects its own way) and then validates or decodes it. A repeated field's values are
    /// joined with `", "`.
    ///
    /// ```swift
    /// let response = try await client.execute(request, timeout: .seconds(30))
    /// let head = HTTPURLResponse(response, url: url)
    /// ```
    public convenience init?(_ response: HTTPClientResponse, url: URL) {
        var fields: [String: String] = [:]
        for header in response.headers {
            fields[header.name] = fields[header.name].map { "\($0), \(header.value)" } ?? header.value
        }
        self.init(url: url, statusCode: Int(response.status.code), httpVersion: "\(response.version)", headerFields: fields)
    }
}

extension HTTPClient {
    /// Sends a serialized request through async-http-client and decodes the response.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().multipartFormRequest(method: "POST", urlString: url) { form in
    ///     try form.appendPart(fileURL: file, name: "file")
    /// }
    /// let result = try await HTTPClient.shared.execute(request, serializer: JSONResponseSerializer())
    /// ```
    ///
    /// - Parameters:
    ///   - request: the request to send; its method, URL, headers and body go out as they are.
    ///   - multipartForm: the form to stream; when nil, the request's `MultipartBodyStream`'s form.
    ///   - serializer: validates the response and decodes its body, knowing the request's method.
    ///   - timeout: the whole exchange's time limit; when nil, the request's `timeoutInterval`
    ///     (60 seconds unless set), as URLSession applies it.
    ///   - maximumResponseSize: bodies larger than this are refused while downloading.
    ///   - uploadProgress: called as bytes go out.
    ///   - downloadProgress: called as bytes come in.
    ///   - allowsRedirectedBodies: a request with a body whose response came from another URL is
    ///     an error unless this is true, as with the URLSession helpers.
    /// - Throws: ``/HTTPSerializationCore/TransportError`` when no response came,
    ///   `RequestSerializationError.redirectedWithBody(from:to:)`, and the serializer's errors.
    public func execute<Serializer: ResponseSerializer>(
        _ request: URLRequest, multipartForm: MultipartFormData? = nil, serializer: Serializer,
        timeout: TimeAmount? = nil, maximumResponseSize: Int = 256 << 20,
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        downloadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        allowsRedirectedBodies: Bool = false
    ) async throws -> SerializedResponse<Serializer.Output> {
        let clientRequest = try HTTPClientRequest(request, multipartForm: multipartForm, uploadProgress: uploadProgress)
        let limit = timeout ?? Self.timeLimit(request.timeoutInterval)
        let (response, body): (HTTPClientResponse, Data)
        do {
            (response, body) = try await exchange(clientRequest, timeout: limit, maximumResponseSize: maximumResponseSize,
                                                  downloadProgress: downloadProgress)
        } catch {
            throw TransportError(asyncHTTPClientError: error, url: request.url?.absoluteString ?? "", timeout: limit) ?? error
        }
        // The URL the response came from, after any redirect, as URLSession reports it.
        let redirected = response.history.count > 1
        guard let url = (redirected ? response.url : nil) ?? request.url, let http = HTTPURLResponse(response, url: url) else {
            throw RequestSerializationError.invalidURL(request.url?.absoluteString ?? "")
        }
        let hasBody = multipartForm != nil || request.httpBodyStream != nil || request.httpBody != nil
        try request.checkNotRedirected(to: http, hasBody: hasBody && !allowsRedirectedBodies)
        return try SerializedResponse.decoding(http, data: body, request: request, serializer: serializer)
    }

    /// A `timeoutInterval` as a time limit: a non-positive, infinite or NaN interval (which
    /// `URLRequest` accepts) means the 60-second default, and a huge one is capped at 30 years
    /// rather than overflowing.
    static func timeLimit(_ interval: TimeInterval) -> TimeAmount {
        guard interval.isFinite, interval > 0 else { return .seconds(60) }
        return .nanoseconds(Int64((min(interval, 1e9) * 1e9).rounded()))
    }

    /// Sends the request and reads the whole body, refusing one larger than the limit.
    private func exchange(
        _ request: HTTPClientRequest, timeout: TimeAmount, maximumResponseSize: Int,
        downloadProgress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> (HTTPClientResponse, Data) {
        let response = try await execute(request, timeout: timeout)
        let expected = response.headers.first(name: "content-length").flatMap { Int64($0) }
        var body = Data()
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= maximumResponseSize else {
                throw ResponseSerializationError.responseSerializationFailed(
                    reason: "The response body exceeds \(maximumResponseSize) bytes.", response: ResponseContext(response: URLResponse?.none, data: nil))
            }
            body.append(contentsOf: chunk.readableBytesView)
            downloadProgress?(TransferProgress(completed: Int64(body.count), total: expected))
        }
        return (response, body)
    }
}
#else
#warning("HTTPSerializationAsyncHTTPClient is empty: enable the trait, .package(url: ..., from: ..., traits: [\"AsyncHTTPClient\"])")
#endif
