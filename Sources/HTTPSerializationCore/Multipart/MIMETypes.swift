/// MIME types by file extension from a built-in table, so every platform answers the same.
///
/// The system tables disagree (Debian says `application/pkix-cert` for `cer`, Apple says
/// `application/x-x509-ca-cert`); uploads and signatures need one answer. Where they differ
/// the table follows Apple's, which AFNetworking users saw.
public enum MIMETypes {
    /// The type for a file extension (case-insensitive, with or without the dot), or
    /// `application/octet-stream` when it is unknown.
    ///
    /// ```swift
    /// MIMETypes.type(forPathExtension: "PNG")  // "image/png"
    /// ```
    public static func type(forPathExtension pathExtension: String) -> String {
        var key = pathExtension.lowercased()
        if key.hasPrefix(".") { key.removeFirst() }
        return table[key] ?? defaultType
    }

    /// The type of a file from its name's last extension.
    public static func type(forFileName fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return defaultType }
        return type(forPathExtension: String(fileName[fileName.index(after: dot)...]))
    }

    /// The type for an unknown extension or a name without one: `application/octet-stream`.
    public static let defaultType = "application/octet-stream"

    /// Every extension the table knows, lower-cased.
    public static var knownExtensions: Dictionary<String, String>.Keys { table.keys }

    static let table: [String: String] = [
        // Text and documents
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "conf": "text/plain", "ini": "text/plain",
        "md": "text/markdown", "markdown": "text/markdown",
        "html": "text/html", "htm": "text/html", "shtml": "text/html", "xhtml": "application/xhtml+xml",
        "css": "text/css", "csv": "text/csv", "tsv": "text/tab-separated-values", "ics": "text/calendar",
        "vcf": "text/vcard", "vcard": "text/vcard", "rtf": "text/rtf", "rtx": "text/richtext", "sgml": "text/sgml",
        "xml": "application/xml", "xsl": "application/xml", "xsd": "application/xml", "dtd": "application/xml-dtd",
        "rss": "application/rss+xml", "atom": "application/atom+xml", "yaml": "application/yaml", "yml": "application/yaml",
        "json": "application/json", "jsonld": "application/ld+json", "geojson": "application/geo+json",
        "map": "application/json", "webmanifest": "application/manifest+json", "toml": "application/toml",
        "pdf": "application/pdf", "ps": "application/postscript", "eps": "application/postscript", "ai": "application/postscript",
        "doc": "application/msword", "dot": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text", "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "odp": "application/vnd.oasis.opendocument.presentation", "odg": "application/vnd.oasis.opendocument.graphics",
        "pages": "application/vnd.apple.pages", "numbers": "application/vnd.apple.numbers",
        "key": "application/vnd.apple.keynote", "epub": "application/epub+zip", "mobi": "application/x-mobipocket-ebook",
        "azw": "application/vnd.amazon.ebook",
        // Code
        "js": "text/javascript", "mjs": "text/javascript", "cjs": "text/javascript", "ts": "video/mp2t",
        "wasm": "application/wasm", "swift": "text/x-swift", "c": "text/x-c", "h": "text/x-c", "cpp": "text/x-c",
        "java": "text/x-java-source", "py": "text/x-python", "rb": "text/x-ruby", "go": "text/x-go", "rs": "text/x-rust",
        "sh": "application/x-sh", "csh": "application/x-csh", "php": "application/x-httpd-php", "pl": "text/x-perl",
        "sql": "application/sql", "graphql": "application/graphql",
        // Images
        "png": "image/png", "apng": "image/apng", "jpg": "image/jpeg", "jpeg": "image/jpeg", "jpe": "image/jpeg",
        "jfif": "image/jpeg", "pjpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "avif": "image/avif",
        "heic": "image/heic", "heif": "image/heif", "heics": "image/heic-sequence", "heifs": "image/heif-sequence",
        "bmp": "image/bmp", "dib": "image/bmp", "ico": "image/vnd.microsoft.icon", "cur": "image/x-icon",
        "icns": "image/x-icns", "tif": "image/tiff", "tiff": "image/tiff", "svg": "image/svg+xml", "svgz": "image/svg+xml",
        "jp2": "image/jp2", "jpx": "image/jpx", "jxl": "image/jxl", "psd": "image/vnd.adobe.photoshop",
        "dng": "image/x-adobe-dng", "cr2": "image/x-canon-cr2", "nef": "image/x-nikon-nef", "arw": "image/x-sony-arw",
        "raw": "image/x-panasonic-raw", "xbm": "image/x-xbitmap", "xpm": "image/x-xpixmap", "pbm": "image/x-portable-bitmap",
        "pgm": "image/x-portable-graymap", "ppm": "image/x-portable-pixmap", "pnm": "image/x-portable-anymap",
        "tga": "image/x-tga", "exr": "image/x-exr", "hdr": "image/vnd.radiance", "ktx": "image/ktx", "astc": "image/astc",
        // Audio
        "mp3": "audio/mpeg", "mpga": "audio/mpeg", "m4a": "audio/mp4", "m4b": "audio/mp4", "m4r": "audio/mp4",
        "aac": "audio/aac", "adts": "audio/aac", "wav": "audio/wav", "wave": "audio/wav", "aif": "audio/aiff",
        "aiff": "audio/aiff", "aifc": "audio/aiff", "caf": "audio/x-caf", "flac": "audio/flac", "ogg": "audio/ogg",
        "oga": "audio/ogg", "opus": "audio/opus", "weba": "audio/webm", "mid": "audio/midi", "midi": "audio/midi",
        "amr": "audio/amr", "au": "audio/basic", "snd": "audio/basic", "wma": "audio/x-ms-wma", "ac3": "audio/ac3",
        "m3u": "audio/x-mpegurl", "pls": "audio/x-scpls",
        // Video
        "mp4": "video/mp4", "m4v": "video/x-m4v", "mov": "video/quicktime", "qt": "video/quicktime",
        "mpeg": "video/mpeg", "mpg": "video/mpeg", "mpe": "video/mpeg", "m2v": "video/mpeg", "avi": "video/x-msvideo",
        "wmv": "video/x-ms-wmv", "webm": "video/webm", "mkv": "video/x-matroska", "flv": "video/x-flv",
        "3gp": "video/3gpp", "3g2": "video/3gpp2", "ogv": "video/ogg", "m3u8": "application/vnd.apple.mpegurl",
        "mts": "video/mp2t", "m2ts": "video/mp2t", "f4v": "video/mp4",
        // Fonts
        "ttf": "font/ttf", "otf": "font/otf", "woff": "font/woff", "woff2": "font/woff2", "ttc": "font/collection",
        "eot": "application/vnd.ms-fontobject",
        // Archives and packages
        "zip": "application/zip", "gz": "application/gzip", "gzip": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "bz2": "application/x-bzip2", "bz": "application/x-bzip", "xz": "application/x-xz",
        "7z": "application/x-7z-compressed", "rar": "application/vnd.rar", "zst": "application/zstd",
        "lz": "application/x-lzip", "lzma": "application/x-lzma", "z": "application/x-compress",
        "jar": "application/java-archive", "war": "application/java-archive", "apk": "application/vnd.android.package-archive",
        "ipa": "application/octet-stream", "dmg": "application/x-apple-diskimage", "pkg": "application/octet-stream",
        "deb": "application/vnd.debian.binary-package", "rpm": "application/x-rpm", "iso": "application/x-iso9660-image",
        "exe": "application/x-msdownload", "msi": "application/x-msdownload", "dll": "application/x-msdownload",
        "bin": "application/octet-stream", "dat": "application/octet-stream", "so": "application/octet-stream",
        "class": "application/java-vm", "swf": "application/x-shockwave-flash",
        // Certificates and keys (Apple's answers)
        "cer": "application/x-x509-ca-cert", "crt": "application/x-x509-ca-cert", "der": "application/x-x509-ca-cert",
        "pem": "application/x-pem-file", "p12": "application/x-pkcs12", "pfx": "application/x-pkcs12",
        "p7b": "application/x-pkcs7-certificates", "p7c": "application/pkcs7-mime", "p7m": "application/pkcs7-mime",
        "p7s": "application/pkcs7-signature", "p8": "application/pkcs8", "crl": "application/pkix-crl",
        "csr": "application/pkcs10", "mobileconfig": "application/x-apple-aspen-config",
        // Data
        "plist": "application/x-plist", "sqlite": "application/vnd.sqlite3", "db": "application/octet-stream",
        "parquet": "application/vnd.apache.parquet", "avro": "application/avro", "proto": "text/plain",
        "pb": "application/x-protobuf", "ndjson": "application/x-ndjson", "jsonl": "application/jsonl",
        "gpx": "application/gpx+xml", "kml": "application/vnd.google-earth.kml+xml",
        "kmz": "application/vnd.google-earth.kmz", "usdz": "model/vnd.usdz+zip", "gltf": "model/gltf+json",
        "glb": "model/gltf-binary", "obj": "model/obj", "stl": "model/stl", "ply": "model/ply",
        "torrent": "application/x-bittorrent", "eml": "message/rfc822", "mbox": "application/mbox",
        "vtt": "text/vtt", "srt": "application/x-subrip",
    ]
}
