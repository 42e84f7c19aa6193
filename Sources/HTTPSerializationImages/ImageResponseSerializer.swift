import Foundation
import HTTPSerializationCore
#if canImport(UIKit)
import UIKit
/// The image type a response decodes to on this platform.
public typealias PlatformImage = UIImage
#elseif canImport(AppKit)
import AppKit
/// The image type a response decodes to on this platform.
public typealias PlatformImage = NSImage
#else
/// The image type a response decodes to on this platform.
public typealias PlatformImage = DecodedImage
#endif

/// Validates a response and decodes its image: AFNetworking's `AFImageResponseSerializer`.
///
/// On Apple platforms the result is a `UIImage`/`NSImage` at ``imageScale``, prepared for display when
/// ``automaticallyInflatesResponseImage`` is set. On Linux it is a ``DecodedImage``: PNG and JPEG (including
/// CMYK and YCCK) decoded to RGBA pixels; GIF, BMP, ICO, TIFF and WebP are recognised and measured but
/// reported as ``ImageReadingError/Reason/notDecoded(_:)``, never as images. Every image is measured from
/// its header first: more pixels than ``maximumPixelCount``, or a pixel buffer past ``decodeBudget`` for
/// the body's size, is ``ImageReadingError/Reason/tooLarge(width:height:limit:)`` before any pixel memory
/// is allocated. Each refusal is an ``ImageReadingError`` inside
/// ``/HTTPSerializationCore/ResponseSerializationError/unreadableBody(_:response:)``.
@dynamicMemberLookup
public struct ImageResponseSerializer: HTTPResponseSerializerComposing {
    /// AFNetworking's ten image types.
    public static let defaultContentTypes: Set<String> = [
        "image/tiff", "image/jpeg", "image/gif", "image/png", "image/ico", "image/x-icon",
        "image/bmp", "image/x-bmp", "image/x-xbitmap", "image/x-win-bitmap",
    ]

    /// The shared validation: acceptable status codes and content types.
    public var base: HTTPResponseSerializer
    /// Pixels per point of the returned image (AFNetworking used the main screen's scale).
    public var imageScale: Double = 1
    /// Decode the pixels now rather than on first draw (Apple platforms).
    public var automaticallyInflatesResponseImage = true
    /// The most pixels an image may have; 100 megapixels by default.
    public var maximumPixelCount = 100_000_000
    /// How much pixel memory one image may need, relative to its body: a few kilobytes of
    /// compressed data must not demand hundreds of megabytes.
    public var decodeBudget = ImageDecodeBudget()
    /// Decode JPEGs whose data is corrupt or truncated (libjpeg fills what it cannot read
    /// with gray) instead of failing; off by default.
    public var allowsCorruptJPEGData = false

    /// An image serializer over `base`, which by default accepts ``defaultContentTypes``.
    public init(base: HTTPResponseSerializer = HTTPResponseSerializer(acceptableContentTypes: ImageResponseSerializer.defaultContentTypes)) {
        self.base = base
    }

    /// The image, or nil for an empty body.
    public func responseObject(for response: ResponseContext) throws -> PlatformImage? {
        let response = try preprocessed(response)
        try base.validate(response)
        guard !response.hasEmptyBody(whitespaceIsEmpty: false), let data = response.data else { return nil }
        let context = response.withoutDecodedBody
        func refused(_ reason: ImageReadingError.Reason) -> ResponseSerializationError {
            .unreadableBody(ImageReadingError(reason), response: context)
        }
        guard let header = ImageHeader(data: data) else { throw refused(.unrecognized) }
        let allowedPixels = min(maximumPixelCount, decodeBudget.bytes(forBodySize: data.count) / 4)
        guard header.pixelCount <= allowedPixels else {
            throw refused(.tooLarge(width: header.width, height: header.height, limit: allowedPixels))
        }
        let scale = imageScale.isFinite && imageScale > 0 ? imageScale : 1
        #if canImport(UIKit)
        guard let image = UIImage(data: data, scale: CGFloat(scale)) else {
            throw refused(.corrupt(format: header.format, detail: nil))
        }
        #if os(iOS) || os(tvOS) || os(visionOS)
        if automaticallyInflatesResponseImage, #available(iOS 15.0, tvOS 15.0, *) {
            return image.preparingForDisplay() ?? image
        }
        #endif
        return image
        #elseif canImport(AppKit)
        guard let image = NSImage(data: data) else {
            throw refused(.corrupt(format: header.format, detail: nil))
        }
        image.size = NSSize(width: CGFloat(header.width) / CGFloat(scale), height: CGFloat(header.height) / CGFloat(scale))
        return image
        #else
        do {
            let (pixels, width, height) = try ImageDecoding.rgbaPixels(
                data, format: header.format, maximumPixelCount: allowedPixels, strict: !allowsCorruptJPEGData)
            return DecodedImage(format: header.format, width: width, height: height, scale: scale, rgbaPixels: pixels)
        } catch ImageDecoding.Failure.notDecoded {
            throw refused(.notDecoded(header.format))
        } catch ImageDecoding.Failure.tooLarge {
            throw refused(.tooLarge(width: header.width, height: header.height, limit: allowedPixels))
        } catch ImageDecoding.Failure.invalid(let reason) {
            throw refused(.corrupt(format: header.format, detail: reason))
        }
        #endif
    }
}

extension ImageResponseSerializer: Codable {
    private enum CodingKeys: String, CodingKey {
        case base, imageScale, automaticallyInflatesResponseImage, maximumPixelCount, decodeBudget, allowsCorruptJPEGData
    }

    /// Decodes a serializer archived by ``encode(to:)``; missing fields take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        if let base = try container.decodeIfPresent(HTTPResponseSerializer.self, forKey: .base) { self.base = base }
        imageScale = try container.decodeIfPresent(Double.self, forKey: .imageScale) ?? 1
        automaticallyInflatesResponseImage = try container.decodeIfPresent(Bool.self, forKey: .automaticallyInflatesResponseImage) ?? true
        maximumPixelCount = try container.decodeIfPresent(Int.self, forKey: .maximumPixelCount) ?? 100_000_000
        decodeBudget = try container.decodeIfPresent(ImageDecodeBudget.self, forKey: .decodeBudget) ?? ImageDecodeBudget()
        allowsCorruptJPEGData = try container.decodeIfPresent(Bool.self, forKey: .allowsCorruptJPEGData) ?? false
    }

    /// Archives the base and every image setting.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(base, forKey: .base)
        try container.encode(imageScale, forKey: .imageScale)
        try container.encode(automaticallyInflatesResponseImage, forKey: .automaticallyInflatesResponseImage)
        try container.encode(maximumPixelCount, forKey: .maximumPixelCount)
        try container.encode(decodeBudget, forKey: .decodeBudget)
        try container.encode(allowsCorruptJPEGData, forKey: .allowsCorruptJPEGData)
    }
}

/// How much pixel memory (RGBA, 4 bytes a pixel) decoding one image may take: `bytesPerBodyByte`
/// times the body's size, but at least `minimumBytes` and at most `maximumBytes`.
///
/// Photos need about 10–50 bytes of pixels per byte of JPEG and flat graphics a few hundred
/// per byte of PNG; a decompression bomb needs tens of thousands. The defaults (2,048× the
/// body, 64 MiB floor, 256 MiB ceiling) let a 32-megapixel photo through and refuse a 2.4 KB
/// JPEG or a 97 KB PNG that asks for 400 MB.
public struct ImageDecodeBudget: Sendable, Hashable, Codable {
    /// Pixel bytes allowed per byte of body; 2,048 by default.
    public var bytesPerBodyByte = 2_048
    /// The least pixel memory allowed, in bytes, however small the body; 64 MiB by default.
    public var minimumBytes = 64 << 20
    /// The most pixel memory allowed, in bytes, however large the body; 256 MiB by default.
    public var maximumBytes = 256 << 20

    /// The defaults described above.
    public init() {}

    /// The pixel memory allowed for a body of `size` bytes.
    public func bytes(forBodySize size: Int) -> Int {
        let (scaled, overflow) = size.multipliedReportingOverflow(by: max(0, bytesPerBodyByte))
        return min(max(0, maximumBytes), max(overflow ? Int.max : scaled, minimumBytes))
    }
}
