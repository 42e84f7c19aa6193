import Foundation
import HTTPSerializationCore

// The core's other errors describe themselves in one sentence; `localizedDescription` (which
// apps show and log) returns that sentence instead of Foundation's "The operation could not be
// completed".

/// `localizedDescription` is the download error's own sentence, naming the file.
extension DownloadError: LocalizedError {
    /// The error's `description`, which `localizedDescription` returns.
    public var errorDescription: String? { description }
}

/// `localizedDescription` is the stream error's own sentence, naming where the stream broke.
extension StreamingResponseError: LocalizedError {
    /// The error's `description`, which `localizedDescription` returns.
    public var errorDescription: String? { description }
}

/// `localizedDescription` is the key-path error's own sentence, naming the path and why.
extension JSONKeyPathError: LocalizedError {
    /// The error's `description`, which `localizedDescription` returns.
    public var errorDescription: String? { description }
}
