import Foundation
import HTTPSerialization
import SeededGenerators
import Testing

/// Form bodies checked against PHP's own reader, `parse_str`: PHP writes nested arrays with
/// `http_build_query` and both read them back; then this package writes trees in each style
/// PHP can read and both read those. `.ci/run` installs php-cli; without it, the suite runs
/// only under CI, where a missing PHP fails it.
@Suite("Forms read as PHP's parse_str reads them", .enabled(if: PHP.path != nil || PHP.required))
struct PHPFormDifferentialTests {
    /// Reads PHP's output lines: each a JSON object with the query `q` and what `parse_str`
    /// made of it, `parsed`, normalized so arrays whose keys are exactly 0..<n are lists in
    /// key order and every other array (the root too) is an object keyed by each key's text.
    static func compare(_ lines: [Substring], style: QueryStringStyle, source: String) throws -> Int {
        var compared = 0
        for line in lines where !line.isEmpty {
            let record = try ParameterValue(json: Data(line.utf8))
            guard case .dictionary(let fields) = record, case .string(let query)? = fields["q"], let parsed = fields["parsed"] else {
                Issue.record("PHP printed \(line)")
                continue
            }
            do {
                let ours = try ParameterValue(formPairs: FormPairs.parse(query), style: style)
                #expect(ours == parsed, "\(source): \(query)")
            } catch {
                Issue.record("\(source): \(query) refused: \(error); PHP read \(parsed)")
            }
            compared += 1
        }
        return compared
    }

    @Test("nested arrays written by http_build_query read back as parse_str reads them: digit-only, _ and empty names, mixed and sparse keys, both encodings")
    func phpWrittenForms() throws {
        let output = try PHP.run(PHP.normalize + PHP.generator, input: "")
        let lines = output.split(separator: "\n")
        #expect(lines.count == 600)
        #expect(try Self.compare(lines, style: QueryStringStyle(arrayEncoding: .indexed), source: "http_build_query") == 600)
    }

    /// A tree of strings, keys from names PHP keeps as written below the top level. Under []
    /// arrays its arrays hold scalars and no name is digits alone: that style reads `a[0]` as
    /// the key "0" where PHP reads an index.
    static func tree(_ generator: inout SplitMix64, scalarArrays: Bool, depth: Int) -> ParameterValue {
        let names = ["x", "y", "_", "a_b", "k 1", "k.v", "\u{E9}", "1a", "-1", "007"] + (scalarArrays ? [] : ["0", "1", "2", "7", "12"])
        let texts = ["", "v", "a b", "a+b", "&=", "100%", "\u{65E5}\u{672C}", "\u{1F680}", "0", "-"]
        let roll = generator.below(10)
        if depth >= 3 || roll < 4 { return .string(texts[Int(generator.below(UInt64(texts.count)))]) }
        if roll < 7 {
            let count = generator.range(1, 3)
            return .array(ParameterArray((0..<count).map { _ in
                scalarArrays ? .string(texts[Int(generator.below(UInt64(texts.count)))]) : tree(&generator, scalarArrays: scalarArrays, depth: depth + 1)
            }))
        }
        var entries: [String: ParameterValue] = [:]
        for _ in 0..<generator.range(1, 3) {
            entries[names[Int(generator.below(UInt64(names.count)))]] = tree(&generator, scalarArrays: scalarArrays, depth: depth + 1)
        }
        return .dictionary(ParameterDictionary(entries))
    }

    @Test("what this package writes in each style PHP reads back (indexed, [] or [] indexing containers, bracketed keys, %20 or + spaces) reads as parse_str reads it")
    func packageWrittenForms() throws {
        var generator = SplitMix64(seed: 0x9E0F)
        // PHP reads neither dotted keys (a dot in a name becomes _) nor repeated keys (the
        // last wins); Rails' `a[][x]=1&a[][y]=2` is one element here and two in PHP.
        for arrays in [QueryStringStyle.ArrayEncoding.indexed, .bracketsIndexingContainers, .brackets] {
            for spaces in QueryStringStyle.SpaceEncoding.allCases {
                let style = QueryStringStyle(arrayEncoding: arrays, spaceEncoding: spaces)
                var queries: [String] = []
                for _ in 0..<150 {
                    var entries: [String: ParameterValue] = [:]
                    for index in 0..<generator.range(1, 3) {
                        entries["f\(index)"] = Self.tree(&generator, scalarArrays: arrays == .brackets, depth: 0)
                    }
                    queries.append(queryString(from: .dictionary(ParameterDictionary(entries)), style: style))
                }
                let output = try PHP.run(PHP.normalize + PHP.reader, input: queries.joined(separator: "\n") + "\n")
                let compared = try Self.compare(output.split(separator: "\n"), style: style, source: "\(arrays) \(spaces)")
                #expect(compared == queries.count)
            }
        }
    }
}

/// The PHP interpreter and the scripts the tests hand it.
enum PHP {
    static let path: String? = ["/usr/bin/php", "/usr/local/bin/php"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Under CI the suite must run: `.ci/run` installs php-cli.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` with `input` on standard input; its standard output.
    static func run(_ script: String, input: String) throws -> String {
        guard let path else { throw Failure(description: "php-cli is not installed (apt-get install php-cli)") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("forms-\(UUID().uuidString).php")
        try Data(script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-n", file.path]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // Written from another thread so neither side waits on a full pipe.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "php exited with \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// `parse_str`'s result in a form JSON shows without PHP's list/map ambiguity.
    static let normalize = #"""
    <?php
    function normalized($value, $top) {
        if (!is_array($value)) return $value;
        $keys = array_keys($value);
        $n = count($keys);
        $list = !$top && $n > 0;
        if ($list) { $sorted = $keys; sort($sorted); $list = $sorted === range(0, $n - 1); }
        if ($list) { ksort($value); return array_map(fn($v) => normalized($v, false), array_values($value)); }
        $object = new stdClass();
        foreach ($value as $k => $v) $object->{(string)$k} = normalized($v, false);
        return $object;
    }
    function record($query) {
        parse_str($query, $parsed);
        echo json_encode(['q' => $query, 'parsed' => normalized($parsed, true)], JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR), "\n";
    }

    """#

    /// 600 seeded nested arrays through `http_build_query`, half RFC 1738 (`+`), half RFC 3986.
    static let generator = #"""
    mt_srand(20261127);
    function pick($list) { return $list[mt_rand(0, count($list) - 1)]; }
    function scalar() {
        switch (mt_rand(0, 6)) {
        case 0: return mt_rand(-5, 1000);
        case 1: return mt_rand(0, 1) == 1;
        case 2: return null;
        case 3: return mt_rand(0, 100) / 8;
        default: return pick(['', 'v', 'a b', 'a+b', '&=', '100%', "\u{65E5}", '0', "caf\u{E9}", '[x]']);
        }
    }
    function nested($depth) {
        if ($depth >= 3 || mt_rand(0, 9) < 4) return scalar();
        $array = [];
        $count = mt_rand(0, 4);
        $shape = mt_rand(0, 3);
        $names = ['x', 'y', '_', 'a_b', '007', 'k 1', 'k.v', "\u{E9}", '1a', 'k['];
        for ($i = 0; $i < $count; $i++) {
            switch ($shape) {
            case 0: $array[] = nested($depth + 1); break;                     // a list
            case 1: $array[mt_rand(0, 12)] = nested($depth + 1); break;       // sparse indices
            // Names mixed with indices (PHP makes '12' the integer 12).
            case 2: $array[pick(array_merge($names, ['0', '1', '3', '12', '-1']))] = nested($depth + 1); break;
            // Names and the empty name, written as [] and read as the next index. Not beside
            // integer keys: there PHP's own reading may put [] on an index written later and
            // keep whichever came last, a value over a container.
            default: $array[pick(array_merge($names, ['']))] = nested($depth + 1);
            }
        }
        return $array;
    }
    for ($i = 0; $i < 600; $i++) {
        $form = [];
        for ($j = mt_rand(1, 4); $j > 0; $j--) {
            // Top-level names PHP keeps as sent: no dot, space or bracket, not empty.
            $form[pick(['a', 'b', 'user', '_', 'a_b', '0', '1', '42', "\u{E9}t\u{E9}"])] = nested(0);
        }
        $query = http_build_query($form, '', '&', $i % 2 ? PHP_QUERY_RFC3986 : PHP_QUERY_RFC1738);
        if ($query === '') { $query = 'empty=1'; }
        record($query);
    }

    """#

    /// One query a line on standard input.
    static let reader = #"""
    while (($line = fgets(STDIN)) !== false) { record(rtrim($line, "\n")); }

    """#
}
