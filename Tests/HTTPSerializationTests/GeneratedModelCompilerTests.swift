#if Macros
import Foundation
import Testing

/// What the compiler says of `@GeneratedJSONCoding` models: small sources type-checked by
/// `swiftc` against this build's modules and macro plugin, for promises no expansion test can
/// show (the compiler's own diagnostics after the macro has run).
@Suite("@GeneratedJSONCoding under the compiler: keys declared in an extension, lets with a value, types it cannot code")
struct GeneratedModelCompilerTests {
    /// This build's products folder: the test bundle's own.
    static let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    /// Whether `swiftc -typecheck` accepts `source`, and what it prints; with `ownership`, the
    /// source is compiled as far as SIL, so the checks of non-copyable values run too (they
    /// run after type checking: `-typecheck` accepts `kept = consume value`).
    static func typecheck(_ source: String, ownership: Bool = false) throws -> (accepted: Bool, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(UUID().uuidString).swift")
        try Data(("import HTTPSerializationMacros\n" + source).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let plugin = products.appendingPathComponent("HTTPSerializationMacroPlugin-tool").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + (ownership ? ["-emit-sil", "-o", "/dev/null"] : ["-typecheck"]) + ["-swift-version", "6", file.path, "-I", products.appendingPathComponent("Modules").path,
                             "-load-plugin-executable", plugin + "#HTTPSerializationMacroPlugin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus == 0, String(decoding: printed, as: UTF8.self))
    }

    @Test("keys declared in an extension, which the macro cannot see, are a redeclaration; the same model without them compiles")
    func codingKeysInAnExtensionAreRefused() throws {
        let model = "@GeneratedJSONCoding\nstruct Post: Codable {\n    var title: String\n}\n"
        let plain = try Self.typecheck(model)
        #expect(plain.accepted, "\(plain.output)")
        #expect(!plain.output.contains("error"))
        let extended = try Self.typecheck(model + "extension Post {\n    enum CodingKeys: String, CodingKey { case title = \"Title\" }\n}\n")
        #expect(!extended.accepted)
        #expect(extended.output.contains("invalid redeclaration of 'CodingKeys'"), "\(extended.output)")
    }

    @Test("a let with a value warns that it is not decoded: from the macro in a Codable model, from the compiler in a Decodable one")
    func unreadConstantsWarn() throws {
        let codable = try Self.typecheck("@GeneratedJSONCoding\nstruct Tagged: Codable {\n    var id: Int\n    let kind = \"tag\"\n}\n")
        #expect(codable.accepted, "\(codable.output)")
        // Once, and the macro's: the compiler's own is silenced by the keys the macro declares.
        #expect(codable.output.components(separatedBy: "5:9: warning: immutable property will not be decoded").count == 2, "\(codable.output)")
        #expect(codable.output.contains("declare CodingKeys in the type's body to silence this warning"), "\(codable.output)")
        let decodable = try Self.typecheck("@GeneratedJSONCoding\nstruct Tagged: Decodable {\n    var id: Int\n    let kind = \"tag\"\n}\n")
        #expect(decodable.accepted, "\(decodable.output)")
        #expect(decodable.output.contains("5:9: warning: immutable property will not be decoded"), "\(decodable.output)")
        #expect(!decodable.output.contains("declare CodingKeys in the type's body"), "\(decodable.output)")
    }

    @Test("a property whose type is not Codable is an error that names the type and says why")
    func unreadablePropertyTypesAreErrors() throws {
        let holder = try Self.typecheck("struct Opaque {}\n@GeneratedJSONCoding\nstruct Holder: Codable {\n    var id: Int\n    var opaque: Opaque\n    var callback: (() -> Void)?\n}\n")
        #expect(!holder.accepted)
        for why in ["cannot automatically synthesize 'Decodable' because 'Opaque' does not conform to 'Decodable'",
                    "cannot automatically synthesize 'Encodable' because '(() -> Void)?' does not conform to 'Encodable'"] {
            #expect(holder.output.contains(why), "\(holder.output)")
        }
    }
}
#endif
