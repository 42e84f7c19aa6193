// One rule for every path that writes an `Encodable` model as a query or form: a list of
// models is written with indices where the style says `[]` (issue 66).

extension QueryStringStyle {
    /// The style an `Encodable` model is written in: this one, with ``ArrayEncoding/brackets``
    /// read as ``ArrayEncoding/bracketsIndexingContainers``, so that a list of models is never
    /// written in names PHP and multipart-kit read as other models.
    package var forEncodableModels: QueryStringStyle {
        guard arrayEncoding == .brackets else { return self }
        var style = self
        style.arrayEncoding = .bracketsIndexingContainers
        return style
    }
}

extension HTTPRequestSerializerComposing {
    /// This serializer as it writes an `Encodable` model's query or form body: its style
    /// ``QueryStringStyle/forEncodableModels``.
    package var forEncodableModels: Self {
        var serializer = self
        serializer.base.queryStringStyle = base.queryStringStyle.forEncodableModels
        return serializer
    }
}
