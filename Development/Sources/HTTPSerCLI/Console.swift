import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tool reads and writes: standard input for a piped body, standard output for
/// results, standard error for status, progress and messages. Tests capture all three.
///
/// `@unchecked Sendable`: progress callbacks arrive from transport threads, and every write
/// goes through `lock`; the other members are constants.
public final class Console: @unchecked Sendable {
    private let lock = NSLock()
    private let writeOut: (Data) -> Void
    private let writeError: (String) -> Void
    private let readInput: () -> Data?
    /// Whether standard output is a terminal: decides the default `--print` and `--pretty`,
    /// and whether binary bodies are shown.
    public let outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bars are drawn only then).
    public let errorIsTerminal: Bool

    /// - Parameter readInput: standard input's whole content, or nil when it is a terminal.
    public init(
        outputIsTerminal: Bool = false, errorIsTerminal: Bool, readInput: @escaping () -> Data? = { nil },
        writeOut: @escaping (Data) -> Void, writeError: @escaping (String) -> Void
    ) {
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        self.readInput = readInput
        self.writeOut = writeOut
        self.writeError = writeError
    }

    /// The process's standard input, output and error.
    public static func standard() -> Console {
        Console(
            outputIsTerminal: isatty(1) == 1,
            errorIsTerminal: isatty(2) == 1,
            readInput: { isatty(0) == 1 ? nil : FileHandle.standardInput.readDataToEndOfFile() },
            writeOut: { FileHandle.standardOutput.write($0) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) })
    }

    /// Standard input's content when it is not a terminal; read once, when a body is wanted.
    public func input() -> Data? {
        readInput()
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
    private let input: Data?
    private let outputIsTerminal: Bool
    private let errorIsTerminal: Bool

    /// - Parameters:
    ///   - input: what standard input holds; nil stands for a terminal.
    ///   - outputIsTerminal: whether standard output behaves as a terminal.
    public init(input: Data? = nil, outputIsTerminal: Bool = false, errorIsTerminal: Bool = false) {
        self.input = input
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
    }

    public var console: Console {
        Console(outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal, readInput: { self.input },
                writeOut: { self.output.append($0) }, writeError: { self.errors += $0 })
    }

    public var outputText: String { String(decoding: output, as: UTF8.self) }
}
