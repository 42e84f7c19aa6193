#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The header values a new `HTTPRequestSerializer` starts with.
public enum DefaultHeaders {
    /// `Accept-Language` from preferred languages with AFNetworking's q-values.
    ///
    /// The first language gets `q=1`, each next one 0.1 less, and the list stops after the one
    /// at `q=0.5`: `en;q=1, fr;q=0.9`. Returns nil for an empty list (no header is better
    /// than an empty one).
    public static func acceptLanguage(preferredLanguages: [String] = Locale.preferredLanguages) -> String? {
        var components: [String] = []
        for (index, language) in preferredLanguages.enumerated() {
            // Float arithmetic on purpose: it decides where AFNetworking's list stops.
            let q = Float(1) - Float(index) * Float(0.1)
            components.append("\(language);q=\(oneSignificantDigit(q))")
            if q <= 0.5 { break }
        }
        return components.isEmpty ? nil : components.joined(separator: ", ")
    }

    /// A `User-Agent` that identifies the program and system on every platform, ASCII only.
    ///
    /// `Name/Version (OS Version)`, from the main bundle when it has an Info.plist and from
    /// the process name and kernel version on Linux, where `Bundle.main.infoDictionary` is empty.
    public static func userAgent(
        bundleInfo: [String: Any]? = nil,
        processName: String = ProcessInfo.processInfo.processName,
        operatingSystemVersion: OperatingSystemVersion = ProcessInfo.processInfo.operatingSystemVersion
    ) -> String {
        let info = bundleInfo ?? mainBundleInfo ?? [:]
        let name = (info["CFBundleExecutable"] as? String) ?? (info["CFBundleIdentifier"] as? String) ?? processName
        let version = (info["CFBundleShortVersionString"] as? String) ?? (info["CFBundleVersion"] as? String)
        let os = operatingSystemVersion
        let system = "\(operatingSystemName) \(os.majorVersion).\(os.minorVersion).\(os.patchVersion)"
        var product = productToken(name.isEmpty ? "HTTPSerialization" : name)
        if let version, !version.isEmpty { product += "/" + productToken(version) }
        return "\(product) (\(asciiFolded(system)))"
    }

    static var operatingSystemName: String {
        #if os(Linux)
        return "Linux"
        #elseif os(macOS)
        return "macOS"
        #elseif os(iOS)
        return "iOS"
        #elseif os(tvOS)
        return "tvOS"
        #elseif os(watchOS)
        return "watchOS"
        #elseif os(visionOS)
        return "visionOS"
        #elseif os(Windows)
        return "Windows"
        #else
        return "Unknown"
        #endif
    }

    /// Accents dropped (`Café` ⇒ `Cafe`), other non-ASCII and control characters removed.
    /// The main bundle's Info.plist; FoundationEssentials has no bundles (nor has Linux
    /// an Info.plist), so there it is nil and the process name is used.
    static var mainBundleInfo: [String: Any]? {
        #if canImport(FoundationEssentials)
        return nil
        #else
        return Bundle.main.infoDictionary
        #endif
    }

    /// `%0.1g` for the q-values 0.5 through 1: `1`, `0.9`, … `0.5`.
    static func oneSignificantDigit(_ q: Float) -> String {
        let tenths = Int((q * 10).rounded())
        return tenths >= 10 ? "1" : "0.\(tenths)"
    }

    /// Printable ASCII only: a letter with accents becomes its base letter (`é` → `e`,
    /// found as the letter that, with one combining mark, is canonically the same
    /// character), anything else is dropped.
    static func asciiFolded(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                if scalar.value >= 0x20 && scalar.value != 0x7F { result.append(scalar) }
            } else if let base = asciiBase(of: scalar) {
                result.append(base)
            }
        }
        return String(result)
    }

    private static func asciiBase(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let character = String(scalar)
        for base in Array(UInt8(ascii: "A")...UInt8(ascii: "Z")) + Array(UInt8(ascii: "a")...UInt8(ascii: "z")) {
            for mark in UInt32(0x300)...UInt32(0x36F) {
                guard let combining = Unicode.Scalar(mark) else { continue }
                // String equality is canonical equivalence: "e" + U+0301 == "é".
                if String(Unicode.Scalar(base)) + String(combining) == character { return Unicode.Scalar(base) }
            }
        }
        return nil
    }

    /// RFC 9110 product tokens: folded to ASCII, anything else that is not a token becomes `-`.
    static func productToken(_ text: String) -> String {
        let folded = asciiFolded(text)
        let token = String(folded.map { HTTPHeaderFields.isToken(String($0)) ? $0 : "-" })
        return token.isEmpty ? "-" : token
    }
}
