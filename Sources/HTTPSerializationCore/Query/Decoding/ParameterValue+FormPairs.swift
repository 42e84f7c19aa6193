extension ParameterValue {
    /// The parameter tree that form pairs spell, the inverse of ``QueryStringStyle``'s
    /// flattening: `a[b][c]=1` (or `a.b.c=1` with ``QueryStringStyle/KeyEncoding/dotted``
    /// keys) a dictionary, `a[]=1&a[]=2` and repeated keys an array, `a[0]=1` an array by
    /// index under ``QueryStringStyle/ArrayEncoding/indexed``. Values stay the strings they
    /// were sent as, and a bare key is `.null`; a typed model reads them with `FormDecoder`.
    ///
    /// ```swift
    /// let pairs = try FormPairs.parse("user[name]=Ann&user[tags][]=a&user[tags][]=b")
    /// try ParameterValue(formPairs: pairs)   // ["user": ["name": "Ann", "tags": ["a", "b"]]]
    /// ```
    ///
    /// Under ``QueryStringStyle/ArrayEncoding/brackets``, `a[][x]=1&a[][y]=2` is one
    /// element with both keys and a key seen again starts the next, as Rails reads it.
    /// Under ``QueryStringStyle/ArrayEncoding/indexed``, forms read as PHP's `parse_str`
    /// reads them: indices that run 0..<n make an array, others stay keys as written
    /// (`a[9]=x` alone is `["a": ["9": "x"]]`), and a container whose keys mix indices and
    /// names (`a[0]=x&a[k]=y`, or `a[]=x&a[k]=y` in any style) is a dictionary keyed by each
    /// key's text, as PHP, Rack and qs read it. A value and a container under one name
    /// (`a=1&a[b]=2`) is an error, where PHP keeps the later one.
    ///
    /// - Parameters:
    ///   - pairs: the pairs in the order they were sent.
    ///   - style: the key and array encodings the pairs were written with.
    ///   - limits: the deepest key accepted.
    /// - Throws: ``FormDecodingError/nestedTooDeep(key:limit:)`` or
    ///   ``FormDecodingError/conflictingKeys(_:)``.
    public init(formPairs pairs: [QueryStringPair], style: QueryStringStyle = .afNetworking, limits: FormDecodingLimits = FormDecodingLimits()) throws(FormDecodingError) {
        self = try FormTree(pairs: pairs, style: style, limits: limits).value()
    }
}
