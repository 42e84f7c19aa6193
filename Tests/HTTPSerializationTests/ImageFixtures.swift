import CImageCodecs
import EchoServer
import Foundation

/// Images made in the tests, independently of the decoders under test.
enum ImageFixtures {
    /// A PNG written by hand (stored deflate blocks), so libpng is checked against bytes it
    /// did not write. `colorType` 6 is RGBA, 0 is 8-bit gray.
    static func png(width: Int, height: Int, colorType: UInt8 = 6, pixel: (Int, Int) -> [UInt8]) -> Data {
        PNGWriter.png(width: width, height: height, colorType: colorType, pixel: pixel)
    }

    /// A baseline JPEG through libjpeg's encoder.
    static func jpeg(width: Int, height: Int, quality: Int32 = 95, pixel: (Int, Int) -> [UInt8]) -> Data? {
        var rgb = [UInt8]()
        for y in 0..<height { for x in 0..<width { rgb += pixel(x, y) } }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = httpser_jpeg_encode_rgb(rgb, UInt32(width), UInt32(height), quality, &output, &size, &message, message.count)
        guard status == 0, let output else { return nil }
        defer { httpser_image_free(output) }
        return Data(bytes: output, count: size)
    }

    /// A JPEG in CMYK (`ycck` false) or YCCK, from 4 stored samples a pixel, as libjpeg writes
    /// them (with an Adobe marker, so readers take them as inverted: RGB = c·k/255).
    static func jpegCMYK(width: Int, height: Int, ycck: Bool, pixel: (Int, Int) -> [UInt8]) -> Data? {
        var samples = [UInt8]()
        for y in 0..<height { for x in 0..<width { samples += pixel(x, y) } }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = httpser_jpeg_encode(samples, UInt32(width), UInt32(height), ycck ? 2 : 1, 95, &output, &size, &message, message.count)
        guard status == 0, let output else { return nil }
        defer { httpser_image_free(output) }
        return Data(bytes: output, count: size)
    }

    /// A 1×1 PNG whose header claims another size (its CRC left wrong: nothing may read past it).
    static func pngClaiming(width: UInt32, height: UInt32) -> Data {
        var png = png(width: 1, height: 1) { _, _ in [0, 0, 0, 0] }
        let size = [width, height].flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        png.replaceSubrange(16..<24, with: size)
        return png
    }
}
