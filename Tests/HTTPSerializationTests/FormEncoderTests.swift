import Foundation
import Testing
import HTTPSerialization

@Suite("FormEncoder and MultipartFormDecoder: models to form text and back from multipart bodies")
struct FormEncoderTests {
    struct Profile: Codable, Equatable {
        struct Address: Codable, Equatable {
            var city: String
            var lines: [String]
        }
        var name: String
        var age: Int
        var member: Bool
        var joined: Date
        var address: Address
        var nickname: String?
    }

    static let profile = Profile(name: "Zoë & \"Ann\"", age: 41, member: true, joined: Date(timeIntervalSince1970: 1_700_000_000.5),
                                 address: .init(city: "São Paulo", lines: ["a=b", "c/d"]), nickname: nil)

    @Test("a model written by FormEncoder reads back through FormDecoder in every date and boolean style")
    func roundTrips() throws {
        let styles: [(QueryStringStyle.DateEncoding, FormDecoder.DateDecoding)] = [
            (.foundationDescription, .foundationDescription), (.secondsSince1970, .secondsSince1970),
            (.millisecondsSince1970, .millisecondsSince1970), (.iso8601, .iso8601),
        ]
        for (written, read) in styles {
            for bools in QueryStringStyle.BoolEncoding.allCases {
                let style = QueryStringStyle(boolEncoding: bools, dateEncoding: written)
                let text = try FormEncoder(style: style).encode(Self.profile)
                var decoded = try FormDecoder(style: style, dateDecoding: read).decode(Profile.self, from: text)
                // Whole milliseconds and Foundation's description keep less than the half second.
                #expect(abs(decoded.joined.timeIntervalSince(Self.profile.joined)) <= 0.5, "\(text)")
                decoded.joined = Self.profile.joined
                #expect(decoded == Self.profile, "\(text)")
            }
        }
        let text = try FormEncoder().encode(Self.profile)
        #expect(text.hasPrefix("address%5Bcity%5D=S%C3%A3o%20Paulo&address%5Blines%5D%5B%5D=a%3Db&address%5Blines%5D%5B%5D=c/d&age=41"), "\(text)")
    }

    @Test("boolFlags and absentFieldsAreEmpty read an absent checkbox as false, a bare one as true and an absent list as empty; off, each is an error")
    func htmlFormOptions() throws {
        struct Signup: Decodable, Equatable {
            var name: String
            var newsletter: Bool
            var interests: [String]
        }
        var vaporLike = FormDecoder()
        vaporLike.boolFlags = true
        vaporLike.absentFieldsAreEmpty = true
        #expect(try vaporLike.decode(Signup.self, from: "name=Ann") == Signup(name: "Ann", newsletter: false, interests: []))
        #expect(try vaporLike.decode(Signup.self, from: "name=Ann&newsletter&interests[]=x") == Signup(name: "Ann", newsletter: true, interests: ["x"]))
        #expect(try vaporLike.decode(Signup.self, from: "name=Ann&newsletter=&interests=x") == Signup(name: "Ann", newsletter: true, interests: ["x"]))
        #expect(try vaporLike.decode(Signup.self, from: "name=Ann&newsletter=off") == Signup(name: "Ann", newsletter: false, interests: []))
        // An absent text field is still missing, as in Vapor.
        #expect(throws: DecodingError.self) { try vaporLike.decode(Signup.self, from: "newsletter=on") }
        #expect(throws: DecodingError.self) { try FormDecoder().decode(Signup.self, from: "name=Ann&interests[]=x") }
        #expect(throws: DecodingError.self) { try FormDecoder().decode(Signup.self, from: "name=Ann&newsletter=1") }
        #expect(throws: DecodingError.self) { try FormDecoder().decode(Signup.self, from: "name=Ann&newsletter&interests[]=x") }
    }

    @Test("FormEncoder refuses a model nested past its depth, naming the limit")
    func depthLimit() throws {
        struct Deep: Encodable {
            var next: [Deep]
        }
        var deep = Deep(next: [])
        for _ in 0..<40 { deep = Deep(next: [deep]) }
        #expect(throws: RequestSerializationError.self) { try FormEncoder(maximumDepth: 16).encode(deep) }
    }

    @Test("MultipartFormDecoder reads the same model from a whole body and from any chunking, files spilled past its threshold")
    func multipartWholeAndStreamed() async throws {
        struct Upload: Decodable {
            var title: String
            var tags: [String]
            var file: MultipartFile
        }
        var form = try MultipartFormData(boundary: "decoder-test")
        try form.appendPart(formData: "holiday", name: "title")
        try form.appendPart(formData: "a", name: "tags[]")
        try form.appendPart(formData: "b", name: "tags[]")
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try form.appendPart(fileData: bytes, name: "file", fileName: "f.bin", mimeType: "application/octet-stream")
        let body = try form.encodedData()
        let decoder = MultipartFormDecoder(spillThreshold: 10_000)
        let whole = try decoder.decode(Upload.self, from: body, contentType: form.contentType)
        #expect(whole.title == "holiday" && whole.tags == ["a", "b"])
        #expect(try whole.file.data() == bytes)
        #expect(whole.file.temporaryFileURL != nil, "70,000 bytes are past the 10,000-byte threshold")
        for size in [1, 7, 4096] {
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                var offset = 0
                let array = [UInt8](body)
                while offset < array.count {
                    continuation.yield(array[offset..<min(offset + size, array.count)])
                    offset += size
                }
                continuation.finish()
            }
            let streamed = try await decoder.decode(Upload.self, from: chunks, contentType: form.contentType)
            #expect(streamed.tags == ["a", "b"])
            #expect(try streamed.file.data() == bytes, "chunks of \(size)")
        }
        var limited = decoder
        limited.limits.maximumFileBytes = 1000
        #expect(throws: MultipartParsingError.self) { try limited.decode(Upload.self, from: body, contentType: form.contentType) }
    }
}
