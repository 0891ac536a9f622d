import Foundation
import GRDB
import InventoryDomain
import InventoryStore
import Testing

extension SQLiteSpecificTests {
    /// Restoring an SQLite backup treats the file as hostile: each forged file below is refused with a reason naming
    /// `file`, and the live shop is byte-for-byte what it was. (That a genuine backup restores, on every backend, is
    /// ``BackupConformance``.)
    @Suite struct Restore {
        /// A live shop on disk (``Fixtures/liveShop(_:)``) and its folder.
        static func liveShop() async throws -> (InventorySQLiteRepository, String) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-restore-\(UUID().uuidString)").path
            let store = try InventorySQLiteRepository.open(dataFolder: folder)
            try await Fixtures.liveShop(store)
            return (store, folder)
        }

        /// A backup of `store`, changed by `sql` run with foreign keys off.
        static func forgedBackup(of store: InventorySQLiteRepository, _ sql: String) throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("forged-\(UUID().uuidString).sqlite").path
            try store.backup(to: path)
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                try db.execute(sql: sql)
            }
            try queue.close()
            return path
        }

        static func expectRefused(_ store: InventorySQLiteRepository, _ path: String, mentioning words: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let before = try await store.testOnly_dump()
            do {
                try store.restore(from: path)
                Issue.record("the forged backup was restored", sourceLocation: sourceLocation)
            } catch let error as InventoryError {
                #expect(error.field == "file", "\(error)", sourceLocation: sourceLocation)
                #expect(error.code == .invalidValue, "\(error)", sourceLocation: sourceLocation)
                #expect(error.userMessage.contains(words), "\(error.userMessage)", sourceLocation: sourceLocation)
            }
            #expect(try await store.testOnly_dump() == before, "the live shop changed after a refused restore", sourceLocation: sourceLocation)
            #expect(try await store.settings().lockMinutes == 5, sourceLocation: sourceLocation)
        }

        @Test func aTriggerOrViewIsRefused() async throws {
            let (store, _) = try await Self.liveShop()
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, """
                CREATE TRIGGER promote AFTER INSERT ON session BEGIN UPDATE user SET role = 'admin'; END;
                """), mentioning: "trigger 'promote'")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "CREATE VIEW everything AS SELECT * FROM user"),
                                         mentioning: "view 'everything'")
        }

        @Test func aReplacedOrAlteredTableIsRefused() async throws {
            let (store, _) = try await Self.liveShop()
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, """
                DROP TABLE product; CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT);
                """), mentioning: "product")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "ALTER TABLE user ADD COLUMN extra TEXT"),
                                         mentioning: "table 'user' differs")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "DROP INDEX movement_document"),
                                         mentioning: "index 'movement_document' is missing")
        }

        @Test func aForeignFileWithForgedMigrationsIsRefused() async throws {
            let (store, _) = try await Self.liveShop()
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("foreign-\(UUID().uuidString).sqlite").path
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1-catalogue'), ('v1-books'), ('v1-reports'), ('v1-staff');
                    CREATE TABLE notes (body TEXT);
                    """)
            }
            try queue.close()
            try await Self.expectRefused(store, path, mentioning: "not a Stockroom backup")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "INSERT INTO grdb_migrations VALUES ('v9-future')"),
                                         mentioning: "this version can read")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "DROP TABLE grdb_migrations"), mentioning: "no migrations table")
            let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(UUID().uuidString)").path
            FileManager.default.createFile(atPath: junk, contents: Data(repeating: 0x41, count: 8192))
            try await Self.expectRefused(store, junk, mentioning: "not an SQLite database")
        }

        @Test func outOfRangeSettingsAndValuesAreRefused() async throws {
            let (store, _) = try await Self.liveShop()
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, """
                INSERT INTO setting (key, value) VALUES ('lockMinutes', '999999999999999') ON CONFLICT(key) DO UPDATE SET value = excluded.value
                """), mentioning: "lockMinutes")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, """
                INSERT INTO setting (key, value) VALUES ('defaultTaxRate', 'lots') ON CONFLICT(key) DO UPDATE SET value = excluded.value
                """), mentioning: "defaultTaxRate")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE product SET salePrice = 'free'"), mentioning: "wrong kind")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE product SET salePrice = -5"), mentioning: "salePrice")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE user SET role = 'owner'"), mentioning: "role")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE user SET isActive = 0"), mentioning: "no active admin")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE category SET color = 'red'"), mentioning: "color")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE document SET kind = 'gift'"), mentioning: "kind")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE movement SET quantityAfter = -9223372036854775808"),
                                         mentioning: "quantityAfter")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE product SET quantity = quantity + 1000"),
                                         mentioning: "stock history")
            try await Self.expectRefused(store, try Self.forgedBackup(of: store, "UPDATE product SET categoryId = 999"),
                                         mentioning: "broken reference")
        }

        @Test func theRestoreLimitGrowsWithTheDatabase() async throws {
            let (store, folder) = try await Self.liveShop()
            #expect(store.databaseBytes() > 0)
            #expect(store.restoreLimitBytes() == store.databaseBytes() * 4 + (1 << 30))
            #expect(store.scratchFolder == folder)
            let memory = try InventorySQLiteRepository.inMemory()
            #expect(memory.databaseBytes() == 0)
            #expect(memory.restoreLimitBytes() == 1 << 30)
        }

        @Test func aDamagedSettingStopsTheShopFromOpeningWithAClearMessage() async throws {
            let (store, folder) = try await Self.liveShop()
            _ = store
            let path = (folder as NSString).appendingPathComponent("stockroom.sqlite")
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('lockMinutes', '999999999999999') ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            }
            try queue.close()
            do {
                _ = try InventorySQLiteRepository.open(dataFolder: folder)
                Issue.record("a shop with lockMinutes = 999999999999999 opened")
            } catch let error as InventoryError {
                #expect(error.field == "lockMinutes")
                #expect(error.userMessage.contains("from 1 to 1440"), "\(error.userMessage)")
                #expect(error.userMessage.contains("DELETE FROM setting WHERE key = 'lockMinutes'"), "\(error.userMessage)")
            }
        }

        @Test func theDatabaseFilesAreReadableByTheOwnerOnly() async throws {
            let (store, folder) = try await Self.liveShop()
            _ = try await store.createCategory(Category(id: CategoryID(0), name: "Cakes"))
            for name in ["stockroom.sqlite", "stockroom.sqlite-wal"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: (folder as NSString).appendingPathComponent(name))
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: folder)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
            #expect(try await store.categories().count == 2)
        }
    }
}
