import Foundation
import GRDB
import InventoryDomain
@testable import InventoryStore
import Synchronization
import Testing

/// How a write on the shop's file becomes durable: the writer commits without flushing, a ``WALFlusher`` flushes the
/// log on a thread of its own before the callers are answered, and a ``WALCheckpointer`` copies the log into the file
/// off the writer's thread.
extension SQLiteSpecificTests {
    @Suite struct Durability {
        /// A flush the test holds and lets go, recording how many rows were committed when each flush began.
        final class HeldFlush: Sendable {
            let queue: DatabaseQueue
            let began = DispatchSemaphore(value: 0)
            let mayEnd = DispatchSemaphore(value: 0)
            let rowsAtStart = Mutex<[Int]>([])
            let failure = Mutex<(any Error)?>(nil)

            init(_ queue: DatabaseQueue) { self.queue = queue }

            func flush() throws {
                let rows = try self.queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
                self.rowsAtStart.withLock { $0.append(rows) }
                self.began.signal()
                self.mayEnd.wait()
                if let failure = self.failure.withLock({ $0 }) { throw failure }
            }
        }

        /// Who has been answered, in order.
        final class Answered: Sendable {
            let names = Mutex<[String]>([])
        }

        static func itemQueue() throws -> DatabaseQueue {
            let queue = try DatabaseQueue()
            try queue.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)") }
            return queue
        }

        /// A write is answered only after a flush that began after its commit, and the writer does not wait for that
        /// flush: the next write commits while it is under way. (Answering at the commit, as before the flusher, fails
        /// the first expectation; flushing on the writer's thread fails the second.)
        @Test func aWriteIsAnsweredAfterTheFlushThatFollowsItsCommitAndTheNextCommitsMeanwhile() async throws {
            let queue = try Self.itemQueue()
            let held = HeldFlush(queue)
            let coalescer = WriteCoalescer(queue, flusher: WALFlusher { try held.flush() })
            let answered = Answered()
            let first = Task {
                try await coalescer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('first')") }
                answered.names.withLock { $0.append("first") }
            }
            _ = await held.began.waitOffThePool(seconds: 600)
            #expect(held.rowsAtStart.withLock { $0 } == [1], "the flush began after the first write's commit")
            // The first write's flush is held: the second write still commits (the writer is free), yet neither is answered.
            let second = Task {
                try await coalescer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('second')") }
                answered.names.withLock { $0.append("second") }
            }
            var committed = 0
            for _ in 0..<6_000 where committed < 2 {
                committed = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
                if committed < 2 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(committed == 2, "the second write committed while the first one's flush was under way")
            #expect(answered.names.withLock { $0 }.isEmpty, "nobody is answered before a flush ends")
            held.mayEnd.signal()
            try await first.value
            // The second write needs a flush of its own, begun after its commit.
            _ = await held.began.waitOffThePool(seconds: 600)
            #expect(answered.names.withLock { $0 } == ["first"])
            held.mayEnd.signal()
            try await second.value
            #expect(answered.names.withLock { $0 } == ["first", "second"])
            #expect(held.rowsAtStart.withLock { $0 } == [1, 2])
        }

        /// A flush that fails is every waiting caller's error: none is told its write is kept. And it is final: no
        /// later flush may vouch for a log the disk failed to store, so every later write is refused before it runs
        /// (nothing written, no flush tried), with the same error. (Without the kept failure the second write
        /// commits, a flush is tried again and succeeds, and the write is acknowledged.)
        @Test func aFailedFlushIsTheErrorOfEveryWriteItWasToMakeDurableAndOfEveryLaterWrite() async throws {
            struct DiskFailed: Error {}
            let queue = try Self.itemQueue()
            let held = HeldFlush(queue)
            held.failure.withLock { $0 = DiskFailed() }
            let flusher = WALFlusher { try held.flush() }
            let coalescer = WriteCoalescer(queue, flusher: flusher)
            #expect(flusher.failure == nil)
            let write = Task { try await coalescer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('lost?')") } }
            _ = await held.began.waitOffThePool(seconds: 600)
            held.mayEnd.signal()
            let error = try await #require(throws: InventoryError.self) { try await write.value }
            #expect(error.code == .storage && error.field == "database")
            #expect(error.userMessage.contains("restart Stockroom"))
            #expect(error.cause is DiskFailed)
            #expect(flusher.failure == error)

            held.failure.withLock { $0 = nil }  // the disk "works" again: it must not matter
            await #expect(throws: InventoryError(.storage, field: "database", "")) {
                try await coalescer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('refused')") }
            }
            #expect(try await queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM item") } == ["lost?"])
            #expect(held.rowsAtStart.withLock { $0 } == [1], "no flush after the failed one")
        }

        /// A flush on the caller's thread (a migration's, a restore's) that fails is final too: it is kept, the next
        /// group-committed write is refused before it runs, and the next such flush throws without flushing. And after
        /// a failed group flush, such a flush does not vouch for the log either. (Without the kept failure the write
        /// commits and a second flush is tried.)
        @Test func aFailedFlushOnTheCallersThreadIsFinalToo() async throws {
            struct DiskFailed: Error {}
            let queue = try Self.itemQueue()
            let flushes = Mutex(0)
            let failing = Mutex(true)
            let flusher = WALFlusher {
                flushes.withLock { $0 += 1 }
                if failing.withLock({ $0 }) { throw DiskFailed() }
            }
            let coalescer = WriteCoalescer(queue, flusher: flusher)
            let error = try #require(throws: InventoryError.self) { try flusher.flushNow() }
            #expect(error.code == .storage && error.field == "database" && error.cause is DiskFailed)
            #expect(flusher.failure == error)
            failing.withLock { $0 = false }  // the disk "works" again: it must not matter
            await #expect(throws: InventoryError(.storage, field: "database", "")) {
                try await coalescer.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('refused')") }
            }
            #expect(throws: InventoryError(.storage, field: "database", "")) { try flusher.flushNow() }
            #expect(flushes.withLock { $0 } == 1, "no flush after the failed one")
            #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") } == 0)
        }

        /// On the shop's own file: a log the flusher cannot flush (here its path taken by a socket, which cannot be
        /// opened) fails the write waiting for it, refuses every later one with nothing written, and the health
        /// check says the database is not usable (a restore is refused too); reopened, the shop has its acknowledged
        /// writes.
        @Test func aShopWhoseLogCannotBeFlushedRefusesWritesAndSaysSo() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flushfail-\(UUID().uuidString.prefix(8))").path  // short: a socket path has 107 bytes at most
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // A backup of another shop, to try a restore with once writes are refused.
            let backup = "\(folder)-other.sqlite"
            defer { try? FileManager.default.removeItem(atPath: backup) }
            try InventorySQLiteRepository.open(dataFolder: folder + "-other").backup(to: backup)
            defer { try? FileManager.default.removeItem(atPath: folder + "-other") }
            let kept: Product
            do {
                let store = try InventorySQLiteRepository.open(dataFolder: folder)
                kept = try await store.createProduct(ProductDetails(name: "Kept"))
                #expect(await store.databaseReachable())
                let log = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix("-wal") })
                // SQLite keeps writing to the log it has open; the flusher finds another file at its path.
                try FileManager.default.moveItem(atPath: "\(folder)/\(log)", toPath: "\(folder)/\(log).aside")
                let socket = try Self.bindSocket(at: "\(folder)/\(log)")
                defer { close(socket) }
                await #expect(throws: InventoryError(.storage, field: "database", "")) {
                    try await store.createProduct(ProductDetails(name: "Not acknowledged"))
                }
                await #expect(throws: InventoryError(.storage, field: "database", "")) {
                    try await store.createProduct(ProductDetails(name: "Refused"))
                }
                #expect(throws: InventoryError(.storage, field: "database", "")) { try store.restore(from: backup) }
                #expect(await store.databaseReachable() == false)
                unlink("\(folder)/\(log)")
                try FileManager.default.moveItem(atPath: "\(folder)/\(log).aside", toPath: "\(folder)/\(log)")
                #expect(await store.databaseReachable() == false, "only a restart clears the failure")
                // Read once the log is back at its path (a reader connection opened while the socket was there
                // could not open the log). The write whose flush failed had committed; the refused one and the
                // restore (of a shop without products) wrote nothing.
                let names = try await store.products(ProductQuery()).products.map(\.name)
                #expect(Set(names) == ["Kept", "Not acknowledged"], "nothing written after the failure")
            }
            let reopened = try InventorySQLiteRepository.open(dataFolder: folder)
            #expect(try await reopened.product(kept.id).name == "Kept")
            #expect(await reopened.databaseReachable())
        }

        /// A bound Unix socket at `path` (a file that exists and cannot be opened).
        static func bindSocket(at path: String) throws -> Int32 {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(descriptor >= 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
            return descriptor
        }

        /// The shop's file: the writer commits with `synchronous=NORMAL` and no automatic checkpoint (the flusher and
        /// the checkpointer do that work), a write survives reopening, and a flush of the real log succeeds.
        @Test func theShopsWriterLeavesFlushesAndCheckpointsToThreadsOfTheirOwn() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-durable-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = try InventorySQLiteRepository.open(dataFolder: folder)
            #expect(try await store.pragma("synchronous", onTheWriter: true) == "1")
            #expect(try await store.pragma("wal_autocheckpoint", onTheWriter: true) == "0")
            #expect(try await store.pragma("synchronous") == "2")
            #expect(store.coalescer.flusher != nil && store.coalescer.checkpointer != nil)
            let kept = try await store.createProduct(ProductDetails(name: "Kept"))
            try store.coalescer.flusher?.flushNow()
            let reopened = try InventorySQLiteRepository.open(dataFolder: folder)
            #expect(try await reopened.product(kept.id).name == "Kept")
            // In memory there is nothing to flush.
            let memory = try InventorySQLiteRepository.inMemory()
            #expect(memory.coalescer.flusher == nil && memory.coalescer.checkpointer == nil)
        }

        /// Writes that go on start checkpoints on their own, and a checkpoint copies the log to its end, so the log
        /// starts again from the beginning instead of growing with every write.
        @Test func commitsCheckpointTheLogOffTheWritersThreadAndTheLogStartsAgain() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-checkpoint-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = try InventorySQLiteRepository.open(dataFolder: folder)
            let checkpointer = try #require(store.coalescer.checkpointer)
            let started = try Self.logStarts(folder)
            for index in 0..<40 {
                _ = try await store.createProduct(ProductDetails(name: "Product \(index)"))
                if index % 10 == 9 { try await Task.sleep(for: .milliseconds(150)) }
            }
            var runs = checkpointer.runs
            for _ in 0..<600 where runs == 0 {
                try await Task.sleep(for: .milliseconds(10))
                runs = checkpointer.runs
            }
            #expect(runs > 0, "no checkpoint ran after 40 writes over more than \(WALCheckpointer.interval)")
            let copied = try checkpointer.checkpoint()
            #expect(copied.logPages > 0 && copied.copiedPages == copied.logPages)
            // The next write starts the log again from its beginning.
            _ = try await store.createProduct(ProductDetails(name: "After"))
            #expect(try Self.logStarts(folder) > started)
        }

        /// How many times the shop's log has started again from its beginning: the checkpoint sequence number of its
        /// header (bytes 12–15, big-endian), which SQLite counts up each time.
        static func logStarts(_ folder: String) throws -> UInt32 {
            let file = try #require(FileHandle(forReadingAtPath: folder + "/stockroom.sqlite-wal"))
            defer { try? file.close() }
            let header = try #require(try file.read(upToCount: 16))
            try #require(header.count == 16)
            return header.dropFirst(12).reduce(0) { $0 << 8 | UInt32($1) }
        }

        /// Past ``WALCheckpointer/restartPages`` a checkpoint finishes the copy holding the writer back, and the log
        /// starts again; the books are whole afterwards.
        @Test func aLogPastItsLimitIsCopiedWholeAndStartedAgain() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-restart-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = try InventorySQLiteRepository.open(dataFolder: folder)
            for index in 0..<20 { _ = try await store.createProduct(ProductDetails(name: "Product \(index)")) }
            let started = try Self.logStarts(folder)
            let checkpointer = WALCheckpointer(databasePath: folder + "/stockroom.sqlite", restartPages: 1)
            // The shop's own checkpointer may be copying the log at that moment: SQLite lets one checkpoint run at a
            // time and tells the other it is busy at once.
            var attempt = 0
            var result: (logPages: Int, copiedPages: Int)?
            while result == nil {
                do {
                    result = try checkpointer.checkpoint()
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 100 {
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let copied = try #require(result)
            #expect(copied.copiedPages == copied.logPages)
            _ = try await store.createProduct(ProductDetails(name: "After"))
            #expect(try Self.logStarts(folder) > started)
            #expect(try await store.products(ProductQuery()).total == 21)
        }

        /// The log file is flushed through a descriptor of its own, opened again when the file at its path is replaced;
        /// a log that does not exist holds nothing to flush.
        @Test func theLogFileIsFlushedThroughItsOwnDescriptorAndOpenedAgainWhenReplaced() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-walfile-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let log = WriteAheadLogFile(path: folder + "/x.sqlite-wal")
            try log.flush()
            #expect(FileManager.default.createFile(atPath: log.path, contents: Data("one".utf8)))
            try log.flush()
            let first = log.openInode
            try FileManager.default.removeItem(atPath: log.path)
            #expect(FileManager.default.createFile(atPath: log.path, contents: Data("two".utf8)))
            try log.flush()
            #expect(log.openInode != nil && log.openInode != first)
            try FileManager.default.removeItem(atPath: log.path)
            try log.flush()
        }
    }
}
