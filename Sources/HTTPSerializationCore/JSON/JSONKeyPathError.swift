/// Why a ``JSONKeyPath`` leads nowhere in a document that is otherwise valid JSON.
///
/// Thrown in place of a value, so a missing payload is told apart from a body that is not
/// JSON (a ``JSONReadingError``) and from a payload that does not decode (a `DecodingError`).
///
/// ```swift
/// do {
///     let items = try ParameterValue(json: body, atKeyPath: "data.items")
/// } catch let error as JSONKeyPathError {
///     print(error)  // No value at "data.items" in the JSON document: "data" has no key "items".
/// }
/// ```
public struct JSONKeyPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stopped the walk.
    public enum Reason: Sendable, Hashable {
        /// The object has no such key.
        case keyNotFound(String)
        /// The array has only `count` elements.
        case indexOutOfRange(Int, count: Int)
        /// A string, number, boolean or null (named in words: `"a string"`, `"null"`) stands
        /// where the path needs a container, or an object where it gives an index
        /// (`"an object"`), or an array where it gives a key that is not a number (`"an array"`).
        case notAContainer(found: String)
    }

    /// The whole path that was asked for.
    public var keyPath: JSONKeyPath
    /// How many of its components were found before the failing one (`keyPath.components[found]`).
    public var found: Int
    /// What the failing component met.
    public var reason: Reason

    /// An error for `keyPath`, failing at component `found` for `reason`.
    public init(keyPath: JSONKeyPath, found: Int, reason: Reason) {
        self.keyPath = keyPath
        self.found = found
        self.reason = reason
    }

    /// The path, where it stopped, and why, in one sentence.
    public var description: String {
        let parent = JSONKeyPath(Array(keyPath.components.prefix(min(max(found, 0), keyPath.components.count))))
        let place = parent.components.isEmpty ? "the document" : "\"\(parent)\""
        let detail: String
        switch reason {
        case .keyNotFound(let key): detail = "\(place) has no key \"\(key)\""
        case .indexOutOfRange(let index, let count): detail = "\(place) has \(count) elements, so no index \(index)"
        case .notAContainer(let found): detail = "\(place) is \(found), which the next component cannot enter"
        }
        return "No value at \"\(keyPath)\" in the JSON document: \(detail)."
    }
}
