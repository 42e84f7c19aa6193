import Foundation
import Testing

@Suite("The repository stands alone")
struct RepositoryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("nothing in the repository reads the workplace folder beside it")
    func readsNothingBesideIt() throws {
        let outside = "../shared", appended = "\"shared/"
        var offenders: [String] = []
        for folder in ["Sources", "Tests", "Development", "Fuzz", "Scripts", ".ci"] {
            let base = Self.root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walker where ["swift", "sh", "py", ""].contains(file.pathExtension) {
                guard file.path != #filePath, !file.path.contains("/Fixtures/"), !file.path.contains("/.build"),
                      let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                // Comments may say where CI runs; code may not read there.
                let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                if code.contains(where: { $0.contains(outside) || $0.contains(appended) }) { offenders.append(file.path) }
            }
        }
        #expect(offenders.isEmpty, "these read \(outside): \(offenders)")
    }
}
