import Foundation
import HTTPSerializationCore

/// The gate every XML body passes before FoundationXML sees it: the package's own reader
/// checks encoding, well-formedness, namespaces, the DTD policy and every limit, and hands on
/// bytes FoundationXML handles safely (UTF-8 that says so).
package enum XMLSafetyCheck {
    /// The bytes to give FoundationXML: the body itself, or its UTF-8 transcoding.
    package static func prepare(_ data: Data, policy: XMLReadingPolicy) throws(XMLReadingError) -> Data {
        guard data.count <= policy.maximumDocumentSize else {
            throw XMLReadingError(.documentTooLarge(limit: policy.maximumDocumentSize))
        }
        let (utf8, transcoded) = try XMLEncoding.utf8([UInt8](data))
        var tokenizer = try XMLTokenizer(utf8: utf8, policy: policy, emitsText: false)
        try tokenizer.checkToEnd()
        return transcoded ? Data(utf8) : data
    }
}
