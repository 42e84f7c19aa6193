import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization

private let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: "HTTP/1.1",
                                       headerFields: ["Content-Type": "application/x-plist"])!

/// The property-list readers on arbitrary bytes (half the inputs start as a binary list, a
/// quarter as an XML one, so the fuzzer gets past the magic): a value or a typed error, never
/// a crash or a hang, in time linear in the input (shared binary objects included); whatever
/// is read converts to Foundation's shape.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropertyLists(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzBytes(UnsafeRawBufferPointer(start: start, count: count))
    let prefix: [UInt8]
    switch input.below(4) {
    case 0, 1: prefix = Array("bplist00".utf8)
    case 2: prefix = Array("<plist version=\"1.0\">".utf8)
    default: prefix = []
    }
    let data = Data(prefix + input.rest())
    do {
        _ = try PropertyListResponseSerializer().responseObject(for: response, data: data)
    } catch is any HTTPSerializationError {
    } catch {
        require(false, "an untyped error: \(error)")
    }
    return 0
}
