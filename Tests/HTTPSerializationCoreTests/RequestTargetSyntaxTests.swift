import HTTPTypes
import Testing
@testable import HTTPSerializationCore

@Suite("Request targets are checked by RFC 3986's grammar for each part")
struct RequestTargetSyntaxTests {
    static func sends(authority: String = "example.com", path: String) -> Bool {
        (try? HTTPRequest(method: .get, scheme: "https", authority: authority, path: path).validateForSending()) != nil
    }

    @Test("paths and queries of pchar, / and ? with two-digit escapes pass; raw brackets, braces, a # and broken escapes are refused")
    func pathsAndQueries() {
        for path in ["/", "/a/b;c=d", "/p?q=a:b@c/d?e", "/p?x=%5B1%5D&y=%7b2%7D", "/~user/!$&'()*+,;=", "*"] {
            #expect(Self.sends(path: path), "\(path)")
        }
        for path in ["/p?x=[1]", "/p?y={2}", "/a\"b", "/p|q", "/p^q", "/p`q", "/p\\q", "/p<q>", "/p#f", "/p?%", "/p?%4", "/p?%4g", "/p%zz", "/caf\u{E9}"] {
            #expect(!Self.sends(path: path), "\(path)")
        }
    }

    @Test("authorities: user info, a name or bracketed literal, and a port of digits")
    func authorities() {
        for authority in ["example.com", "user:pw@example.com:8443", "[::1]:8080", "[v1.x]", "a%20b.example", "127.0.0.1", "[fe80::1%25en0]:80", "[fe80::1%25%41]"] {
            #expect(Self.sends(authority: authority, path: "/"), "\(authority)")
        }
        for authority in ["exa[mple.com", "example.com:80a", "[::1", "[]", "a b", "u[@h", "h:8:9", "ex{a}.com", "[fe80::1%en0]", "[fe80::1%25]", "[fe80::1%25e:n]", "[%25en0]"] {
            #expect(!Self.sends(authority: authority, path: "/"), "\(authority)")
        }
    }

    @Test("the byte masks hold exactly RFC 3986's sets: unreserved and sub-delims, with : for user info, and : @ / ? for paths")
    func byteSets() {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        let subDelimiters = "!$&'()*+,;="
        let sets: [(URISyntax.ByteSet, String)] = [
            (URISyntax.unreserved, unreserved),
            (URISyntax.hostName, unreserved + subDelimiters),
            (URISyntax.userInfo, unreserved + subDelimiters + ":"),
            (URISyntax.pathQueryFragment, unreserved + subDelimiters + ":@/?"),
        ]
        for (set, members) in sets {
            for byte in UInt8.min...UInt8.max {
                #expect(set.contains(byte) == members.utf8.contains(byte), "\(byte) in \(members)")
            }
        }
    }

    @Test("a URL's fragment, kept aside and never sent, is held to the same characters as a query")
    func fragments() {
        #expect((try? RequestTarget("https://example.com/p?q#a/b?c:d@e%41").validate()) != nil)
        for fragment in ["a[b]", "a#b", "a b", "%4", "a{b}"] {
            #expect((try? RequestTarget("https://example.com/p#" + fragment).validate()) == nil, "\(fragment)")
        }
    }

    @Test("a refusal is invalidURL with the whole target")
    func refusalNamesTheTarget() {
        #expect(throws: RequestSerializationError.invalidURL("https://example.com/p?x=[1]")) {
            try HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/p?x=[1]").validateForSending()
        }
    }
}
