import Foundation
import HTTPSerializationCore

extension MultipartFormData {
    /// A fresh `InputStream` over the body for `URLRequest.httpBodyStream`; call again for
    /// a replay with identical bytes.
    public func makeInputStream() -> MultipartBodyStream {
        MultipartBodyStream(form: self)
    }
}

/// The body as an `InputStream`, read lazily on whichever thread the transport reads it.
///
/// `hasBytesAvailable` stays true until the last byte has been read (URLSession on Linux
/// stops at the first false). A failing part sets `streamStatus` to `.error` and
/// `streamError` to the ``HTTPSerializationError``. Throttling blocks only the reading thread.
public final class MultipartBodyStream: InputStream {
    /// The form this stream reads; make another stream from it to replay the body.
    public let form: MultipartFormData
    private var reader: MultipartBodyReader?
    private var throttle: ThrottleState
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?

    init(form: MultipartFormData) {
        self.form = form
        throttle = ThrottleState(form.throttle)
        // A designated initializer of InputStream must run; the data is never read.
        super.init(data: Data())
    }

    public override func open() {
        guard status == .notOpen else { return }
        reader = MultipartBodyReader(form: form)
        status = reader!.isAtEnd ? .atEnd : .open
    }

    public override func close() {
        reader?.close()
        reader = nil
        if status != .error { status = .closed }
    }

    public override var streamStatus: Stream.Status { status }

    public override var streamError: (any Error)? { failure }

    public override var hasBytesAvailable: Bool {
        status == .open
    }

    public override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard status == .open, let reader, length > 0 else {
            return status == .error ? -1 : 0
        }
        let pause = throttle.pauseBeforeNextPacket()
        if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        do {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: throttle.cap(length)))
            if reader.isAtEnd { status = .atEnd }
            return count
        } catch {
            failure = error
            status = .error
            reader.close()
            return -1
        }
    }

    public override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    #if canImport(Darwin)
    public override func property(forKey key: Stream.PropertyKey) -> Any? { nil }
    public override func setProperty(_ property: Any?, forKey key: Stream.PropertyKey) -> Bool { false }
    #else
    public override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }
    public override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }
    #endif

    public override func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) {}
    public override func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {}
}
