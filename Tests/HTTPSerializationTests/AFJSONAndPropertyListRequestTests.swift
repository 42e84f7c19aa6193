import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPSerialization
@testable import HTTPSerializationCodable
@testable import HTTPSerializationCore
@testable import HTTPSerializationFoundation
@testable import HTTPSerializationImages
@testable import HTTPSerializationXML

/// af-test-cases.md §2a (`AFJSONRequestSerializationTests`) and §3
/// (`AFPropertyListRequestSerializerTests`), in Swift form.
@Suite("AFNetworking parity: JSON and property-list request serialization")
struct AFJSONAndPropertyListRequestTests {
    let baseURL = "http://127.0.0.1:1"

    @Test("§2 #1 a parameters dictionary becomes a JSON object body")
    func jsonHandlesDictionary() throws {
        let result = try JSONRequestSerializer().request(method: "POST", urlString: baseURL, parameters: ["key": "value"])
        #expect(bodyText(result) == #"{"key":"value"}"#)
        #expect(result.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("§2 #2 a top-level array becomes a JSON array body")
    func jsonHandlesArray() throws {
        let result = try JSONRequestSerializer().request(method: "POST", urlString: baseURL, parameters: [["key": "value"]])
        #expect(bodyText(result) == #"[{"key":"value"}]"#)
    }

    @Test("§2 #3 a value JSON cannot hold is an error (NaN and infinity; Swift strings cannot hold a lone surrogate)")
    func jsonRejectsInvalidNumbers() {
        for bad: Double in [.nan, .infinity, -.infinity] {
            #expect(throws: RequestSerializationError.self) {
                try JSONRequestSerializer().request(method: "POST", urlString: baseURL, parameters: ["key": .double(bad)])
            }
        }
    }

    @Test("§2 #4 a set is not JSON: AF's domain, code -1016 and failure reason")
    func jsonRejectsSetWithAFError() throws {
        let parameters = try ParameterValue(any: ["key": NSSet(array: ["value"])])
        do {
            _ = try JSONRequestSerializer().request(method: "POST", urlString: baseURL, parameters: parameters)
            Issue.record("a set was accepted as JSON")
        } catch let error as RequestSerializationError {
            let bridged = error.nsError
            #expect(bridged.domain == "com.alamofire.error.serialization.request")
            #expect(bridged.code == NSURLErrorCannotDecodeContentData)
            #expect(bridged.code == -1016)
            #expect(bridged.localizedFailureReason == "The `parameters` argument is not valid JSON.")
            #expect((error as NSError).code == -1016)
        }
    }

    @Test("§3 #1 a plist serializer writes an XML plist body")
    func plistAcceptsDictionary() throws {
        let result = try PropertyListRequestSerializer().request(method: "POST", urlString: baseURL, parameters: ["key": "value"])
        #expect(result.value(forHTTPHeaderField: "Content-Type") == "application/x-plist")
        let body = try #require(bodyText(result))
        #expect(body.contains("<dict>"))
        #expect(body.contains("<key>key</key>"))
        #expect(body.contains("<string>value</string>"))
        let decoded = try PropertyListSerialization.propertyList(from: result.httpBody!, format: nil) as? [String: String]
        #expect(decoded == ["key": "value"])
    }

    @Test("§3 #2 a non-string dictionary key is an error")
    func plistRejectsNonStringKey() {
        #expect(throws: RequestSerializationError.self) {
            let parameters = try ParameterValue(any: [42: "value"])
            _ = try PropertyListRequestSerializer().request(method: "POST", urlString: baseURL, parameters: parameters)
        }
    }
}
