import Foundation
import Testing

/// The server article shows routes that CI compiles against Hummingbird and Vapor; this keeps
/// the two copies one.
@Suite("Articles show the code CI compiles")
struct ArticleSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The regions between `// snippet: NAME` and `// end snippet`, their common indentation removed.
    static func regions(in source: String) -> [String: String] {
        var regions: [String: String] = [:]
        var name: String?
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("// snippet: ") {
                name = String(trimmed.dropFirst("// snippet: ".count))
                lines = []
            } else if trimmed == "// end snippet", let current = name {
                let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                regions[current] = lines.map { $0.dropFirst(min(indent, $0.count)) }.joined(separator: "\n")
                name = nil
            } else if name != nil {
                lines.append(line)
            }
        }
        return regions
    }

    @Test("every compiled region of the server routes appears verbatim in ReadingUploadsOnAServer")
    func serverArticleMatchesCompiledRoutes() throws {
        let folder = Self.root.appendingPathComponent("Development/Snippets/ServerSnippets")
        let article = try String(contentsOf: Self.root.appendingPathComponent("Sources/HTTPSerialization/HTTPSerialization.docc/ReadingUploadsOnAServer.md"), encoding: .utf8)
        var regions: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            regions.merge(Self.regions(in: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))) { first, _ in first }
        }
        #expect(Set(regions.keys) == ["hummingbird-coders", "hummingbird-route", "vapor-coders", "vapor-route", "parts-one-at-a-time", "forms-and-queries"])
        for (name, code) in regions.sorted(by: { $0.key < $1.key }) {
            #expect(article.contains(code), "the article's \(name) differs from the compiled one")
        }
    }
}
