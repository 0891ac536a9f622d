import BarcodeImage
import BarcodeReader
import Crypto
import Foundation
import InventoryDomain

/// Product pictures under `<data>/images`: JPEG or PNG recognised by content, at most 5 MB and 6000 × 6000.
public struct ImageStore: Sendable {
    /// The folder holding the pictures.
    public let folder: String
    /// Largest accepted file.
    public static let maxBytes = 5 * 1024 * 1024
    /// Largest accepted side.
    public static let maxSide = 6000

    /// Creates a store in `<dataFolder>/images`.
    public init(dataFolder: String) {
        self.folder = (dataFolder as NSString).appendingPathComponent("images")
    }

    /// A stored picture.
    public struct Saved: Sendable {
        public var name: String
        public var width: Int
        public var height: Int
        public var isSquare: Bool { self.width == self.height }
    }

    /// The kind of picture the bytes hold, by their signature; nil for anything else.
    static func kind(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        return nil
    }

    /// Checks and stores a picture under a name derived from its content.
    /// - Throws: ``InventoryError`` naming `field` when it is too big, not a JPEG or PNG, unreadable or too large.
    public func save(_ bytes: [UInt8], field: String) throws -> Saved {
        guard bytes.count <= Self.maxBytes else {
            throw InventoryError(.invalidValue, field: field, "the picture is larger than 5 MB")
        }
        guard let kind = Self.kind(of: bytes) else {
            throw InventoryError(.invalidValue, field: field, "the file is not a JPEG or PNG picture")
        }
        let image: GrayscaleImage
        switch Self.decode(bytes) {
        case .success(let decoded): image = decoded
        case .failure(let error): throw InventoryError(.invalidValue, field: field, "the picture cannot be read: \(error.description)")
        }
        guard image.width <= Self.maxSide, image.height <= Self.maxSide else {
            throw InventoryError(.invalidValue, field: field, "the picture is larger than \(Self.maxSide) × \(Self.maxSide) pixels")
        }
        let digest = SHA256.hash(data: Data(bytes)).prefix(12).map { String(format: "%02x", $0) }.joined()
        let name = "\(digest).\(kind)"
        do {
            try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: (self.folder as NSString).appendingPathComponent(name)), options: .atomic)
        } catch {
            throw InventoryError(.storage, field: field, "the picture could not be stored", cause: error)
        }
        return Saved(name: name, width: image.width, height: image.height)
    }

    static func decode(_ bytes: [UInt8]) -> Result<GrayscaleImage, ImageLoadError> {
        do throws(ImageLoadError) {
            return .success(try ImageLoader.decode(bytes))
        } catch {
            return .failure(error)
        }
    }

    /// A stored picture's bytes and content type; nil when there is none by that name.
    public func load(_ name: String) -> (data: Data, contentType: String)? {
        guard name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." }), !name.hasPrefix(".") else { return nil }
        guard let data = FileManager.default.contents(atPath: (self.folder as NSString).appendingPathComponent(name)) else { return nil }
        return (data, name.hasSuffix(".png") ? "image/png" : "image/jpeg")
    }
}
