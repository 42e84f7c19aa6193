import Foundation

/// Fixed responses, so response serializers can be exercised against a real server.
///
/// - `/status/CODE`: that status with a JSON error body `{"status": CODE, "error": "…"}`
/// - `/json`, `/xml`, `/plist`, `/png`: a document of that kind
/// - `/empty`: 204 with no body
/// - `/respond?status=201&type=text/plain&body=hello`: the status, content type and body you choose
/// - `/redirect?status=307&to=/echo`: a redirect (301, 302, 303, 307 or 308) to `to`
/// - `/bytes/N?name=FILE`: N seeded bytes as `application/octet-stream`, honouring
///   `Range: bytes=START-` with 206 (416 past the end); `name` adds a `Content-Disposition`
/// - `/sse`, `/ndjson`, `/json-array`: bodies written while the client reads them (``StreamingRoutes``)
/// Every other path is echoed.
public enum EchoRoutes {
    struct Canned {
        var status: Int
        var contentType: String?
        var body: Data
        var location: String?
        var extraHeaders: [(String, String)] = []
    }

    /// The largest `/bytes/N` served.
    static let maximumBytes = 64 << 20

    /// The byte at `index` of every `/bytes/N` body, so a resumed download can be checked.
    public static func seededByte(at index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: index &* 7 &+ 3)
    }

    public static let json = Data(#"{"name":"httpser","items":[1,2,3],"nested":{"ok":true},"nothing":null}"#.utf8)
    static let xml = Data(#"<?xml version="1.0" encoding="UTF-8"?><catalog><book id="1"><title>Swift</title></book><book id="2"><title>HTTP</title></book></catalog>"#.utf8)
    static let plist = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>name</key><string>httpser</string><key>count</key><integer>3</integer></dict></plist>
        """.utf8)
    public static let png = PNGWriter.png(width: 4, height: 3) { x, y in [UInt8(x * 60), UInt8(y * 100), 200, 255] }

    static func canned(path: String, query: String?, range: String? = nil) -> Canned? {
        if path.hasPrefix("/bytes/"), let count = Int(path.dropFirst("/bytes/".count)), (0...maximumBytes).contains(count) {
            return bytes(count, query: query, range: range)
        }
        if path == "/redirect" {
            let pairs = FormDecoding.pairs(query ?? "")
            let value = { (name: String) in pairs.first { $0.name == name }?.value }
            let status = value("status").flatMap(Int.init).flatMap { [301, 302, 303, 307, 308].contains($0) ? $0 : nil } ?? 307
            return Canned(status: status, contentType: nil, body: Data(), location: value("to") ?? "/echo")
        }
        if path == "/respond" {
            let pairs = FormDecoding.pairs(query ?? "")
            let value = { (name: String) in pairs.first { $0.name == name }?.value }
            let status = value("status").flatMap(Int.init).flatMap { (100...599).contains($0) ? $0 : nil } ?? 200
            return Canned(status: status, contentType: value("type"), body: Data((value("body") ?? "").utf8))
        }
        switch path {
        case "/json": return Canned(status: 200, contentType: "application/json", body: json)
        case "/xml": return Canned(status: 200, contentType: "application/xml", body: xml)
        case "/plist": return Canned(status: 200, contentType: "application/x-plist", body: plist)
        case "/png": return Canned(status: 200, contentType: "image/png", body: png)
        case "/empty": return Canned(status: 204, contentType: nil, body: Data())
        default: break
        }
        let segments = path.split(separator: "/")
        if segments.count == 2, segments[0] == "status", let code = Int(segments[1]), (100...599).contains(code) {
            let body = Data(#"{"status":\#(code),"error":"status \#(code) as requested"}"#.utf8)
            return Canned(status: code, contentType: "application/json", body: code == 204 || code == 304 ? Data() : body)
        }
        return nil
    }
}

extension EchoRoutes {
    private static func bytes(_ count: Int, query: String?, range: String?) -> Canned {
        var headers: [(String, String)] = [("Accept-Ranges", "bytes")]
        if let name = FormDecoding.pairs(query ?? "").first(where: { $0.name == "name" })?.value {
            headers.append(("Content-Disposition", "attachment; filename=\"\(name)\""))
        }
        var start = 0
        if let range, range.hasPrefix("bytes="), range.hasSuffix("-"), let first = Int(range.dropFirst(6).dropLast()), first >= 0 {
            guard first < count else {
                return Canned(status: 416, contentType: nil, body: Data(), extraHeaders: headers + [("Content-Range", "bytes */\(count)")])
            }
            start = first
            headers.append(("Content-Range", "bytes \(first)-\(count - 1)/\(count)"))
        }
        let body = Data((start..<count).map(seededByte(at:)))
        return Canned(status: start > 0 ? 206 : 200, contentType: "application/octet-stream", body: body, extraHeaders: headers)
    }
}
