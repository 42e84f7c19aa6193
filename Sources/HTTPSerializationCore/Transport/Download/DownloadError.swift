/// A download to a file that could not finish as asked, with the file and why.
///
/// What ``FileDownload`` throws besides the transport's errors and an unacceptable status
/// (``ResponseSerializationError/unacceptableStatusCode(_:response:underlying:)``). Unless the
/// download keeps partial files, the file it was writing is gone by the time this is thrown.
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination cannot be written: not a file URL, a folder, no permission, a full disk.
    case cannotWrite(path: String, reason: String)
    /// The partial file changed between the request and the response: another writer, or
    /// someone truncating it. Appending would leave a file no server sent.
    case fileChanged(path: String, expectedLength: Int64, actualLength: Int64)
    /// A `206` whose range is not the one asked for (it starts elsewhere, its length disagrees
    /// with `Content-Length`, it has no or an unreadable `Content-Range`, or none was asked).
    case rangeMismatch(path: String, requestedStart: Int64?, contentRange: String?)
    /// A `416` to a resumed request whose reported length is not the partial file's: the file
    /// is longer than the resource, or the resource changed.
    case rangeNotSatisfiable(path: String, fileLength: Int64, resourceLength: Int64?)
    /// The body ended before, or went past, the length its head announced; positions count
    /// from the start of the file.
    case lengthMismatch(path: String, expected: Int64, received: Int64)

    /// One sentence naming the file and what went wrong.
    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason):
            return "The download cannot be written to \(path): \(reason)."
        case .fileChanged(let path, let expected, let actual):
            return "The partial file \(path) changed while resuming it: it held \(actual) bytes, not the \(expected) the request resumed from."
        case .rangeMismatch(let path, let start, let contentRange):
            let asked = start.map { "bytes from \($0)" } ?? "no range"
            return "The server's partial answer for \(path) does not match the request (asked \(asked), got Content-Range \(contentRange.map { "\"\($0)\"" } ?? "none"))."
        case .rangeNotSatisfiable(let path, let fileLength, let resourceLength):
            let resource = resourceLength.map { "the resource holds \($0) bytes" } ?? "no length was given"
            return "The server cannot resume \(path) at byte \(fileLength) (416: \(resource)); remove the file to download it again."
        case .lengthMismatch(let path, let expected, let received):
            if received < expected { return "The download to \(path) ended early: \(received) of \(expected) bytes arrived." }
            return "The download to \(path) went past the \(expected) bytes announced: \(received) arrived."
        }
    }
}
