import Foundation
import HTTPSerializationCore

extension MultipartFormData {
    /// A fresh `InputStream` over the body for `URLRequest.httpBodyStream`; call again for
    /// a replay with identical bytes.
    public func makeInputStream() -> RequestBodyInputStream {
        RequestBodyInputStream(body: .multipart(self))
    }
}

extension RequestBody {
    /// A fresh `InputStream` over the body for `URLRequest.httpBodyStream`: a form or stream is
    /// read lazily, as the transport asks.
    public func makeInputStream() -> RequestBodyInputStream {
        RequestBodyInputStream(body: self)
    }
}

/// AFNetworking's `AFMultipartBodyStream`: the stream `MultipartFormData.makeInputStream()` makes.
public typealias MultipartBodyStream = RequestBodyInputStream

/// A request body as an `InputStream`, read lazily on whichever thread the transport reads it.
///
/// `hasBytesAvailable` stays true until the last byte has been read (URLSession on Linux stops at the first
/// false). A failing part or stream sets `streamStatus` to `.error` and `streamError` to the
/// ``/HTTPSerializationCore/HTTPSerializationError``. A form's throttle blocks only the reading thread.
public final class RequestBodyInputStream: InputStream {
    /// The body this stream reads; make another stream from it to replay it.
    public let body: RequestBody
    private var reader: (any BodyByteSource)?
    private var throttle: ThrottleState
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?

    /// The multipart form this stream reads, when it reads one.
    public var form: MultipartFormData? {
        if case .multipart(let form) = body { return form }
        return nil
    }

    init(body: RequestBody) {
        self.body = body
        throttle = ThrottleState(body.throttle)
        // A designated initializer of InputStream must run; the data is never read.
        super.init(data: Data())
    }

    /// Starts reading the body; only the first call has an effect.
    public override func open() {
        guard status == .notOpen else { return }
        do {
            reader = try body.makeSource()
            status = .open
        } catch {
            failure = error
            status = .error
        }
    }

    /// Closes what is being read; the status becomes `.closed` unless the stream failed.
    public override func close() {
        reader?.close()
        reader = nil
        if status != .error { status = .closed }
    }

    /// Where the stream is: not open, open, at its end, closed, or failed (`.error`).
    public override var streamStatus: Stream.Status { status }

    /// The error that stopped the stream (the body's typed error), or nil.
    public override var streamError: (any Error)? { failure }

    /// True while the stream is open, until the last byte has been read.
    public override var hasBytesAvailable: Bool {
        status == .open
    }

    /// Reads up to `length` bytes (capped by the throttle's packet size) into `buffer` and returns
    /// the count: 0 at the end or when not open, -1 after a failure (see `streamError`).
    public override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard status == .open, let reader, length > 0 else {
            return status == .error ? -1 : 0
        }
        let pause = throttle.pauseBeforeNextPacket()
        if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        do {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: throttle.cap(length)))
            // The read after the last byte returns 0 and is where the source reports a file or
            // stream that runs past its declared length; a consumer that stops at
            // `Content-Length` never makes it, and never waits on it.
            if count == 0 { status = .atEnd }
            return count
        } catch {
            failure = error
            status = .error
            reader.close()
            return -1
        }
    }

    /// Always false: the body is never held in one buffer.
    public override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    #if canImport(Darwin)
    /// Always nil: the stream has no properties.
    public override func property(forKey key: Stream.PropertyKey) -> Any? { nil }
    /// Always false: the stream has no properties to set.
    public override func setProperty(_ property: Any?, forKey key: Stream.PropertyKey) -> Bool { false }
    #else
    /// Always nil: the stream has no properties.
    public override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }
    /// Always false: the stream has no properties to set.
    public override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }
    #endif

    /// Does nothing: the stream is read synchronously, never through a run loop.
    public override func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) {}
    /// Does nothing: the stream is never scheduled on a run loop.
    public override func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {}
}
