import Foundation

/// Fixed responses, so response serializers can be exercised against a real server.
///
/// - `/status/CODE`: that status with a JSON error body `{"status": CODE, "error": "…"}`
/// - `/json`, `/xml`, `/plist`, `/png`: a document of that kind
/// - `/empty`: 204 with no body
/// - `/respond?status=201&type=text/plain&body=hello`: the status, content type and body you choose
/// - `/redirect?status=307&to=/echo`: a redirect (301, 302, 303, 307 or 308) to `to`
/// Every other path is echoed.
enum EchoRoutes {
    struct Canned {
        var status: Int
        var contentType: String?
        var body: Data
        var location: String?
    }

    static let json = Data(#"{"name":"httpser","items":[1,2,3],"nested":{"ok":true},"nothing":null}"#.utf8)
    static let xml = Data(#"<?xml version="1.0" encoding="UTF-8"?><catalog><book id="1"><title>Swift</title></book><book id="2"><title>HTTP</title></book></catalog>"#.utf8)
    static let plist = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>name</key><string>httpser</string><key>count</key><integer>3</integer></dict></plist>
        """.utf8)
    static let png = PNGWriter.png(width: 4, height: 3) { x, y in [UInt8(x * 60), UInt8(y * 100), 200, 255] }

    static func canned(path: String, query: String?) -> Canned? {
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
