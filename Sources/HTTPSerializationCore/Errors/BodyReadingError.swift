/// A refusal from a body reader of a layer above the core, carried by
/// ``ResponseSerializationError/unreadableBody(_:response:)``.
///
/// Each layer owns its reader's error (the XML layer's for XML documents and property lists,
/// the image layer's for images), and a reader of your own can have one too. The core carries
/// any of them in one case, so a `switch` over a serializer's error stays exhaustive whichever
/// layers an app links, and a cast names the layer's own type:
///
/// ```swift
/// struct CSVReadingError: BodyReadingError {
///     var reasonText: String
///     var offset: Int?
///     var description: String { "The CSV body is refused: \(reasonText)." }
/// }
///
/// switch error {
/// case .unreadableBody(let refusal as CSVReadingError, _):
///     log("CSV refused at byte \(refusal.offset ?? 0): \(refusal.reasonText)")
/// case .unreadableBody(let refusal, _):
///     log(refusal.description)
/// default:
///     break
/// }
/// ```
public protocol BodyReadingError: Error, Hashable, CustomStringConvertible {
    /// The reason in words, without the position; `description` is the whole sentence, which
    /// ``ResponseSerializationError/reason`` shows.
    var reasonText: String { get }
    /// The byte offset in the body where the reader stopped, when one place is at fault.
    var offset: Int? { get }
}

extension BodyReadingError {
    /// Whether `other` is an error of the same type, equal to this one.
    func isSameRefusal(as other: any BodyReadingError) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
