import BarcodeReader
import CImageShim
import Foundation

/// Loads PNG and JPEG files into ``GrayscaleImage`` values through libpng and libjpeg-turbo.
///
/// The declared size is checked against ``ImageLimits`` before any pixel memory is taken, first from the header
/// bytes (``ImageHeader``) and again inside the C shim once libpng or libjpeg has parsed the header itself.
public enum ImageLoader {
    /// Reads and decodes an image file.
    /// - Parameters:
    ///   - path: a PNG or JPEG file.
    ///   - limits: the largest accepted picture.
    /// - Returns: the luminance image.
    /// - Throws: ``ImageLoadError`` when the file cannot be read, is not a valid PNG/JPEG or is too large.
    public static func load(path: String, limits: ImageLimits = .barcode) throws(ImageLoadError) -> GrayscaleImage {
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
            return try self.decode(Array(data), limits: limits)
        } catch {
            throw ImageLoadError(error.code, "\(path): \(error.message)")
        }
    }

    /// Decodes PNG or JPEG bytes (detected by their signature) on the calling thread.
    /// - Parameters:
    ///   - bytes: the file contents.
    ///   - limits: the largest accepted picture, checked on the header before decoding.
    /// - Returns: the luminance image.
    /// - Throws: ``ImageLoadError`` for unknown, truncated, corrupt or too large data.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = .barcode) throws(ImageLoadError) -> GrayscaleImage {
        let header = try ImageHeader.read(bytes)
        try header.check(limits)
        // A PNG's chunks are walked up to IEND before libpng sees them: truncation is an error (libpng stops reading
        // once the pixels are complete), and no chunk declares more than the file holds.
        let isPNG = header.format == .png
        if isPNG { _ = try PNGChunks.walk(bytes) }
        var image = stockroom_gray_image()
        let maxSide = Int32(clamping: limits.maxSide), maxPixels = limits.maxPixels
        let status = bytes.withUnsafeBufferPointer { buf in
            isPNG
                ? stockroom_load_png(buf.baseAddress, buf.count, maxSide, maxPixels, &image)
                : stockroom_load_jpeg(buf.baseAddress, buf.count, maxSide, maxPixels, &image)
        }
        defer { stockroom_image_free(&image) }
        guard status == 0, let pixels = image.pixels, image.width > 0, image.height > 0 else {
            let message = withUnsafeBytes(of: image.message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw ImageLoadError(status == 2 ? .tooLarge : .corrupt, message.isEmpty ? "corrupt image data" : message)
        }
        let count = Int(image.width) * Int(image.height)
        let array = Array(UnsafeBufferPointer(start: pixels, count: count))
        guard let result = GrayscaleImage(width: Int(image.width), height: Int(image.height), pixels: array) else {
            throw ImageLoadError(.corrupt, "inconsistent image size")
        }
        return result
    }

    /// Decodes through a gate that bounds how many decodes run at once (``ImageDecodeGate/shared``), off Swift's
    /// concurrency pool. A file whose header is malformed or above `limits` is refused at once, without waiting.
    /// - Throws: ``ImageLoadError`` as ``decode(_:limits:)``.
    public static func decode(_ bytes: [UInt8], limits: ImageLimits = .barcode, gate: ImageDecodeGate) async throws(ImageLoadError) -> GrayscaleImage {
        try ImageHeader.read(bytes).check(limits)
        let result = await gate.run { () -> Result<GrayscaleImage, ImageLoadError> in
            do throws(ImageLoadError) {
                return .success(try self.decode(bytes, limits: limits))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
