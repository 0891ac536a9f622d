import BarcodeImage
import BarcodeReader
import Crypto
import Foundation
import InventoryDomain
import Synchronization

/// Product pictures: JPEG or PNG recognised by content, at most 5 MB and 6000 × 6000 pixels, kept as files under
/// `<data>/images` (SQLite shops) or in the database (``PictureFileRepository``: PostgreSQL, where several servers share
/// them).
///
/// A picture is checked in this order, each step before any cost of the next: its size in bytes; its signature;
/// the width and height its header declares (so a small file claiming a huge picture is refused without decoding);
/// then it is cleaned (``ImageSanitizer``: text chunks, comments, unknown segments and trailing bytes dropped) and the
/// cleaned bytes are decoded, through the process-wide ``ImageDecodeGate``, to prove they are a picture. Only the
/// cleaned bytes are stored, under a name derived from their SHA-256.
public struct ImageStore: Sendable {
    /// The folder holding the pictures (for pictures kept in the database: the folder they would be in, unused).
    public let folder: String
    /// The database holding the pictures, nil when they are files in ``folder``.
    public let database: (any PictureFileRepository)?
    /// Largest accepted file.
    public static let maxBytes = 5 * 1024 * 1024
    /// Largest accepted side.
    public static let maxSide = 6000
    /// The size limits checked on the header before decoding.
    public static let limits = ImageLimits(maxSide: maxSide, maxPixels: maxSide * maxSide)
    /// Where decoding runs (two at a time in the process).
    let gate: ImageDecodeGate
    /// Serialises what adds and removes files together with the database changes that name them (see
    /// ``commit(_:field:_:)``); shared by every copy of this store.
    let files = AsyncExclusion()

    /// Creates a store in `<dataFolder>/images`.
    public init(dataFolder: String, gate: ImageDecodeGate = .shared) {
        self.folder = (dataFolder as NSString).appendingPathComponent("images")
        self.database = nil
        self.gate = gate
    }

    /// Creates a store keeping the pictures in `database`.
    public init(database: any PictureFileRepository, dataFolder: String, gate: ImageDecodeGate = .shared) {
        self.folder = (dataFolder as NSString).appendingPathComponent("images")
        self.database = database
        self.gate = gate
    }

    /// A checked and cleaned picture, not yet written.
    public struct Prepared: Sendable {
        /// The bytes to store (cleaned).
        public var bytes: [UInt8]
        /// The content-derived file name.
        public var name: String
        public var width: Int
        public var height: Int
    }

    /// A stored picture.
    public struct Saved: Sendable {
        public var name: String
        public var width: Int
        public var height: Int
        public var isSquare: Bool { self.width == self.height }
        /// Whether this save wrote the file (false when the same picture was already stored).
        public var created: Bool = false
    }

    /// The cheap checks, without decoding: size in bytes, format, and the size the header declares.
    /// - Throws: ``InventoryError`` naming `field`.
    public static func checkHeader(_ bytes: [UInt8], field: String) throws -> ImageHeader {
        guard bytes.count <= Self.maxBytes else {
            throw InventoryError(.invalidValue, field: field, "the picture is larger than 5 MB")
        }
        guard ImageHeader.format(of: bytes) != nil else {
            throw InventoryError(.invalidValue, field: field, "the file is not a JPEG or PNG picture")
        }
        do throws(ImageLoadError) {
            let header = try ImageHeader.read(bytes)
            try header.check(Self.limits)
            return header
        } catch {
            throw Self.refusal(error, field: field)
        }
    }

    static func refusal(_ error: ImageLoadError, field: String) -> InventoryError {
        error.code == .tooLarge
            ? InventoryError(.invalidValue, field: field, error.message)
            : InventoryError(.invalidValue, field: field, "the picture cannot be read: \(error.message)")
    }

    /// Checks, cleans and decodes a picture; writes nothing.
    /// - Throws: ``InventoryError`` naming `field` when it is too big, not a JPEG or PNG, unreadable or too large.
    public func prepare(_ bytes: [UInt8], field: String) async throws -> Prepared {
        let header = try Self.checkHeader(bytes, field: field)
        let cleaned: [UInt8]
        do throws(ImageLoadError) {
            cleaned = try ImageSanitizer.clean(bytes)
        } catch {
            throw Self.refusal(error, field: field)
        }
        let image: GrayscaleImage
        do throws(ImageLoadError) {
            image = try await ImageLoader.decode(cleaned, limits: Self.limits, gate: self.gate)
        } catch {
            throw Self.refusal(error, field: field)
        }
        let digest = SHA256.hash(data: Data(cleaned)).prefix(12).lowercaseHex
        return Prepared(bytes: cleaned, name: "\(digest).\(header.format.fileExtension)", width: image.width, height: image.height)
    }

    /// Writes a prepared picture (nothing when the same picture is already stored).
    /// - Throws: ``InventoryError`` (`storage`) naming `field` when the file cannot be written.
    public func write(_ prepared: Prepared, field: String) async throws -> Saved {
        var saved = Saved(name: prepared.name, width: prepared.width, height: prepared.height)
        if let database = self.database {
            saved.created = try await database.storePictureFile(prepared.name, bytes: prepared.bytes)
            return saved
        }
        let path = (self.folder as NSString).appendingPathComponent(prepared.name)
        guard !FileManager.default.fileExists(atPath: path) else { return saved }
        do {
            try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
            // A 0600 scratch file in the pictures folder, renamed into place (write(.atomic) made a 0644 scratch file).
            try PrivateFile.write(Data(prepared.bytes), to: path)
        } catch {
            throw InventoryError(.storage, field: field, "the picture could not be stored", cause: error)
        }
        saved.created = true
        return saved
    }

    /// Checks, cleans and stores a picture under a name derived from its cleaned content.
    /// - Throws: ``InventoryError`` naming `field` when it is too big, not a JPEG or PNG, unreadable or too large.
    public func save(_ bytes: [UInt8], field: String) async throws -> Saved {
        try await self.write(try await self.prepare(bytes, field: field), field: field)
    }

    /// Undoes a ``write(_:field:)`` whose request failed afterwards: removes the file if that write created it.
    public func discard(_ saved: Saved) async {
        guard saved.created else { return }
        // In the database, a picture no product shows goes with a later sweep (another server may be storing it too).
        guard self.database == nil else { return }
        try? FileManager.default.removeItem(atPath: (self.folder as NSString).appendingPathComponent(saved.name))
    }

    /// Writes `prepared` pictures and runs `change` (a database change naming them, which answers the pictures it left
    /// unused), then deletes the unused pictures' files: after the commit, and only those no product shows. If the
    /// change fails, the files this call created go again.
    ///
    /// Pictures are content-addressed, so another request may name the same file. These steps run one at a time in
    /// the process (as do ``exclusively(_:)``'s), so a file is never deleted between another change writing it and
    /// committing its name, nor between a backup's copy of the database and its copy of the files.
    /// - Throws: what `change` throws, or ``InventoryError`` (`storage`) naming `field` when a file cannot be written.
    public func commit<T: Sendable>(_ prepared: [Prepared], field: String,
                                    _ change: @Sendable () async throws -> (value: T, released: [String])) async throws -> T {
        try await self.files.run {
            var saved: [Saved] = []
            do {
                for picture in prepared { saved.append(try await self.write(picture, field: field)) }
                let (value, released) = try await change()
                await self.delete(released)
                return value
            } catch {
                for picture in saved { await self.discard(picture) }
                throw error
            }
        }
    }

    /// Runs `body` while no picture change runs (see ``commit(_:field:_:)``): for backups, restores and deletions.
    public func exclusively<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await self.files.run(body)
    }

    /// Deletes the files of pictures no product shows any more; names the store does not give are left alone.
    func delete(_ names: [String]) async {
        if let database = self.database {
            // Best effort, as for files: a picture left behind is swept by a later deletion.
            try? await database.deleteUnusedPictureFiles()
            return
        }
        for name in names where ProductPictures.isValidName(name) {
            try? FileManager.default.removeItem(atPath: (self.folder as NSString).appendingPathComponent(name))
        }
    }

    /// A stored picture's bytes and content type; nil when there is none by that name.
    public func load(_ name: String) async throws -> (data: Data, contentType: String)? {
        guard name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." }), !name.hasPrefix(".") else { return nil }
        if let database = self.database {
            return try await database.pictureFile(name).map { (Data($0), ProductPictures.contentType(ofName: name)) }
        }
        guard let data = FileManager.default.contents(atPath: (self.folder as NSString).appendingPathComponent(name)) else { return nil }
        return (data, ProductPictures.contentType(ofName: name))
    }
}

/// Mutual exclusion for async work: one body at a time, the others waiting in order (without blocking a thread).
final class AsyncExclusion: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await self.acquire()
        defer { self.release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = self.state.withLock { state in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    private func release() {
        let next = self.state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
