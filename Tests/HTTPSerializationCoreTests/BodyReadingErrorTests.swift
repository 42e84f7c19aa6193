#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Testing
import HTTPSerializationCore

@Suite("A body reader's refusal from any layer, in one case of the core's error")
struct BodyReadingErrorTests {
    /// A reader of the app's own, as a layer above the core would have one.
    struct CSVReadingError: BodyReadingError {
        var reasonText: String
        var offset: Int?
        var description: String { "The CSV body is refused at byte \(offset ?? 0): \(reasonText)." }
    }

    /// Another reader's error with the same fields and text, to tell the types apart.
    struct TSVReadingError: BodyReadingError {
        var reasonText: String
        var offset: Int?
        var description: String { "The CSV body is refused at byte \(offset ?? 0): \(reasonText)." }
    }

    /// A serializer of the app's own that refuses a row with too few fields.
    struct CSVSerializer: ResponseSerializer {
        func responseObject(for response: ResponseContext) throws -> [[Substring]]? {
            guard let data = response.data else { return nil }
            let rows = String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.split(separator: ",") }
            var offset = 0
            for row in rows {
                guard row.count == 2 else {
                    throw ResponseSerializationError.unreadableBody(
                        CSVReadingError(reasonText: "a row has \(row.count) fields, not 2", offset: offset), response: response)
                }
                offset += row.reduce(0) { $0 + $1.utf8.count } + row.count
            }
            return rows
        }
    }

    static let context = ResponseContext(
        response: HTTPResponse(status: .ok, headerFields: [.contentType: "text/csv"]), data: Data("a,b\nc\n".utf8))

    @Test("a switch finds the layer's own type with a cast and keeps its fields")
    func castInSwitch() throws {
        do {
            _ = try CSVSerializer().responseObject(for: Self.context)
            Issue.record("the short row was accepted")
        } catch let error as ResponseSerializationError {
            switch error {
            case .unreadableBody(let refusal as CSVReadingError, let response):
                #expect(refusal.offset == 4)
                #expect(refusal.reasonText == "a row has 1 fields, not 2")
                #expect(response == Self.context)
            case .unreadableBody(let refusal, _):
                Issue.record("the refusal lost its type: \(type(of: refusal))")
            case .unacceptableStatusCode, .unacceptableContentType, .responseSerializationFailed, .unreadableJSON,
                 .validationFailed, .preprocessingFailed:
                Issue.record("a refused body came as \(error)")
            }
            #expect(error.reason == "The CSV body is refused at byte 4: a row has 1 fields, not 2.")
            #expect(error.description == error.reason)
            #expect(error.code == -1016)
            #expect(error.underlyingError as? CSVReadingError == CSVReadingError(reasonText: "a row has 1 fields, not 2", offset: 4))
        }
    }

    @Test("two refusals are equal only with the same type, the same values and the same response")
    func equality() {
        let refusal = CSVReadingError(reasonText: "short", offset: 3)
        let error = ResponseSerializationError.unreadableBody(refusal, response: Self.context)
        #expect(error == .unreadableBody(CSVReadingError(reasonText: "short", offset: 3), response: Self.context))
        #expect(error != .unreadableBody(CSVReadingError(reasonText: "short", offset: 4), response: Self.context))
        // Same fields, same text, another reader.
        #expect(error != .unreadableBody(TSVReadingError(reasonText: "short", offset: 3), response: Self.context))
        let other = ResponseContext(response: HTTPResponse(status: .ok), data: Self.context.data)
        #expect(error != .unreadableBody(refusal, response: other))
        #expect(error != .responseSerializationFailed(reason: error.reason, response: Self.context))
    }

    /// Two errors per case that differ in one field, and one case against every other.
    static func everyCase(_ context: ResponseContext) -> [[ResponseSerializationError]] {
        let refused = UnderlyingError(CSVReadingError(reasonText: "x", offset: nil))
        let json = JSONReadingError(.noValue, offset: 1)
        return [
            [.unacceptableStatusCode(404, response: context), .unacceptableStatusCode(500, response: context),
             .unacceptableStatusCode(404, response: context, underlying: .unacceptableContentType(nil, response: context))],
            [.unacceptableContentType("text/html", response: context), .unacceptableContentType(nil, response: context)],
            [.responseSerializationFailed(reason: "a", response: context), .responseSerializationFailed(reason: "b", response: context),
             .responseSerializationFailed(reason: "a", response: context, underlying: refused),
             .responseSerializationFailed(reason: "a", response: context, validation: .unacceptableStatusCode(404, response: context))],
            [.unreadableJSON(json, response: context), .unreadableJSON(JSONReadingError(.noValue, offset: 2), response: context),
             .unreadableJSON(json, response: context, validation: .unacceptableStatusCode(404, response: context))],
            [.unreadableBody(CSVReadingError(reasonText: "x", offset: nil), response: context),
             .unreadableBody(TSVReadingError(reasonText: "x", offset: nil), response: context)],
            [.validationFailed(refused, response: context), .validationFailed(UnderlyingError(TSVReadingError(reasonText: "x", offset: nil)), response: context)],
            [.preprocessingFailed(refused, response: context)],
        ]
    }

    @Test("every case equals itself and nothing else: no other case, no value that differs in a field")
    func equalityOfEveryCase() {
        let groups = Self.everyCase(Self.context)
        let all = groups.flatMap { $0 }
        for (i, lhs) in all.enumerated() {
            for (j, rhs) in all.enumerated() {
                #expect((lhs == rhs) == (i == j), "\(lhs) against \(rhs)")
            }
        }
        // The same payload in two cases that carry the same types is still two errors.
        let refused = UnderlyingError(CSVReadingError(reasonText: "x", offset: nil))
        #expect(ResponseSerializationError.validationFailed(refused, response: Self.context)
            != .preprocessingFailed(refused, response: Self.context))
        // The response is compared in every case.
        let other = ResponseContext(response: HTTPResponse(status: .notFound), data: nil)
        for (error, moved) in zip(all, Self.everyCase(other).flatMap { $0 }) {
            #expect(error != moved, "\(error)")
        }
    }
}
