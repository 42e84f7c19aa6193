#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
@testable import HTTPSerializationCore

@Suite("Body preprocessors: a step before validation and decoding")
struct ResponsePreprocessorTests {
    struct Unreadable: Error {}

    /// Refuses every body: what a failing unwrapping step looks like.
    struct Refusing: ResponseBodyPreprocessor {
        func preprocess(_ data: Data) throws -> Data { throw Unreadable() }
    }

    static let json = HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"])

    @Test("the XSSI guard strips )]}' with or without a comma before LF or CRLF, as a slice of the body")
    func xssiPrefixes() throws {
        for prefix in [")]}',\n", ")]}'\n", ")]}'\r\n", ")]}',\r\n"] {
            let body = Data((prefix + #"{"a":1}"#).utf8)
            let stripped = try GoogleXSSIPreprocessor().preprocess(body)
            #expect(stripped == Data(#"{"a":1}"#.utf8), "\(prefix.debugDescription)")
            // A slice keeps the body's indices: nothing was copied.
            #expect(stripped.startIndex == body.startIndex + prefix.utf8.count)
        }
    }

    @Test("bodies without the whole prefix and its line end come back as they are")
    func xssiPassesOthers() throws {
        for text in [#"{"a":1}"#, ")]}'", ")]}',", ")]}' \n{}", ")]}{}", ")", "[\")]}'\\n\"]"] {
            let body = Data(text.utf8)
            #expect(try GoogleXSSIPreprocessor().preprocess(body) == body, "\(text.debugDescription)")
        }
    }

    @Test("every whole-body serializer decodes the preprocessed body, and the caller's checks see it")
    func serializersUseIt() throws {
        let body = Data(")]}',\n{\"a\":1}\n".utf8)
        #expect(try HTTPResponseSerializer().preprocessing(GoogleXSSIPreprocessor()).responseObject(for: Self.json, data: body) == Data("{\"a\":1}\n".utf8))
        let lines = JSONStreamResponseSerializer().preprocessing(GoogleXSSIPreprocessor())
        let ndjson = HTTPResponse(status: .ok, headerFields: [.contentType: "application/x-ndjson"])
        #expect(try lines.responseObject(for: ndjson, data: body) == [.dictionary(ParameterDictionary(["a": .int(1)]))])
        let checked = HTTPResponseSerializer().preprocessing(GoogleXSSIPreprocessor()).validating { context in
            guard context.data?.first == UInt8(ascii: "{") else { throw Unreadable() }
        }
        #expect(throws: Never.self) { try checked.responseObject(for: Self.json, data: body) }
    }

    @Test("a preprocessor that throws is its own error with the body as received; a refused status is reported first")
    func failures() throws {
        let serializer = HTTPResponseSerializer().preprocessing(Refusing())
        let body = Data("sealed".utf8)
        do {
            _ = try serializer.responseObject(for: Self.json, data: body)
            Issue.record("no error")
        } catch let error as ResponseSerializationError {
            guard case .preprocessingFailed(let thrown, let context) = error else { Issue.record("got \(error)"); return }
            #expect(thrown.error is Unreadable && error.underlyingError is Unreadable)
            #expect(context.data == body)
            #expect(error.code == -1016)
        }
        #expect {
            try serializer.responseObject(for: HTTPResponse(status: .badGateway, headerFields: [.contentType: "text/html"]), data: body)
        } throws: { error in
            guard case ResponseSerializationError.unacceptableStatusCode(502, let context, _) = error else { return false }
            return context.data == body
        }
        // An empty body is never handed to the preprocessor.
        #expect(try serializer.responseObject(for: Self.json, data: Data()) == Data())
    }
}
