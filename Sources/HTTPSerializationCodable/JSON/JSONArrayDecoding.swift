/// `[Element]` for any `Decodable` element, read in one loop over the array's entries.
///
/// The standard library's `Array.init(from:)` asks for an unkeyed container (an existential
/// boxed on the heap), then reads each element through it, appending to an array it did not
/// reserve, all in unspecialized code: about 100 ns an element more than this loop. Each
/// element is decoded exactly as the container would decode it, with the same path, so values
/// and errors do not change.
protocol JSONDecodableArray {
    /// The array at the decoder's entry, whose path already names it.
    static func decodeElements(from decoder: JSONTapeDecoder) throws -> Self
}

extension Array: JSONDecodableArray where Element: Decodable {
    static func decodeElements(from decoder: JSONTapeDecoder) throws -> [Element] {
        let array = decoder.entry
        let tape = decoder.tape
        guard tape.kind(array) == .array else { throw decoder.containerMismatch(at: array, path: decoder.codingPath, array: true) }
        let count = tape.length(array)
        // The unkeyed container's site: elements append their index to the path as it is now.
        let site = JSONPathSite(prefix: decoder.path.count)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var element = array + 1
        for index in 0..<count {
            elements.append(try decoder.decodeValue(Element.self, at: element, site: site, appending: { .index(index) }))
            element = tape.next(element)
        }
        return elements
    }
}
