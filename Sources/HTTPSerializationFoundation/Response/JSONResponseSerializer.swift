import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerializationCore

/// Validates a response and parses its JSON body: AFNetworking's `AFJSONResponseSerializer`.
///
/// An empty or whitespace-only body is `nil`, not an error (Rails' `head :ok` sends a
/// space). When the status is not acceptable the body is still parsed and attached to the
/// error as ``/HTTPSerializationCore/ResponseContext/decodedBody``; an unacceptable content type is not parsed.
///
/// ```swift
/// let object = try JSONResponseSerializer().responseObject(for: response, data: data)
/// let name = (object as? [String: Any])?["name"] as? String
/// ```
@dynamicMemberLookup
public struct JSONResponseSerializer: HTTPResponseSerializerComposing {
    /// The JSON content types: `application/json`, `text/json` and `text/javascript`.
    public static let defaultContentTypes: Set<String> = HTTPResponseSerializer.jsonContentTypes

    /// The shared validation: acceptable status codes and content types.
    public var base: HTTPResponseSerializer
    /// Options for `JSONSerialization`; `.fragmentsAllowed` accepts a bare scalar.
    public var readingOptions: JSONSerialization.ReadingOptions
    /// Drops null dictionary values and null array elements, at every level.
    public var removesKeysWithNullValues: Bool
    /// Documents nested deeper than this are an error before Foundation parses them.
    public var maximumDepth: Int = ParameterValue.defaultMaximumDepth
    /// Where the wanted value sits inside the document (`"data.items"`); nil is the whole document.
    ///
    /// Only the value at the path is built (the rest is checked, then passed over whole), and it
    /// may be any JSON value, a scalar too. Where an object repeats a key the last is followed,
    /// as `JSONSerialization` keeps it. A path that leads nowhere is a `responseSerializationFailed`
    /// error over the ``/HTTPSerializationCore/JSONKeyPathError`` naming it.
    ///
    /// ```swift
    /// var serializer = JSONResponseSerializer()
    /// serializer.keyPath = "data.items"
    /// let items = try serializer.responseObject(for: response, data: data) as? [[String: Any]]
    /// ```
    public var keyPath: JSONKeyPath?

    /// A JSON serializer over `base`; by default no reading options and nulls kept.
    public init(
        base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: JSONResponseSerializer.defaultContentTypes),
        readingOptions: JSONSerialization.ReadingOptions = [], removesKeysWithNullValues: Bool = false
    ) {
        self.base = base
        self.readingOptions = readingOptions
        self.removesKeysWithNullValues = removesKeysWithNullValues
    }

    /// The parsed JSON (`[String: Any]`, `[Any]`, or a scalar with `.fragmentsAllowed`), or
    /// nil for an empty body.
    ///
    /// - Throws: validation errors,
    ///   ``/HTTPSerializationCore/ResponseSerializationError/unreadableJSON(_:response:validation:)``
    ///   for JSON the reader refuses, and
    ///   ``/HTTPSerializationCore/ResponseSerializationError/responseSerializationFailed(reason:response:underlying:validation:)``
    ///   for a top-level scalar without `.fragmentsAllowed` or a ``keyPath`` that leads
    ///   nowhere (over its ``/HTTPSerializationCore/JSONKeyPathError``); each with a status
    ///   failure underneath when there was one.
    public func responseObject(for response: ResponseContext) throws -> Any? {
        let response = try preprocessed(response)
        let statusFailure = try statusFailure(response)
        guard !response.hasEmptyBody(whitespaceIsEmpty: true), let data = response.data else {
            if let statusFailure { throw statusFailure }
            return nil
        }
        let context = response.withoutDecodedBody
        let object = try Self.parse(
            data, options: readingOptions, maximumDepth: maximumDepth, removingNulls: removesKeysWithNullValues,
            keyPath: keyPath, context: context, validation: statusFailure)
        if let statusFailure { throw Self.attaching(object, to: statusFailure) }
        return object
    }

    /// The parsed document, read by the package's own reader: strict RFC 8259 on every
    /// platform, nesting bounded, nulls left out while building when asked.
    ///
    /// Options beyond `.fragmentsAllowed` (mutable containers or leaves) hand the document,
    /// once our reader has accepted it, to `JSONSerialization` for the classes they ask for.
    /// With `keyPath`, the value there (any value: the document around it is a container).
    static func parse(
        _ data: Data, options: JSONSerialization.ReadingOptions, maximumDepth: Int, removingNulls: Bool,
        keyPath: JSONKeyPath? = nil, context: ResponseContext, validation: ResponseSerializationError?
    ) throws -> Any {
        // Built inside the reading, which reads the body in place; Foundation's classes are
        // asked for only after the reader has accepted the body.
        let handsOver = !options.subtracting(.fragmentsAllowed).isEmpty
        let read: JSONRead
        do {
            read = try JSONTape.withParsed(data, maximumDepth: maximumDepth) { reader -> JSONRead in
                var root = 0
                if let keyPath, !keyPath.components.isEmpty {
                    do throws(JSONKeyPathError) {
                        root = try reader.entry(at: keyPath, repeatedKey: .last)
                    } catch {
                        return .pathFailed(error)
                    }
                } else if !options.contains(.fragmentsAllowed), !reader.isContainer {
                    return .scalarRefused
                }
                guard handsOver else { return .built(reader.foundationObject(removingNulls: removingNulls, from: root)) }
                return .accepted(root == 0 ? data : Data(reader.jsonText(at: root)))
            }
        } catch {
            throw ResponseSerializationError.unreadableJSON(error, response: context, validation: validation)
        }
        switch read {
        case .built(let object):
            return object
        case .pathFailed(let error):
            throw ResponseSerializationError.responseSerializationFailed(
                reason: error.description, response: context, underlying: UnderlyingError(error), validation: validation)
        case .scalarRefused:
            throw ResponseSerializationError.responseSerializationFailed(
                reason: "The response is not valid JSON: a top-level scalar needs the .fragmentsAllowed reading option.",
                response: context, validation: validation)
        case .accepted(let text):
            let object: Any
            do {
                object = try JSONSerialization.jsonObject(with: text, options: options.union(.fragmentsAllowed))
            } catch {
                throw ResponseSerializationError.responseSerializationFailed(
                    reason: "The response is not valid JSON.", response: context, underlying: UnderlyingError(error), validation: validation)
            }
            return removingNulls ? Self.removingNulls(from: object) : object
        }
    }

    /// What one reading of a body gave.
    private enum JSONRead {
        case built(Any)
        /// Valid, for `JSONSerialization` to build with the mutable-container options: the
        /// document, or the text of the value at the key path.
        case accepted(Data)
        /// A top-level scalar without `.fragmentsAllowed`.
        case scalarRefused
        /// The key path leads nowhere.
        case pathFailed(JSONKeyPathError)
    }

    /// Null dictionary values and null array elements removed at every level.
    static func removingNulls(from object: Any) -> Any {
        if let dictionary = object as? [String: Any] {
            var result: [String: Any] = [:]
            result.reserveCapacity(dictionary.count)
            for (key, value) in dictionary where !(value is NSNull) {
                result[key] = removingNulls(from: value)
            }
            return result
        }
        if let array = object as? [Any] {
            return array.filter { !($0 is NSNull) }.map(removingNulls(from:))
        }
        return object
    }

    /// The status failure with the parsed body attached, when it has a parameter form.
    static func attaching(_ object: Any, to failure: ResponseSerializationError) -> ResponseSerializationError {
        guard case .unacceptableStatusCode(let code, var context, let underlying) = failure else { return failure }
        context.decodedBody = try? ParameterValue(any: object)
        return .unacceptableStatusCode(code, response: context, underlying: underlying)
    }
}
