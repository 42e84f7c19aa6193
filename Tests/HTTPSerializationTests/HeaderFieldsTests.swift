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

@Suite("Header fields")
struct HeaderFieldsTests {
    @Test("fields keep their first-set order and match names case-insensitively")
    func orderAndCase() throws {
        var headers = HTTPHeaderFields()
        try headers.setValue("1", forHTTPHeaderField: "B-Header")
        try headers.setValue("2", forHTTPHeaderField: "A-Header")
        try headers.setValue("3", forHTTPHeaderField: "b-header")
        #expect(headers.map(\.name) == ["B-Header", "A-Header"])
        #expect(headers.value(forHTTPHeaderField: "B-HEADER") == "3")
        try headers.setValue(nil, forHTTPHeaderField: "a-header")
        #expect(headers.count == 1)
    }

    @Test("CR, LF, NUL and other controls in a value are refused", arguments: [
        ("x\r\nInjected: 1", "carriage return (CR)"), ("x\nInjected: 1", "line feed (LF)"),
        ("x\u{0}y", "NUL"), ("x\u{7}y", "control character 0x7"), ("x\u{7F}", "control character 0x7F"),
    ])
    func valueInjectionRefused(value: String, what: String) {
        var headers = HTTPHeaderFields()
        #expect(throws: RequestSerializationError.invalidHeaderField(name: "X-Test", reason: "the value contains a \(what)")) {
            try headers.setValue(value, forHTTPHeaderField: "X-Test")
        }
        #expect(headers.isEmpty)
    }

    @Test("names that are not tokens are refused", arguments: ["", "Bad Name", "X:Y", "X\r\nY", "Ünï", "a(b)"])
    func badNamesRefused(name: String) {
        var headers = HTTPHeaderFields()
        #expect(throws: RequestSerializationError.self) { try headers.setValue("v", forHTTPHeaderField: name) }
    }

    @Test("tabs and non-ASCII text are allowed in values")
    func permittedValues() throws {
        var headers = HTTPHeaderFields()
        try headers.setValue("a\tb café", forHTTPHeaderField: "X-Ok")
        #expect(headers.value(forHTTPHeaderField: "x-ok") == "a\tb café")
    }

    @Test("an injected header already on the request is refused at serialization")
    func requestHeaderInjectionRefused() {
        var original = request("GET", "http://example.com")
        original.setValue("v\r\nEvil: 1", forHTTPHeaderField: "X-Custom")
        // Some Foundations drop such values themselves; either way nothing unsafe is sent.
        if original.value(forHTTPHeaderField: "X-Custom") != nil {
            #expect(throws: RequestSerializationError.self) { try plainSerializer().serialize(original, parameters: nil) }
        }
    }

    @Test("a Basic user name with a colon is refused")
    func basicUserWithColon() {
        var serializer = plainSerializer()
        #expect(throws: RequestSerializationError.invalidCredentials(reason: "a Basic user name cannot contain \":\"")) {
            try serializer.setAuthorizationHeader(username: "a:b", password: "p")
        }
    }

    @Test("a Bearer token is sent as given, and one that would not arrive as one token is refused")
    func bearerToken() throws {
        var serializer = plainSerializer()
        try serializer.setAuthorizationHeader(bearerToken: "eyJhbGciOiJIUzI1NiJ9.e30.c2ln-_~+/==")
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln-_~+/==")
        for bad in ["", "two words", "line\r\nX-Evil: 1", "tab\t", "caf\u{E9}"] {
            #expect(throws: RequestSerializationError.self, "\(bad.debugDescription)") {
                try serializer.setAuthorizationHeader(bearerToken: bad)
            }
        }
        // A refused token leaves the one set before in place.
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln-_~+/==")
        let request = try serializer.httpRequest(method: "GET", urlString: "https://example.com/me")
        #expect(request.request.headerFields[.authorization] == "Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln-_~+/==")
    }

    @Test("Basic credentials are UTF-8")
    func basicUTF8() throws {
        var serializer = plainSerializer()
        try serializer.setAuthorizationHeader(username: "jürgen", password: "pä:ss")
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == "Basic " + Data("jürgen:pä:ss".utf8).base64EncodedString())
    }
}

@Suite("Default headers")
struct DefaultHeadersTests {
    @Test("Accept-Language uses AF's q-values and stops after q=0.5")
    func acceptLanguage() {
        #expect(DefaultHeaders.acceptLanguage(preferredLanguages: ["en", "fr"]) == "en;q=1, fr;q=0.9")
        let many = ["a", "b", "c", "d", "e", "f", "g", "h"]
        #expect(DefaultHeaders.acceptLanguage(preferredLanguages: many)
            == "a;q=1, b;q=0.9, c;q=0.8, d;q=0.7, e;q=0.6, f;q=0.5")
        #expect(DefaultHeaders.acceptLanguage(preferredLanguages: []) == nil)
    }

    @Test("User-Agent names the program, its version and the system, folded to ASCII")
    func userAgent() {
        let os = OperatingSystemVersion(majorVersion: 6, minorVersion: 1, patchVersion: 2)
        let fromBundle = DefaultHeaders.userAgent(
            bundleInfo: ["CFBundleExecutable": "Café App", "CFBundleShortVersionString": "2.0"],
            processName: "ignored", operatingSystemVersion: os)
        #expect(fromBundle == "Cafe-App/2.0 (\(DefaultHeaders.operatingSystemName) 6.1.2)")
        let linux = DefaultHeaders.userAgent(bundleInfo: [:], processName: "tool", operatingSystemVersion: os)
        #expect(linux == "tool (\(DefaultHeaders.operatingSystemName) 6.1.2)")
        #expect(DefaultHeaders.userAgent().allSatisfy { $0.isASCII })
    }
}
