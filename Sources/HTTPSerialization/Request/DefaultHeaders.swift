import Foundation

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
            components.append("\(language);q=\(String(format: "%0.1g", q))")
            if q <= 0.5 { break }
        }
        return components.isEmpty ? nil : components.joined(separator: ", ")
    }

    /// A `User-Agent` that identifies the program and system on every platform, ASCII only.
    ///
    /// `Name/Version (OS Version)`, from the main bundle when it has an Info.plist and from
    /// the process name and kernel version on Linux, where `Bundle.main.infoDictionary` is empty.
    public static func userAgent(
        bundleInfo: [String: Any]? = Bundle.main.infoDictionary,
        processName: String = ProcessInfo.processInfo.processName,
        operatingSystemVersion: OperatingSystemVersion = ProcessInfo.processInfo.operatingSystemVersion
    ) -> String {
        let info = bundleInfo ?? [:]
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
    static func asciiFolded(_ text: String) -> String {
        let scalars = text.decomposedStringWithCanonicalMapping.unicodeScalars
            .filter { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }
        return String(String.UnicodeScalarView(scalars))
    }

    /// RFC 9110 product tokens: folded to ASCII, anything else that is not a token becomes `-`.
    static func productToken(_ text: String) -> String {
        let folded = asciiFolded(text)
        let token = String(folded.map { HTTPHeaderFields.isToken(String($0)) ? $0 : "-" })
        return token.isEmpty ? "-" : token
    }
}
