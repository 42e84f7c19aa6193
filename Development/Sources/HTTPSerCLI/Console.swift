import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tool writes: standard output for results, standard error for status, progress
/// and messages. Tests capture both.
///
/// `@unchecked Sendable`: progress callbacks arrive from transport threads, and every write
/// goes through `lock`.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: (Data) -> Void
    private let writeError: (String) -> Void
    /// Whether standard error is a terminal (progress bars redraw in place only then).
    public let errorIsTerminal: Bool

    public init(errorIsTerminal: Bool, writeOut: @escaping (Data) -> Void, writeError: @escaping (String) -> Void) {
        self.errorIsTerminal = errorIsTerminal
        self.writeOut = writeOut
        self.writeError = writeError
    }

    /// The process's standard output and error.
    public static func standard() -> Console {
        Console(
            errorIsTerminal: isatty(2) == 1,
            writeOut: { FileHandle.standardOutput.write($0) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    public func out(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        writeOut(data)
    }

    public func out(_ text: String) {
        out(Data(text.utf8))
    }

    public func error(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        writeError(text)
    }
}

/// Collects what a console wrote, for tests.
public final class CapturedConsole: @unchecked Sendable {
    // @unchecked: mutated only inside the console's lock-serialized writers.
    public private(set) var output = Data()
    public private(set) var errors = ""

    public init() {}

    public var console: Console {
        Console(errorIsTerminal: false, writeOut: { self.output.append($0) }, writeError: { self.errors += $0 })
    }

    public var outputText: String { String(decoding: output, as: UTF8.self) }
}
