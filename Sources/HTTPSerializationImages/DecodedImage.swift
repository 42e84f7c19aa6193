import CImageCodecs
import Foundation
import HTTPSerializationCore

/// An image decoded without a platform UI framework (Linux): its format, size, scale and pixels. PNG and JPEG
/// (RGB, grayscale, CMYK, YCCK) are decoded; other formats are
/// ``ImageReadingError/Reason/notDecoded(_:)``, never an image without pixels.
public struct DecodedImage: Sendable, Equatable {
    /// The format the image was decoded from: PNG or JPEG.
    public var format: ImageHeader.Format
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// Pixels per point, as `UIImage.scale`: the size in points is `width / scale`.
    public var scale: Double
    /// RGBA, 8 bits a channel, row-major, `width * height * 4` bytes.
    public var rgbaPixels: Data

    /// The RGBA components of the pixel at (`x`, `y`), or nil outside the image.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = rgbaPixels.startIndex + (y * width + x) * 4
        return (rgbaPixels[offset], rgbaPixels[offset + 1], rgbaPixels[offset + 2], rgbaPixels[offset + 3])
    }
}

enum ImageDecoding {
    enum Failure: Error {
        case invalid(String)
        case tooLarge(String)
        case notDecoded
    }

    /// Pixels for PNG and JPEG through libpng and libjpeg; other formats are `notDecoded`.
    /// - Parameter strict: libjpeg's warnings about corrupt or truncated data are errors.
    static func rgbaPixels(_ data: Data, format: ImageHeader.Format, maximumPixelCount: Int, strict: Bool) throws -> (Data, Int, Int) {
        let decode: (UnsafePointer<UInt8>?, Int, UInt64, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                     UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<CChar>, Int) -> Int32
        switch format {
        case .png: decode = httpser_png_decode
        case .jpeg:
            decode = { httpser_jpeg_decode($0, $1, $2, strict ? 1 : 0, $3, $4, $5, $6, $7) }
        default: throw Failure.notDecoded
        }
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBytes { bytes in
            decode(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, UInt64(maximumPixelCount),
                   &pixels, &width, &height, &message, message.count)
        }
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch Int(status) {
        case Int(HTTPSER_IMAGE_OK):
            guard let pixels else { throw Failure.invalid("the decoder returned no pixels") }
            let count = Int(width) * Int(height) * 4
            let result = Data(bytesNoCopy: pixels, count: count, deallocator: .custom { pointer, _ in httpser_image_free(pointer) })
            return (result, Int(width), Int(height))
        case Int(HTTPSER_IMAGE_TOO_LARGE):
            throw Failure.tooLarge(text)
        case Int(HTTPSER_IMAGE_UNSUPPORTED):
            throw Failure.notDecoded
        default:
            throw Failure.invalid(text.isEmpty ? "the \(format.displayName) data is invalid" : text)
        }
    }
}
