/// `[Element]` for any `Decodable` element, read in one loop over the array's entries.
///
/// The standard library's `Array.init(from:)` asks for an unkeyed container (an existential
/// boxed on the heap), then reads each element through it, appending to an array it did not
/// reserve, all in unspecialized code, which costs each element more than this loop. Each
/// element is decoded exactly as the container would decode it, with the same path, so values
/// and errors do not change.
protocol JSONDecodableArray {
    /// The array at the decoder's entry, whose path already names it.
    static func decodeElements(from decoder: JSONTapeDecoder) throws -> Self
}

extension Array: JSONDecodableArray where Element: Decodable {
    static func decodeElements(from decoder: JSONTapeDecoder) throws -> [Element] {
        // The unkeyed container's site: elements append their index to the path as it is now.
        let site = JSONPathSite(prefix: decoder.path.count)
        return try decoder.array(at: decoder.entry, path: { decoder.codingPath }) { element, index, _ in
            try decoder.decodeValue(Element.self, at: element, site: site, appending: { .index(index) })
        }
    }
}
