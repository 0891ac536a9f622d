import BarcodeReader
import CImageShim
import Foundation

/// Loads PNG and JPEG files into ``GrayscaleImage`` values through libpng and libjpeg-turbo.
public enum ImageLoader {
    /// Reads and decodes an image file.
    /// - Parameter path: a PNG or JPEG file.
    /// - Returns: the luminance image.
    /// - Throws: ``ImageLoadError`` when the file cannot be read or is not a valid PNG/JPEG.
    public static func load(path: String) throws(ImageLoadError) -> GrayscaleImage {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImageLoadError(.unreadable, "cannot open \(path)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw ImageLoadError(.unreadable, "cannot read \(path): \(error)")
        }
        do {
            return try self.decode(Array(data))
        } catch {
            throw ImageLoadError(error.code, "\(path): \(error.message)")
        }
    }

    /// Decodes PNG or JPEG bytes (detected by their signature).
    /// - Parameter bytes: the file contents.
    /// - Returns: the luminance image.
    /// - Throws: ``ImageLoadError`` for unknown, truncated or corrupt data.
    public static func decode(_ bytes: [UInt8]) throws(ImageLoadError) -> GrayscaleImage {
        let isPNG = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
        let isJPEG = bytes.starts(with: [0xFF, 0xD8])
        guard isPNG || isJPEG else {
            throw ImageLoadError(.unsupportedFormat, "not a PNG or JPEG image")
        }
        if isPNG {
            // libpng stops reading once the pixels are complete; require the IEND trailer so truncation is an error.
            let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44]
            let tail = bytes.suffix(1024)
            let hasEnd = tail.indices.contains { i in i + 4 <= tail.endIndex && Array(tail[i..<(i + 4)]) == iend }
            guard hasEnd else { throw ImageLoadError(.corrupt, "truncated PNG file (no IEND chunk)") }
        }
        var image = stockroom_gray_image()
        let status = bytes.withUnsafeBufferPointer { buf in
            isPNG
                ? stockroom_load_png(buf.baseAddress, buf.count, &image)
                : stockroom_load_jpeg(buf.baseAddress, buf.count, &image)
        }
        defer { stockroom_image_free(&image) }
        guard status == 0, let pixels = image.pixels, image.width > 0, image.height > 0 else {
            let message = withUnsafeBytes(of: image.message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw ImageLoadError(.corrupt, message.isEmpty ? "corrupt image data" : message)
        }
        let count = Int(image.width) * Int(image.height)
        let array = Array(UnsafeBufferPointer(start: pixels, count: count))
        guard let result = GrayscaleImage(width: Int(image.width), height: Int(image.height), pixels: array) else {
            throw ImageLoadError(.corrupt, "inconsistent image size")
        }
        return result
    }
}
