import Foundation
import InventoryDomain
import NIOCore
import PostgresNIO

// Pictures' bytes in the `pictureFile` table (issue 13, point 4): whichever instance answers `GET /images/{name}` has
// them. Each call is one statement, committed on its own; see PictureFileRepository for why deletions spare pictures
// stored moments ago.

extension InventoryPostgresRepository: PictureFileRepository {
    public func storePictureFile(_ name: String, bytes: [UInt8]) async throws -> Bool {
        try Self.checkPictureName(name)
        let type = ProductPictures.contentType(ofName: name)
        return try await self.statement { connection in
            // `xmax = 0` holds for a row this statement inserted, not for one it updated.
            try await connection.query("""
                INSERT INTO pictureFile (name, contentType, data, storedAt) VALUES (\(name), \(type), \(ByteBuffer(bytes: bytes)), now())
                ON CONFLICT (name) DO UPDATE SET storedAt = now()
                RETURNING (xmax = 0)
                """, logger: self.logger).collect(Bool.self).first ?? false
        }
    }

    public func pictureFile(_ name: String) async throws -> [UInt8]? {
        guard ProductPictures.isValidName(name) else { return nil }
        return try await self.statement { connection in
            try await connection.query("SELECT data FROM pictureFile WHERE name = \(name)", logger: self.logger)
                .collect(ByteBuffer.self).first.map { Array($0.readableBytesView) }
        }
    }

    public func deleteUnusedPictureFiles() async throws {
        let grace = Self.pictureGraceMilliseconds
        try await self.statement { connection in
            // A picture stored within the grace period may still be in a change being committed somewhere, or was
            // released moments after being stored (a later sweep takes it).
            try await connection.execute("""
                DELETE FROM pictureFile f
                WHERE f.storedAt < now() - make_interval(secs => \(grace / 1_000))
                  AND NOT EXISTS (SELECT 1 FROM productPicture p WHERE p.name = f.name)
                """, logger: self.logger)
        }
    }

    public func deletePictureFiles(except keep: Set<String>) async throws {
        try await self.statement { connection in
            try await connection.execute("DELETE FROM pictureFile WHERE NOT (name = ANY(\(Array(keep).sorted())))", logger: self.logger)
        }
    }

    public func pictureFileNames() async throws -> [String] {
        try await self.statement { connection in
            try await connection.query("SELECT name FROM pictureFile ORDER BY name", logger: self.logger).collect(String.self)
        }
    }

    static func checkPictureName(_ name: String) throws {
        guard ProductPictures.isValidName(name) else {
            throw InventoryError(.invalidValue, field: "name", "'\(name.prefix(80))' is not a picture name this store gives")
        }
    }
}
