/// An 8-bit grayscale image: `width × height` luminance bytes, row by row.
public struct GrayscaleImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Luminance, one byte per pixel, `width * height` bytes.
    public let pixels: [UInt8]

    /// Creates an image; returns nil when the byte count does not match the size.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
