#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import HTTPSerializationCore

/// Bodies other clients wrote, recorded by `Fixtures/Multipart/record.py` (curl, Python's
/// requests and email) and by the HTTPie fixtures of the umbrella's tests, read back part by
/// part in several chunkings.
@Suite("Multipart parser: bodies written by curl, HTTPie, requests and Python's email")
struct MultipartInteropTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Multipart")

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var writer: String
        var contentType: String
        var body: [UInt8]
        var parts: [ExpectedPartValue]
        var testDescription: String { "\(name) (\(writer))" }
    }

    /// `ExpectedPart`, Sendable for test arguments.
    struct ExpectedPartValue: Sendable, Equatable {
        var name: String?
        var fileName: String?
        var contentType: String?
        var body: [UInt8]
    }

    static func string(_ value: ParameterValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    static var recorded: [Case] {
        guard let manifest = try? Data(contentsOf: folder.appendingPathComponent("manifest.json")),
              case .array(let cases)? = try? ParameterValue(json: manifest) else { return [] }
        return cases.compactMap { entry -> Case? in
            guard case .dictionary(let fields) = entry, let name = string(fields["name"]), let writer = string(fields["writer"]),
                  let contentType = string(fields["contentType"]), case .array(let parts)? = fields["parts"],
                  let body = try? Data(contentsOf: folder.appendingPathComponent(name + ".body")) else { return nil }
            let expected = parts.compactMap { part -> ExpectedPartValue? in
                guard case .dictionary(let part) = part, let encoded = string(part["body"]), let bytes = Data(base64Encoded: encoded) else { return nil }
                return ExpectedPartValue(name: string(part["name"]), fileName: string(part["fileName"]), contentType: string(part["contentType"]), body: Array(bytes))
            }
            return Case(name: name, writer: writer, contentType: contentType, body: Array(body), parts: expected)
        }
    }

    @Test("the recorded fixtures are all there")
    func fixturesPresent() {
        #expect(Self.recorded.map(\.name).sorted() == ["curl-fields-and-file", "curl-quotes-and-unicode", "email-rfc2231-folded", "requests-form"])
    }

    @Test("each recorded body parses to the parts it was written from", arguments: recorded)
    func recordedBodies(_ recorded: Case) throws {
        for maximumChunk in [1, 5, 100, 1 << 20] {
            var sizes = SplitMix(state: UInt64(maximumChunk))
            let parts = try parseInChunks(recorded.body, contentType: recorded.contentType, sizes: &sizes, maximumChunk: maximumChunk)
            #expect(parts.map { ExpectedPartValue(name: $0.name, fileName: $0.fileName, contentType: $0.contentType, body: $0.body) } == recorded.parts,
                    "chunks up to \(maximumChunk)")
        }
    }

    @Test("HTTPie 3.2.4's recorded multipart requests parse to their items")
    func httpieRequests() throws {
        // The test folder's real place: `Scripts/tsan.sh core` reaches it by a symbolic link.
        let folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("HTTPSerializationTests/Fixtures/HTTPie")
        let expected: [String: [ExpectedPart]] = [
            "multipart-file-and-field": [ExpectedPart(name: "doc", fileName: "note.txt", contentType: "text/plain", body: Array("hello\n".utf8)),
                                         ExpectedPart(name: "title", body: Array("hi".utf8))],
            "multipart-typed-file": [ExpectedPart(name: "doc", fileName: "data.json", contentType: "text/x-json", body: Array(#"{"x":[1,2],"ok":true}"#.utf8))],
            "multipart-forced": [ExpectedPart(name: "a", body: Array("1".utf8))],
        ]
        for (name, parts) in expected {
            let request = Array(try Data(contentsOf: folder.appendingPathComponent(name + ".http")))
            let separator = try #require((0..<(request.count - 3)).first { request[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) })
            let head = String(decoding: request[..<separator], as: UTF8.self)
            let contentType = try #require(head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-type:") }).dropFirst("content-type:".count)
            var sizes = SplitMix(state: 3)
            let parsed = try parseInChunks(Array(request[(separator + 4)...]), contentType: String(contentType), sizes: &sizes, maximumChunk: 9)
            #expect(parsed == parts, "\(name)")
        }
    }
}
