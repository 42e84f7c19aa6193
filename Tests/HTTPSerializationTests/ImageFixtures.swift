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
}
