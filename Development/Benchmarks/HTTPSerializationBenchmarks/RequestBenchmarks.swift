import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPSerialization

/// Building whole requests, the per-call cost an app pays: a GET with a nested query and a
/// JSON POST, through the `URLRequest` form (which converts to and from the swift-http-types
/// form) and the `HTTPRequest` form, against the same requests built by hand with Foundation
/// (URLComponents, the AF-style query reference, JSONSerialization).
enum RequestBenchmarks {
    @MainActor static func run(quick: Bool, runs: Int) {
        let parameters: [String: Any] = [
            "name": "bang", "phone": ["mobile": "xx", "home": "xx"], "families": ["father", "mother"],
            "page": 2, "filter": ["tag": ["swift", "http"], "since": "2026-01-01"],
        ]
        let count = quick ? 200 : 20_000
        let tree = try! ParameterValue(any: parameters)
        let serializer = HTTPRequestSerializer(headers: try! HTTPHeaderFields([.init(name: "Accept", value: "application/json")]))
        let json = JSONRequestSerializer(base: serializer)
        let url = "https://api.example.com/v1/items"

        func viaURLRequest() {
            for _ in 0..<count {
                consume(try! serializer.request(method: "GET", urlString: url, parameters: tree))
                consume(try! json.request(method: "POST", urlString: url, parameters: tree))
            }
        }
        func viaHTTPRequest() {
            for _ in 0..<count {
                consume(try! serializer.httpRequest(method: "GET", urlString: url, parameters: tree))
                consume(try! json.httpRequest(method: "POST", urlString: url, parameters: tree))
            }
        }
        func byHand() {
            for _ in 0..<count {
                var components = URLComponents(string: url)!
                components.percentEncodedQuery = ReferenceQueryEncoder.queryString(parameters)
                var get = URLRequest(url: components.url!)
                get.httpMethod = "GET"
                get.setValue("application/json", forHTTPHeaderField: "Accept")
                consume(get)
                var post = URLRequest(url: URL(string: url)!)
                post.httpMethod = "POST"
                post.setValue("application/json", forHTTPHeaderField: "Accept")
                post.setValue("application/json", forHTTPHeaderField: "Content-Type")
                post.httpBody = try! JSONSerialization.data(withJSONObject: parameters)
                consume(post)
            }
        }

        let get = try! serializer.request(method: "GET", urlString: url, parameters: tree)
        var components = URLComponents(string: url)!
        components.percentEncodedQuery = ReferenceQueryEncoder.queryString(parameters)
        check(get.url == components.url, "GET URL differs from the hand-built one")
        let head = try! serializer.httpRequest(method: "GET", urlString: url, parameters: tree)
        check("https://\(head.request.authority ?? "")\(head.request.path ?? "")" == components.url?.absoluteString,
              "HTTPRequest target differs from the hand-built URL")

        let times = fastest(runs: runs, [viaURLRequest, viaHTTPRequest, byHand])
        let perRequest = { (seconds: Double) in seconds / Double(2 * count) * 1e6 }
        print("")
        print("requests, \(count) GETs with a nested query and \(count) JSON POSTs")
        print("  URLRequest form            \(format(perRequest(times[0]), 2)) µs a request")
        print("  HTTPRequest form           \(format(perRequest(times[1]), 2)) µs a request")
        print("  by hand with Foundation    \(format(perRequest(times[2]), 2)) µs a request")
        print("  ratios                     \(format(times[2] / times[0]))x, \(format(times[2] / times[1]))x   (target >= 1x)")
        recordRatio("request-urlrequest-vs-foundation", times[2] / times[0], target: 1)
        recordRatio("request-httprequest-vs-foundation", times[2] / times[1], target: 1)
    }
}
