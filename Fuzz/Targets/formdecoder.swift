import Foundation
import HTTPSerialization

/// Form bodies and query strings of arbitrary bytes read into pairs and a tree under every
/// style and small random limits: a tree or a typed `FormDecodingError`, never a crash, a
/// hang or memory growing with a key's depth; the lenient reading never fails on an escape.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormDecoder(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    var limits = FormDecodingLimits()
    limits.maximumPairs = 1 + input.below(64)
    limits.maximumDepth = 1 + input.below(16)
    limits.maximumKeyLength = 1 + input.below(128)
    limits.maximumValueLength = 1 + input.below(128)
    let arrays = QueryStringStyle.ArrayEncoding.allCases[input.below(3)]
    let keys = QueryStringStyle.KeyEncoding.allCases[input.below(2)]
    let style = QueryStringStyle(arrayEncoding: arrays, keyEncoding: keys)
    let body = input.rest()
    do {
        let bytes = body.span
        for lenient in [false, true] {
            do {
                let pairs = try FormPairs.parse(utf8: bytes, limits: limits, keepsMalformedEscapes: lenient)
                require(pairs.count <= limits.maximumPairs, "more pairs than the limit")
                _ = try ParameterValue(formPairs: pairs, style: style, limits: limits)
            } catch let error as FormDecodingError {
                if lenient, case .malformedPercentEscape = error { require(false, "the lenient reading failed on an escape") }
            } catch {
                require(false, "not a FormDecodingError: \(error)")
            }
        }
    }
    return 0
}
