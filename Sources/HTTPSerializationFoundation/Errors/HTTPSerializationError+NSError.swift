import Foundation
import HTTPSerializationCore

extension HTTPSerializationError {
    /// The error as AFNetworking reported it: AF's domain and code, the description and
    /// failure reason, the cause under `NSUnderlyingErrorKey`, and for response errors the
    /// response and body under AF's keys. `error as NSError` gives the same.
    public var nsError: NSError {
        NSError(domain: domain, code: code, userInfo: afUserInfo)
    }

    /// AFNetworking's user info for this error.
    var afUserInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: description,
            NSLocalizedFailureReasonErrorKey: reason,
        ]
        if let wrapped = underlyingError as? any HTTPSerializationError {
            info[NSUnderlyingErrorKey] = wrapped.nsError
        } else if let underlyingError {
            info[NSUnderlyingErrorKey] = underlyingError as NSError
        }
        if let context = responseContext {
            // AFNetworking's keys, so code that read them keeps working.
            if let response = context.urlResponse {
                info["com.alamofire.serialization.response.error.response"] = response
                if let url = response.url { info[NSURLErrorFailingURLErrorKey] = url }
            }
            if let data = context.data { info["com.alamofire.serialization.response.error.data"] = data }
        }
        return info
    }
}

/// `error as NSError` is AFNetworking's `com.alamofire.error.serialization.request` error.
extension RequestSerializationError: LocalizedError, CustomNSError {
    /// The error's `description`, which `localizedDescription` returns.
    public var errorDescription: String? { description }
    /// Why the failure happened; for invalid JSON parameters AFNetworking's exact sentence,
    /// "The `parameters` argument is not valid JSON."
    public var failureReason: String? { reason }
    /// AFNetworking's request domain, `com.alamofire.error.serialization.request`.
    public static var errorDomain: String { domain }
    /// -1000 for an invalid URL, -1016 otherwise: the error's `code`.
    public var errorCode: Int { code }
    /// AFNetworking's user info: description, failure reason and underlying error.
    public var errorUserInfo: [String: Any] { afUserInfo }
}

/// `error as NSError` is AFNetworking's `com.alamofire.error.serialization.response` error,
/// with the response and body under AF's keys.
extension ResponseSerializationError: LocalizedError, CustomNSError {
    /// The error's `description`, which `localizedDescription` returns.
    public var errorDescription: String? { description }
    /// Why the failure happened: the error's `reason`.
    public var failureReason: String? { reason }
    /// AFNetworking's response domain, `com.alamofire.error.serialization.response`.
    public static var errorDomain: String { domain }
    /// -1011 for an unacceptable status code or a check's refusal, -1016 otherwise: the error's `code`.
    public var errorCode: Int { code }
    /// AFNetworking's user info: description, failure reason, underlying error, the failing URL,
    /// and the response and body under AF's keys.
    public var errorUserInfo: [String: Any] { afUserInfo }
}

/// `error as NSError` is the error `JSONSerialization` gives for a document it cannot read:
/// `NSCocoaErrorDomain` 3840, with the reader's sentence as its debug description.
extension JSONReadingError: CustomNSError {
    /// `NSCocoaErrorDomain`, as `JSONSerialization` reports a malformed document.
    public static var errorDomain: String { NSCocoaErrorDomain }
    /// 3840 (`NSPropertyListReadCorruptError`), JSONSerialization's code for it.
    public var errorCode: Int { 3840 }
    /// The fault and its byte offset under `NSDebugDescriptionErrorKey`.
    public var errorUserInfo: [String: Any] { [NSDebugDescriptionErrorKey: description] }
}
