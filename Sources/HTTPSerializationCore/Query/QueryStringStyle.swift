#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a parameter tree is spelled as a query string or form body.
///
/// ``afNetworking`` is the default and matches AFNetworking byte for byte; the options cover
/// what other servers expect (Rails, PHP, Spring, Node's `qs`) without changing the tree.
///
/// ```swift
/// var style = QueryStringStyle.afNetworking
/// style.arrayEncoding = .indexed          // a[0]=x&a[1]=y
/// style.spaceEncoding = .plus             // "a b" => a+b
/// ```
public struct QueryStringStyle: Sendable {
    /// How array elements are named.
    public enum ArrayEncoding: String, Sendable, Codable, CaseIterable {
        /// `a[]=1&a[]=2` (AFNetworking, Rails, PHP).
        ///
        /// A list whose elements are dictionaries or lists is written `a[][id]=1&a[][label]=x`,
        /// AFNetworking's names, which Rails and Rack read as the elements sent but PHP and
        /// multipart-kit read as one-key objects. The encoders of `Encodable` models
        /// (`FormEncoder`, `MultipartFormEncoder`, a request serializer given a model) therefore
        /// write models under this encoding as ``bracketsIndexingContainers``; a
        /// ``ParameterValue`` tree or a `[String: Any]` keeps AFNetworking's names.
        case brackets
        /// `a[]=1&a[]=2` for values, and `a[0][id]=1&a[1][id]=2` for elements that are
        /// dictionaries or lists (jQuery's `$.param`), so PHP and multipart-kit read a list of
        /// models as the models sent; Rails and Rack read such a list as a hash keyed `"0"`,
        /// `"1"`. An index counts the elements before it that wrote a pair, as PHP counts `[]`,
        /// so an element that writes nothing (a model whose optionals are all nil) takes none.
        /// What ``brackets`` means for `Encodable` models. To read these names back into
        /// lists with `ParameterValue(formPairs:style:)`, pass this encoding; `FormDecoder`
        /// reads them under any.
        case bracketsIndexingContainers
        /// `a[0]=1&a[1]=2`, so arrays of dictionaries round-trip (`a[0][x]`).
        case indexed
        /// `a=1&a=2` (Go, Python, Spring).
        case repeatedKeys
    }

    /// How dictionary keys below the top level are joined to their parent.
    public enum KeyEncoding: String, Sendable, Codable, CaseIterable {
        /// `a[b][c]=1` (AFNetworking).
        case brackets
        /// `a.b.c=1` (Spring, `qs` with `allowDots`).
        case dotted
    }

    /// How booleans are written.
    public enum BoolEncoding: String, Sendable, Codable, CaseIterable {
        /// `1` and `0`, as `NSNumber` describes booleans (AFNetworking).
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// How a space is written.
    public enum SpaceEncoding: String, Sendable, Codable, CaseIterable {
        /// `%20` (AFNetworking, RFC 3986).
        case percentEscaped
        /// `+` (HTML forms, `application/x-www-form-urlencoded` as browsers send it).
        case plus
    }

    /// How null values are written.
    public enum NullEncoding: String, Sendable, Codable, CaseIterable {
        /// The key alone: `a` (AFNetworking).
        case bareKey
        /// The key with an empty value: `a=`.
        case emptyValue
        /// Left out.
        case dropKey
    }

    /// How dates are written.
    public enum DateEncoding: Sendable {
        /// Foundation's description, `2001-01-01 00:00:00 +0000` (what AFNetworking sent).
        case foundationDescription
        /// Seconds since 1970, as the shortest number: `978307200` or `978307200.5`.
        case secondsSince1970
        /// Whole milliseconds since 1970: `978307200000`.
        case millisecondsSince1970
        /// ISO 8601 in UTC with fractional seconds only when present: `2001-01-01T00:00:00Z`.
        case iso8601
        /// Your own format; the result is percent-escaped like any value.
        case custom(@Sendable (Date) -> String)
    }

    /// How binary data is written.
    public enum DataEncoding: Sendable {
        /// Standard Base64 (then percent-escaped, so `+` `/` `=` survive).
        case base64
        /// Your own format; the result is percent-escaped like any value.
        case custom(@Sendable (Data) -> String)
    }

    /// How array elements are named; ``ArrayEncoding/brackets`` by default.
    public var arrayEncoding: ArrayEncoding
    /// How nested dictionary keys are joined; ``KeyEncoding/brackets`` by default.
    public var keyEncoding: KeyEncoding
    /// How booleans are written; ``BoolEncoding/numeric`` by default.
    public var boolEncoding: BoolEncoding
    /// How spaces are written; ``SpaceEncoding/percentEscaped`` by default.
    public var spaceEncoding: SpaceEncoding
    /// How nulls are written; ``NullEncoding/bareKey`` by default.
    public var nullEncoding: NullEncoding
    /// How dates are written; ``DateEncoding/foundationDescription`` by default.
    public var dateEncoding: DateEncoding
    /// How data is written; ``DataEncoding/base64`` by default.
    public var dataEncoding: DataEncoding

    /// A style; every default is AFNetworking's, so `QueryStringStyle()` is ``afNetworking``.
    public init(
        arrayEncoding: ArrayEncoding = .brackets,
        keyEncoding: KeyEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        spaceEncoding: SpaceEncoding = .percentEscaped,
        nullEncoding: NullEncoding = .bareKey,
        dateEncoding: DateEncoding = .foundationDescription,
        dataEncoding: DataEncoding = .base64
    ) {
        self.arrayEncoding = arrayEncoding
        self.keyEncoding = keyEncoding
        self.boolEncoding = boolEncoding
        self.spaceEncoding = spaceEncoding
        self.nullEncoding = nullEncoding
        self.dateEncoding = dateEncoding
        self.dataEncoding = dataEncoding
    }

    /// AFNetworking 4's encoding: keys sorted at every level, `a[b]`, `a[]`, set elements as
    /// repeated keys in sorted order, null as a bare key, booleans as `1`/`0`, `%20` for space.
    public static let afNetworking = QueryStringStyle()
}
