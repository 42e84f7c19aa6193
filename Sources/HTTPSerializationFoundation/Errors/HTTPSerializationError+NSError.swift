import Foundation
import HTTPSerializationCore

extension HTTPSerializationError: LocalizedError {
    public var errorDescription: String? { descriptionText }

    /// Why the failure happened; for invalid JSON parameters this is AFNetworking's exact
    /// sentence, ``The `parameters` argument is not valid JSON.``
    public var failureReason: String? { reasonText }
}

extension HTTPSerializationError {
    /// The error as AFNetworking reported it: AF's domain and code, the failure reason under
    /// `NSLocalizedFailureReasonErrorKey`, and the cause under `NSUnderlyingErrorKey`.
    ///
    /// Use it where Objective-C-era code switches on `domain` and `code`; `error as NSError`
    /// carries the same code and user info but Swift's fixed per-type domain.
    public var nsError: NSError {
        NSError(domain: domain, code: code, userInfo: userInfo)
    }

    var userInfo: [String: Any] {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: descriptionText,
            NSLocalizedFailureReasonErrorKey: reasonText,
        ]
        if let validation = underlyingError as? HTTPSerializationError {
            info[NSUnderlyingErrorKey] = validation.nsError
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

extension HTTPSerializationError: CustomNSError {
    public static var errorDomain: String { "HTTPSerialization.HTTPSerializationError" }
    public var errorCode: Int { code }
    public var errorUserInfo: [String: Any] { userInfo }
}
