import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import AsyncHTTPClient
import HTTPSerialization

/// Peak memory measured the only honest way in a process that has already run other
/// benchmarks: each case runs once in a fresh child process (`--peak-rss CASE [ARG]`), which
/// reports its VmHWM; a baseline child doing the same setup without the work is subtracted.
enum PeakRSS {
    /// Runs in the child: performs `name` once and prints the peak RSS in MiB.
    static func runChild(_ name: String, argument: String?) -> Never {
        switch name {
        case "json-baseline", "json-serialization", "json-serializer", "json-serializer-nulls", "json-decoder", "json-decodable":
            let data = JSONBenchmarks.document(objects: 56_000)
            let response = HTTPURLResponse(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, httpVersion: nil,
                                           headerFields: ["Content-Type": "application/json"])!
            var nullFree = JSONResponseSerializer()
            nullFree.removesKeysWithNullValues = true
            switch name {
            case "json-serialization": consume(try? JSONSerialization.jsonObject(with: data))
            case "json-serializer": consume(try? JSONResponseSerializer().responseObject(for: response, data: data))
            case "json-serializer-nulls": consume(try? nullFree.responseObject(for: response, data: data))
            case "json-decoder": consume(try? JSONDecoder().decode([JSONBenchmarks.Record].self, from: data))
            case "json-decodable": consume(try? DecodableResponseSerializer([JSONBenchmarks.Record].self).responseObject(for: response, data: data))
            default: break
            }
        case "multipart-baseline", "multipart-stream", "multipart-chunks":
            guard let argument, let form = try? MultipartBenchmarks.form(file: URL(fileURLWithPath: argument)) else { exit(2) }
            if name == "multipart-stream" { MultipartBenchmarks.drain(form.makeInputStream()) }
            if name == "multipart-chunks" {
                let done = DispatchSemaphore(value: 0)
                Task.detached {
                    do { for try await chunk in form.chunks() { consume(chunk) } } catch { print("chunks failed: \(error)") }
                    done.signal()
                }
                done.wait()
            }
        case "upload-baseline", "upload-bridge":
            guard let argument, let sink = try? UploadBenchmarks.DiscardSink() else { exit(2) }
            var form = try? MultipartFormData(boundary: MultipartBenchmarks.boundary)
            try? form?.appendPart(fileURL: URL(fileURLWithPath: argument), name: "file", fileName: "upload.bin",
                                  mimeType: "application/octet-stream")
            guard let form else { exit(2) }
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            if name == "upload-bridge", !UploadBenchmarks.bridgeUpload(form, port: sink.port, client: client) { exit(3) }
            try? client.syncShutdown()
        case "multipart-parse-baseline", "multipart-parse", "multipart-form":
            guard let lines = argument?.split(separator: "\n", maxSplits: 1), lines.count == 2 else { exit(2) }
            let body = URL(fileURLWithPath: String(lines[0])), contentType = String(lines[1])
            if name == "multipart-parse", MultipartParsingBenchmarks.ours(body, contentType: contentType) < 0 { exit(3) }
            if name == "multipart-form", MultipartParsingBenchmarks.formRead(body, contentType: contentType, directory: body.deletingLastPathComponent()) < 0 { exit(3) }
        case "stream-array-baseline", "stream-array":
            let decoding = name == "stream-array"
            let result = StreamingBenchmarks.blocking { await StreamingBenchmarks.streamArray(decoding: decoding, bytes: 1 << 30) }
            if result.elements < 0 { exit(3) }
        case "download-baseline", "download-bridge":
            guard let bytes = argument.flatMap(Int.init), DownloadBenchmarks.runChild(name, bytes: bytes) else { exit(3) }
        case "server-upload":
            guard let argument, ServerUploadBenchmarks.runChild(argument) else { exit(3) }
        default:
            exit(2)
        }
        print(processStatusMiB("VmHWM").map { String($0) } ?? "nan")
        exit(0)
    }

    /// Peak RSS of a case in a fresh process, in MiB; nil when it cannot be measured.
    static func measure(_ name: String, argument: String? = nil) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--peak-rss", name] + (argument.map { [$0] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Peak RSS of `name` above its baseline, in MiB.
    static func growth(_ name: String, baseline: String, argument: String? = nil) -> Double? {
        guard let value = measure(name, argument: argument), let base = measure(baseline, argument: argument) else { return nil }
        return value - base
    }
}
