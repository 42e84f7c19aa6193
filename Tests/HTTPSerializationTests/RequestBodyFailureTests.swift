import Foundation
import HTTPSerializationCodable
import HTTPSerializationCore
import HTTPTypes
import Testing

/// What a server answers for a body the package could not read: the status, a message that
/// names the field as a client writes it and nothing of the server's, and the cause kept.
@Suite("RequestBodyFailure: status, message for the client, cause for the log")
struct RequestBodyFailureTests {
    struct Item: Decodable {
        var price: Double
    }

    enum Kind: String, Decodable {
        case book
    }

    struct Cart: Decodable {
        var items: [Item]
        var kind: Kind?
    }

    static func failure(json: String) throws -> RequestBodyFailure {
        do {
            _ = try JSONBodyDecoder().decode(Cart.self, from: Data(json.utf8))
        } catch {
            return try #require(RequestBodyFailure(error))
        }
        Issue.record("\(json) decoded")
        throw CancellationError()
    }

    @Test("a wrong value deep in a list is 400 naming items[1].price, and the DecodingError is kept behind it")
    func pathAsTheClientWritesIt() throws {
        let failure = try Self.failure(json: #"{"items":[{"price":1},{"price":"x"}]}"#)
        #expect(failure.status == .badRequest)
        #expect(failure.message == "The value at `items[1].price` is not of the expected kind.")
        let cause = try #require(failure.underlyingError as? DecodingError)
        guard case .typeMismatch = cause else { Issue.record("\(cause)"); return }
        #expect(failure.description.hasPrefix("400 Bad Request: The value at `items[1].price`"))
        #expect(failure.description.contains("typeMismatch"), "the log line names the cause: \(failure.description)")
    }

    @Test("malformed text names the byte where it went wrong, and a raw value no case has names no Swift type")
    func byteOffsetsAndNoTypeNames() throws {
        let malformed = try Self.failure(json: #"{"items":[{"price":1},]}"#)
        #expect(malformed.status == .badRequest)
        #expect(malformed.message == "The body is not valid JSON: found \"]\" where a value was expected (byte 22).")
        let badCase = try Self.failure(json: #"{"items":[],"kind":"film"}"#)
        #expect(badCase.message == "The value at `kind` is not valid.")
        #expect(!badCase.description.isEmpty)
        for message in [malformed.message, badCase.message] {
            #expect(!message.contains("Kind") && !message.contains("Swift") && !message.contains("Double"), "\(message)")
        }
    }

    @Test("a reader's own error inside a DecodingError answers with the reader's status: a form past its pair limit is 413")
    func readerErrorsInsideDecodingErrors() {
        let wrapped = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "form",
                                                        underlyingError: FormDecodingError.tooManyPairs(limit: 3)))
        let failure = RequestBodyFailure(wrapped)
        #expect(failure?.status == .contentTooLarge)
        #expect(failure?.message == FormDecodingError.tooManyPairs(limit: 3).description)
        #expect(failure?.underlyingError is DecodingError)
    }

    @Test("two failures are equal when a client would see the same answer, whatever their causes")
    func equalityIsWhatTheClientSees() {
        let made = RequestBodyFailure.bodyTooLarge(limit: 10)
        let mapped = RequestBodyFailure(RequestBodyFailure(status: .contentTooLarge, message: made.message,
                                                           underlyingError: CancellationError()))
        #expect(mapped == made)
        #expect(Set([made, mapped!]).count == 1)
        #expect(made.underlyingError == nil && mapped?.underlyingError is CancellationError)
        #expect(RequestBodyFailure(CancellationError()) == nil, "an error not about the body is the framework's to answer")
    }
}
