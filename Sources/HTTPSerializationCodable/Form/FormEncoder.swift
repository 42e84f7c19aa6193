#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPSerializationCore

/// Encodes `Encodable` models as `application/x-www-form-urlencoded` text: the way to
/// ``FormDecoder``.
///
/// Use it where a form or query string is wanted without a request around it, such as a
/// server's form responses or a framework's form encoder. The model becomes a
/// ``/HTTPSerializationCore/ParameterValue`` first, so nested properties are written `user[name]=…`
/// and arrays `tags[]=…` in ``style``, which also sets how dates, booleans and data look.
///
/// A list of models is written with indices, `items[0][id]=1&items[0][label]=a&items[1][id]=2`,
/// under the default ``/HTTPSerializationCore/QueryStringStyle/ArrayEncoding/brackets`` encoding:
/// AFNetworking's names for it, `items[][id]`, are read by PHP and multipart-kit as one-key
/// objects (Rails and Rack read those as the list, and these as a hash keyed `"0"`, `"1"`). For
/// AFNetworking's names,
/// encode the model into a `ParameterValue` and write it with `queryString(from:style:)`. A
/// `Float` is written as the number its own shortest digits give (`0.1`).
///
/// ```swift
/// struct Search: Encodable { var q: String; var page: Int }
/// try FormEncoder().encode(Search(q: "swift 6", page: 2))  // "page=2&q=swift%206"
/// ```
public struct FormEncoder: Sendable {
    /// How keys, arrays, booleans, dates and data are written; AFNetworking's by default, but
    /// for a list of models, which ``/HTTPSerializationCore/QueryStringStyle/ArrayEncoding/brackets``
    /// writes with indices here (``/HTTPSerializationCore/QueryStringStyle/ArrayEncoding/bracketsIndexingContainers``).
    public var style: QueryStringStyle
    /// The deepest nesting encoded before a typed error.
    public var maximumDepth: Int

    /// An encoder; the defaults write what ``FormDecoder``'s defaults read.
    public init(style: QueryStringStyle = .afNetworking, maximumDepth: Int = ParameterValue.defaultMaximumDepth) {
        self.style = style
        self.maximumDepth = maximumDepth
    }

    /// The form text of `value`.
    ///
    /// - Throws: ``/HTTPSerializationCore/RequestSerializationError`` for a model nested past
    ///   ``maximumDepth`` or one that encodes nothing, and any error its `encode(to:)` throws.
    public func encode(_ value: some Encodable) throws -> String {
        queryString(from: try ParameterValue(encoding: value, maximumDepth: maximumDepth), style: style.forEncodableModels)
    }
}
