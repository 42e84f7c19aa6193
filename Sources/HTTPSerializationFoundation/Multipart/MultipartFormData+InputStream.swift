import Foundation
import HTTPSerializationCore

extension MultipartFormData {
    /// Appends an `InputStream` that delivers exactly `length` bytes; it can be read once.
    ///
    /// Use ``appendPart(streamFactory:name:fileName:length:mimeType:)`` for bodies that must
    /// be sent again (retries, redirects).
    public mutating func appendPart(inputStream: sending InputStream, name: String, fileName: String, length: UInt64, mimeType: String) throws {
        try appendPart(stream: InputStreamPart(inputStream), name: name, fileName: fileName, length: length, mimeType: mimeType)
    }

    /// Appends an `InputStream` made afresh by `streamFactory` each time the body is read, so
    /// every adapter can replay it; each stream must deliver exactly `length` bytes.
    @_disfavoredOverload
    public mutating func appendPart(
        streamFactory: @escaping @Sendable () throws -> InputStream,
        name: String, fileName: String, length: UInt64, mimeType: String
    ) throws {
        try appendPart(
            streamFactory: { () throws -> any MultipartPartStream in InputStreamPart(try streamFactory()) },
            name: name, fileName: fileName, length: length, mimeType: mimeType)
    }
}

/// An `InputStream` read as a part stream, opened on first read.
final class InputStreamPart: MultipartPartStream {
    private let stream: InputStream

    init(_ stream: InputStream) {
        self.stream = stream
    }

    func read(into buffer: inout OutputSpan<UInt8>) throws {
        if stream.streamStatus == .notOpen {
            stream.open()
            if stream.streamStatus == .error {
                throw MultipartStreamError(reason: "the stream failed to open: \(Self.describe(stream.streamError))")
            }
        }
        guard !buffer.isFull, stream.streamStatus != .atEnd else { return }
        let stream = stream
        let (count, room) = buffer.withUnsafeMutableBufferPointer { storage, initializedCount in
            let room = storage.count - initializedCount
            let count = stream.read(storage.baseAddress! + initializedCount, maxLength: room)
            // A subclass that claims more than it was given is refused below, never counted.
            if (0...room).contains(count) { initializedCount += count }
            return (count, room)
        }
        guard count >= 0 else {
            throw MultipartStreamError(reason: "the stream failed: \(Self.describe(stream.streamError))")
        }
        guard count <= room else {
            throw MultipartStreamError(reason: "the stream reported \(count) bytes read into a buffer of \(room)")
        }
    }

    func close() {
        stream.close()
    }

    private static func describe(_ error: (any Error)?) -> String {
        error.map { "\($0)" } ?? "unknown error"
    }
}
