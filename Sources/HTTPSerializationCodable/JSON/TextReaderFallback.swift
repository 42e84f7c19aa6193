#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONBodyDecoder {
    /// A decode of a model with generated readers (`@GeneratedJSONCoding`) that left the fast
    /// path, the document's text, and read the document again through the package's parse.
    ///
    /// The value is the same either way; the parse takes about twice the time. Set
    /// ``JSONBodyDecoder/onTextReaderFallback`` to hear of each, in a test that keeps a model
    /// on the fast path or in a debug log:
    ///
    /// ```swift
    /// var decoder = JSONBodyDecoder()
    /// decoder.onTextReaderFallback = { fallback in print("slow decode: \(fallback)") }
    /// // slow decode: App.Profile read through the parse: its property type Foundation.Locale has no generated reader
    /// ```
    public struct TextReaderFallback: Sendable, Hashable, CustomStringConvertible {
        /// Why the text reader stopped. More reasons may come as the reader learns to say
        /// why; compare with the ones below rather than relying on this list being complete.
        public struct Reason: Sendable, Hashable {
            enum Kind: Sendable, Hashable { case noReader, customKeyStrategy, customDateStrategy, customDataStrategy, document }
            let kind: Kind
            /// The property type with no reader of its own (as `String(reflecting:)` names it)
            /// for ``noReader(type:)``; nil for the other reasons.
            public let typeWithoutReader: String?

            /// A property's type has no reader of its own: give it `@GeneratedJSONCoding`, or
            /// accept the parse for this model.
            public static func noReader(type: String) -> Reason { Reason(kind: .noReader, typeWithoutReader: type) }
            /// The decoder's key strategy is `.custom`, which asks for coding paths the text
            /// reader does not keep.
            public static let customKeyStrategy = Reason(kind: .customKeyStrategy, typeWithoutReader: nil)
            /// The date strategy is `.custom`, and the model reads a date.
            public static let customDateStrategy = Reason(kind: .customDateStrategy, typeWithoutReader: nil)
            /// The data strategy is `.custom`, and the model reads data.
            public static let customDataStrategy = Reason(kind: .customDataStrategy, typeWithoutReader: nil)
            /// Something in this document: text that is not JSON, a value of the wrong kind or
            /// a missing key (the parse gives the error), a key that is not ASCII or that snake
            /// case cannot settle, nesting past the depth limit, or an object crowded with
            /// members before a key asked for.
            public static let document = Reason(kind: .document, typeWithoutReader: nil)
        }

        /// The type the decode was asked for, as `String(reflecting:)` names it.
        public let model: String
        /// Why its text reader stopped.
        public let reason: Reason

        /// A fallback of a decode of `model`.
        public init(model: String, reason: Reason) {
            self.model = model
            self.reason = reason
        }

        /// The model and the reason, in words.
        public var description: String {
            let why = switch reason.kind {
            case .noReader: "its property type \(reason.typeWithoutReader ?? "") has no generated reader"
            case .customKeyStrategy: "the key decoding strategy is custom"
            case .customDateStrategy: "the date decoding strategy is custom"
            case .customDataStrategy: "the data decoding strategy is custom"
            case .document: "the document holds something the text reader does not read"
            }
            return "\(model) read through the parse: \(why)"
        }
    }
}

extension JSONTextReader {
    /// Why a reader stopped where the document's text was not the reason: thrown instead of a
    /// ``JSONTextCursor/Miss`` so that a decode can say why it left the text.
    struct Unread: Error {
        let reason: JSONBodyDecoder.TextReaderFallback.Reason

        /// A type with no reader of its own.
        static func noReader(_ type: Any.Type) -> Unread {
            Unread(reason: .noReader(type: String(reflecting: type)))
        }
    }
}
