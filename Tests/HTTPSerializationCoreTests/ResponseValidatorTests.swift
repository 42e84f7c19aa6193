#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Synchronization
import Testing
@testable import HTTPSerializationCore

@Suite("Validation closures: checks of the caller's after the status and content-type rules")
struct ResponseValidatorTests {
    struct Refused: Error, Equatable {
        let check: Int
    }

    /// What each check saw, in the order the checks ran.
    final class Seen: Sendable {
        let calls = Mutex<[(check: Int, data: Data?)]>([])

        func check(_ number: Int, refusing: Bool = false) -> @Sendable (ResponseContext) throws -> Void {
            { context in
                self.calls.withLock { $0.append((number, context.data)) }
                if refusing { throw Refused(check: number) }
            }
        }

        var order: [Int] { calls.withLock { $0.map(\.check) } }
        var data: [Data?] { calls.withLock { $0.map(\.data) } }
    }

    static func head(status: Int = 200, _ contentType: String? = "application/json") -> HTTPResponse {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        return HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    @Test("checks run in the order added once status and type pass; the first refusal ends validation")
    func orderAndFirstRefusal() throws {
        let seen = Seen()
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["application/json"])
            .validating(seen.check(1)).validating(seen.check(2, refusing: true)).validating(seen.check(3))
        let body = Data(#"{"ok":false}"#.utf8)
        #expect(throws: ResponseSerializationError.validationFailed(UnderlyingError(Refused(check: 2)),
                                                                    response: ResponseContext(response: Self.head(), data: body))) {
            try serializer.responseObject(for: Self.head(), data: body)
        }
        #expect(seen.order == [1, 2])
        #expect(seen.data == [body, body])
    }

    @Test("a refused status or content type is reported as before, and no check runs")
    func builtInRulesFirst() {
        let seen = Seen()
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["application/json"]).validating(seen.check(1, refusing: true))
        #expect {
            try serializer.responseObject(for: Self.head(status: 503), data: Data("{}".utf8))
        } throws: { error in
            guard case ResponseSerializationError.unacceptableStatusCode(503, _, nil) = error else { return false }
            return true
        }
        #expect {
            try serializer.responseObject(for: Self.head("text/html"), data: Data("<p>".utf8))
        } throws: { error in
            guard case ResponseSerializationError.unacceptableContentType("text/html", _) = error else { return false }
            return true
        }
        #expect(seen.order.isEmpty)
    }

    @Test("whatever a check throws, even an error of another kind, comes back as the validation failure, with response and body")
    func anyErrorIsAValidationFailure() {
        let body = Data("[]".utf8)
        let serializer = HTTPResponseSerializer().validating { context in
            // A decoding error thrown from inside a check is still the check's refusal.
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no envelope in \(context.data?.count ?? 0) bytes"))
        }
        do {
            _ = try serializer.responseObject(for: Self.head(), data: body)
            Issue.record("the check did not refuse")
        } catch let error as ResponseSerializationError {
            guard case .validationFailed(let thrown, let context) = error else { Issue.record("got \(error)"); return }
            #expect(thrown.error is DecodingError)
            #expect(error.underlyingError is DecodingError)
            #expect(context.data == body && context.response?.status == .ok)
            #expect(error.code == -1011)
            #expect(error.reason.hasPrefix("Request failed: the response did not pass validation:"))
            #expect(error.reason.contains("no envelope in 2 bytes"))
        } catch {
            Issue.record("not a ResponseSerializationError: \(error)")
        }
    }

    @Test("checks are kept by copies and compose through any serializer's base")
    func composesThroughBase() throws {
        let seen = Seen()
        var events = ServerSentEventsResponseSerializer().validating(seen.check(1))
        events.validators.append(ResponseValidator(seen.check(2)))
        #expect(events.base.validators.count == 2)
        let plain = ServerSentEventsResponseSerializer()
        #expect(plain.validators.isEmpty)
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"])
        #expect(try events.responseObject(for: head, data: Data("data: x\n\n".utf8)).map(\.data) == ["x"])
        #expect(seen.order == [1, 2])
    }

    @Test("on a stream, checks see the head before any value, and a refusal is thrown before a byte of a never-ending body is read")
    func streamsCheckTheHead() async throws {
        let seen = Seen()
        let passing = JSONStreamResponseSerializer().validating(seen.check(1))
        var values: [ParameterValue] = []
        for try await value in passing.values(for: Self.head("application/x-ndjson"), body: ChunkedBody([Array("1\n".utf8), Array("2\n".utf8)])) {
            values.append(value)
        }
        #expect(values == [.int(1), .int(2)])
        #expect(seen.data == [nil])

        // No content type: the first byte is held to the type rule alone, never shown to the checks as if it were the body.
        let untyped = Seen()
        await #expect(throws: ResponseSerializationError.self) {
            for try await _ in JSONStreamResponseSerializer().validating(untyped.check(1)).values(for: Self.head(nil), body: ChunkedBody([[], Array("1\n".utf8)])) {}
        }
        #expect(untyped.data == [nil])

        let refused = Seen()
        let refusing = JSONStreamResponseSerializer().validating(refused.check(7, refusing: true))
        let pulls = PullCounter()
        // A live feed: as good as endless, so reading it for an error payload would never end.
        let feed = ChunkedBody(Array(repeating: Array(": keep-alive\n".utf8), count: 1_000_000), pulls: pulls)
        var given = 0
        do {
            for try await _ in refusing.values(for: Self.head("application/x-ndjson"), body: feed) { given += 1 }
            Issue.record("the check did not refuse")
        } catch let error as ResponseSerializationError {
            guard case .validationFailed(let thrown, let context) = error else { Issue.record("got \(error)"); return }
            #expect(thrown.error as? Refused == Refused(check: 7))
            #expect(context.data == nil)
        }
        #expect(given == 0 && pulls.value == 0)
        #expect(refused.data == [nil])
    }
}

@Suite("Acceptable content types from the request's Accept field")
struct AcceptHeaderTypesTests {
    static func request(accept: String?) -> HTTPRequest {
        var fields = HTTPFields()
        if let accept { fields[.accept] = accept }
        return HTTPRequest(method: .get, scheme: "https", authority: "api.example", path: "/v1", headerFields: fields)
    }

    static func passes(_ contentType: String, accept: String?, _ serializer: HTTPResponseSerializer = .fromAccept) -> Bool {
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: contentType])
        return (try? serializer.responseObject(for: head, data: Data("x".utf8), request: request(accept: accept))) != nil
    }

    @Test("listed ranges and wildcards pass, ranges with q=0 and unlisted types are refused")
    func rangesAndWeights() {
        let accept = "application/json, text/*;q=0.5, image/png; q=0, application/vnd.api+json;version=2"
        #expect(Self.passes("application/json; charset=utf-8", accept: accept))
        #expect(Self.passes("text/csv", accept: accept))
        #expect(Self.passes("APPLICATION/VND.API+JSON", accept: accept))
        #expect(!Self.passes("image/png", accept: accept))
        #expect(!Self.passes("application/xml", accept: accept))
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/xml"])
        #expect(throws: ResponseSerializationError.unacceptableContentType(
            "application/xml", response: ResponseContext(response: head, data: Data("x".utf8), request: Self.request(accept: accept)))) {
            try HTTPResponseSerializer.fromAccept.responseObject(for: head, data: Data("x".utf8), request: Self.request(accept: accept))
        }
    }

    @Test("no Accept, an empty one or */* accepts any type; so does a serializer without the option, or a request not given")
    func anyType() {
        #expect(Self.passes("application/xml", accept: nil))
        #expect(Self.passes("application/xml", accept: " "))
        #expect(Self.passes("application/xml", accept: "text/html, */*;q=0.1"))
        #expect(Self.passes("application/xml", accept: "text/html", HTTPResponseSerializer(acceptableContentTypes: nil)))
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/xml"])
        #expect((try? HTTPResponseSerializer.fromAccept.responseObject(for: head, data: Data("x".utf8))) != nil)
    }

    @Test("the most specific range decides (RFC 9110 §12.5.1): q=0 on a type refuses it under a wildcard, quoted commas stay in their parameter")
    func specificity() {
        #expect(!Self.passes("application/xml", accept: "application/*, application/xml;q=0"))
        #expect(Self.passes("application/json", accept: "application/*, application/xml;q=0"))
        #expect(!Self.passes("text/html", accept: "*/*;q=0.1, text/html;q=0"))
        #expect(Self.passes("image/png", accept: "*/*;q=0.1, text/html;q=0"))
        #expect(!Self.passes("text/plain", accept: "text/*;q=0, text/plain;q=0.000"))
        #expect(Self.passes("text/plain", accept: "text/*;q=0, text/plain;q=0.001"))
        #expect(Self.passes("application/json", accept: #"text/html;x="a,b", application/json"#))
        #expect(!Self.passes("text/plain", accept: #"text/html;x="a, text/plain; y=z", application/json"#))
        // A weight outside RFC 9110's qvalue grammar leaves its range out.
        #expect(!Self.passes("application/json", accept: "application/json;q=nan, text/html"))
        #expect(!Self.passes("application/json", accept: "application/json;q=1.5, text/html"))
    }

    @Test("types set on the serializer win over Accept")
    func explicitTypesWin() {
        var serializer = HTTPResponseSerializer.fromAccept
        serializer.acceptableContentTypes = ["application/xml"]
        #expect(Self.passes("application/xml", accept: "application/json", serializer))
        #expect(!Self.passes("application/json", accept: "application/json", serializer))
    }

    @Test("a stream is refused from its head when Accept does not list its type, and checks see the request")
    func streamsAndChecks() async throws {
        var serializer = JSONStreamResponseSerializer()
        serializer.acceptableContentTypes = nil
        serializer.contentTypesFromAcceptHeader = true
        let head = HTTPResponse(status: .ok, headerFields: [.contentType: "application/x-ndjson"])
        await #expect(throws: ResponseSerializationError.self) {
            for try await _ in serializer.values(for: head, body: ChunkedBody([Array("1\n".utf8)]), request: Self.request(accept: "application/json-seq")) {}
        }
        let seen = ResponseValidatorTests.Seen()
        let checked = serializer.validating(seen.check(1)).validating { context in
            guard context.request?.headerFields[.accept] == "application/x-ndjson" else { throw ResponseValidatorTests.Refused(check: 2) }
        }
        var count = 0
        for try await _ in checked.values(for: head, body: ChunkedBody([Array("1\n".utf8)]), request: Self.request(accept: "application/x-ndjson")) {
            count += 1
        }
        #expect(count == 1)
        #expect(seen.order == [1])
    }

    @Test("the option is archived only when on, and read back")
    func archived() throws {
        let plain = try JSONEncoder().encode(HTTPResponseSerializer())
        #expect(!String(decoding: plain, as: UTF8.self).contains("contentTypesFromAcceptHeader"))
        let read = try JSONDecoder().decode(HTTPResponseSerializer.self, from: JSONEncoder().encode(HTTPResponseSerializer.fromAccept))
        #expect(read.contentTypesFromAcceptHeader && read.acceptableContentTypes == nil)
    }
}

extension HTTPResponseSerializer {
    /// No types of its own, so the request's Accept decides.
    static var fromAccept: HTTPResponseSerializer {
        var serializer = HTTPResponseSerializer(acceptableContentTypes: nil)
        serializer.contentTypesFromAcceptHeader = true
        return serializer
    }
}
