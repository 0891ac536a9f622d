import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Synchronization
import Testing

/// The daily backup into `<data>/backups`: taken once a shop day from the policy's hour, checked as a restore would
/// check it, pruned by the retention rule; listed, downloaded and restored through the API. The clock is faked, so
/// weeks of backups run in a second.
@Suite struct AutomaticBackupTests {
    /// A clock the test moves.
    final class FakeClock: Sendable {
        let now: Mutex<Instant>
        init(_ start: Instant) { self.now = Mutex(start) }
        func set(_ instant: Instant) { self.now.withLock { $0 = instant } }
        var read: @Sendable () -> Instant { { self.now.withLock { $0 } } }
    }

    struct Shop {
        let store: InventorySQLiteRepository
        let folder: BackupFolder<InventorySQLiteRepository>
        let router: Router<AppRequestContext>
        let data: String
        let clock: FakeClock
        let calendar: ShopCalendar
    }

    static func makeShop(policy: BackupPolicy = .standard, start: Instant) async throws -> Shop {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-autobackup-\(UUID().uuidString)").path
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        var settings = try await store.settings()
        settings.timeZoneIdentifier = "Europe/Berlin"
        try await store.saveSettings(settings)
        let clock = FakeClock(start)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, secrets: testSecrets, dataFolder: data)
        configuration.backupPolicy = policy
        configuration.backupClock = clock.read
        configuration.automaticBackups = true
        let folder = backupFolder(store, configuration)
        let router = buildRoutes(repository: store, configuration: configuration, backups: folder).router
        return Shop(store: store, folder: folder, router: router, data: data, clock: clock, calendar: settings.calendar)
    }

    /// Five weeks of a shop's days, faked: a sale at 10:00 every day, the server's check at 00:30 and again at 12:00
    /// (which must take nothing). After each backup the folder holds exactly what the policy keeps, every kept backup
    /// passed its check, and no scratch file is left. Then one of them, three days old, is restored through the API and
    /// the shop's stock is what it was when that backup was taken.
    @Test func fiveWeeksOfDailyBackupsThenRestoreOne() async throws {
        let berlin = try ShopCalendar(identifier: "Europe/Berlin")
        let firstDay = 20261019  // a Monday
        let shop = try await Self.makeShop(start: berlin.instant(day: firstDay, hour: 0))
        let admin = try await token(shop.store, role: .admin, username: "owner")
        #expect(await shop.folder.takeIfDue() != nil, "the first check takes the day's backup")
        let product = try await shop.store.createProduct(ProductDetails(name: "Beans", salePrice: Money(minorUnits: 900)))
        _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: berlin.instant(day: firstDay, hour: 9), lines: [
            .init(productID: product.id, quantity: Quantity(500), unitCost: Money(minorUnits: 400)),
        ]))
        // A picture, so the backups carry one.
        try await Application(router: shop.router).test(.router) { client in
            let uploaded = try await client.call(.put, "/api/v1/products/\(product.id.rawValue)/image", nil, raw: try HostilePictures.png(), token: admin)
            #expect(uploaded.status == 200, "\(uploaded.text)")
        }
        var stockWhenTaken: [String: Quantity] = [:]
        var day = firstDay
        for index in 0..<35 {
            // 10:00: a sale of index+1 units.
            shop.clock.set(berlin.instant(day: day, hour: 10))
            #expect(await shop.folder.takeIfDue() == nil, "day \(day): not again the same day")
            _ = try await shop.store.postSale(SaleDraft(effectiveAt: berlin.instant(day: day, hour: 10), lines: [
                .init(productID: product.id, quantity: Quantity(Int64(index % 3 + 1)), unitPrice: Money(minorUnits: 900)),
            ]))
            // 00:30 the next day: the check takes that day's backup.
            day = berlin.nextDay(day)
            shop.clock.set(berlin.instant(day: day, hour: 0).adding(seconds: 1800))
            let record = try #require(await shop.folder.takeIfDue(), "day \(day)")
            #expect(record.passed, "\(record.detail)")
            #expect(record.automatic)
            #expect(record.pictures == 1 && record.products == 1)
            stockWhenTaken[record.name] = try await shop.store.product(product.id).stock.quantity
            let listed = try await shop.folder.list()
            let expected = BackupPolicy.standard.kept(listed.map { BackupPolicy.Taken(name: $0.record.name, at: $0.record.instant, good: $0.record.passed) },
                                                      calendar: berlin)
            #expect(listed.allSatisfy { !$0.kept.isEmpty }, "day \(day): the folder holds only what the rule keeps")
            #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0.record.name, $0.kept) }) == expected)
            #expect(listed.allSatisfy { $0.record.passed })
            let files = try FileManager.default.contentsOfDirectory(atPath: shop.folder.path).sorted()
            #expect(files == listed.flatMap { [$0.record.name, ($0.record.name as NSString).deletingPathExtension + ".json"] }.sorted(),
                    "day \(day): nothing but the kept backups and their records")
        }
        // After five weeks: 7 daily (17–23 November) and the newest of each of the 4 weeks that began on 2, 9, 16 and 23
        // November — the 8th, the 15th, the 22nd and the 23rd, the last two kept as daily already: 7 + 2.
        let listed = try await shop.folder.list()
        let days = listed.map { berlin.dayNumber($0.record.instant) }
        #expect(days == [20261123, 20261122, 20261121, 20261120, 20261119, 20261118, 20261117, 20261115, 20261108])
        #expect(listed.first?.kept == [.daily, .weekly])

        // Restore the backup taken three days ago (on the 20th at 00:30) through the API.
        let chosen = try #require(listed.first { berlin.dayNumber($0.record.instant) == 20261120 }).record
        let stockBefore = try await shop.store.product(product.id).stock.quantity
        let wanted = try #require(stockWhenTaken[chosen.name])
        #expect(wanted != stockBefore)
        try await Application(router: shop.router).test(.router) { client in
            let list = try await client.call(.get, "/api/v1/backups", token: admin)
            #expect(list.status == 200)
            let entries = list.object["backups"] as? [[String: Any]] ?? []
            #expect(entries.count == 9)
            #expect(entries.first?["check"] as? String == "passed")
            #expect(entries.first?["kept"] as? [String] == ["daily", "weekly"])
            #expect((entries.first?["bytes"] as? Int ?? 0) > 1000)
            #expect(list.object["nextDueAt"] as? String == berlin.instant(day: 20261124, hour: 0).iso8601)
            let download = try await client.call(.get, "/api/v1/backups/\(chosen.name)", token: admin)
            #expect(download.status == 200)
            #expect(download.contentType == "application/zip")
            let restored = try await client.call(.post, "/api/v1/backups/\(chosen.name)/restore", token: admin)
            #expect(restored.status == 200, "\(restored.text)")
            #expect(restored.object["restored"] as? Bool == true)
            #expect(restored.object["pictures"] as? Int == 1)
        }
        #expect(try await shop.store.product(product.id).stock.quantity == wanted)
        #expect(try await shop.folder.list().count == 9, "restoring takes nothing from the folder")
    }

    /// A backup the check refuses is recorded as failed, kept to be looked at, never counts as the day's backup, and
    /// goes once a good one exists. A shop with no account yet takes no automatic backup (it could not be restored).
    @Test func aRefusedBackupIsRecordedAndKeptUntilAGoodOne() async throws {
        let berlin = try ShopCalendar(identifier: "Europe/Berlin")
        let shop = try await Self.makeShop(start: berlin.instant(day: 20261126, hour: 8))
        #expect(await shop.folder.takeIfDue() == nil, "no account yet: no automatic backup")
        let failed = try await shop.folder.take(automatic: false)
        #expect(!failed.passed)
        #expect(failed.detail.contains("no active admin"), "\(failed.detail)")
        #expect(failed.bytes > 0 && failed.sha256.count == 64)
        // The managers hear of it once (an alert in the activity log), not again for the next failure.
        let again = try await shop.folder.take(automatic: false)
        #expect(!again.passed)
        let reported = try await shop.store.activityFeed(ActivityFeedQuery(groups: [.alerts])).filter { $0.action == "backupFailed" }
        #expect(reported.count == 1 && reported.first?.username == "system", "\(reported)")
        #expect(reported.first?.detail.contains("no active admin") == true, "\(reported)")
        var listed = try await shop.folder.list()
        #expect(listed.map(\.record.name) == [again.name] && listed.map(\.kept) == [[.newestFailure]], "only the newest failure stays")
        let admin = try await token(shop.store, role: .admin, username: "owner")
        // The next try waits an hour after the last failure, then takes the day's backup.
        shop.clock.set(berlin.instant(day: 20261126, hour: 8).adding(seconds: 60))
        #expect(await shop.folder.takeIfDue() == nil, "a minute after a failure: not yet")
        #expect(try await shop.folder.nextDue() == again.instant.adding(milliseconds: BackupPolicy.retryAfterFailure))
        shop.clock.set(berlin.instant(day: 20261126, hour: 9).adding(seconds: 1))
        let good = try #require(await shop.folder.takeIfDue(), "a failed backup is not the day's backup")
        #expect(good.passed, "\(good.detail)")
        listed = try await shop.folder.list()
        #expect(listed.map(\.record.name) == [good.name])
        #expect(!FileManager.default.fileExists(atPath: (shop.folder.path as NSString).appendingPathComponent(failed.name)))

        // "Back up now" through the API: a second backup the same second gets a name of its own.
        try await Application(router: shop.router).test(.router) { client in
            let taken = try await client.call(.post, "/api/v1/backups", token: admin)
            #expect(taken.status == 201, "\(taken.text)")
            #expect(taken.object["check"] as? String == "passed")
            #expect(taken.object["automatic"] as? Bool == false)
            #expect((taken.object["name"] as? String)?.hasSuffix("-2.zip") == true)
            #expect(taken.object["kept"] as? [String] == ["daily", "weekly"])
        }
    }

    /// Only names the folder gives are served; anything else is 404 naming `name`, and staff and managers get 403.
    @Test func onlyItsOwnNamesAreServedAndOnlyToAdmins() async throws {
        let shop = try await Self.makeShop(start: .now)
        let admin = try await token(shop.store, role: .admin)
        let manager = try await token(shop.store, role: .manager)
        let record = try await shop.folder.take(automatic: false)
        #expect(record.passed, "\(record.detail)")
        // A file with a backup's shape of name but not taken by the folder, and the database itself beside it.
        try Data("not a backup".utf8).write(to: URL(fileURLWithPath: shop.data + "/stockroom-20200101-000000.json"))
        try await Application(router: shop.router).test(.router) { client in
            for name in ["stockroom.sqlite", "..", "stockroom-20200101-000000.zip", (record.name as NSString).deletingPathExtension + ".json",
                         "stockroom-2026112-000000.zip", record.name + ".zip", "x" + record.name] {
                let reply = try await client.call(.get, "/api/v1/backups/\(name)", token: admin)
                #expect([400, 404].contains(reply.status), "\(name): \(reply.status)")
                let restore = try await client.call(.post, "/api/v1/backups/\(name)/restore", token: admin)
                #expect([400, 404].contains(restore.status), "\(name): \(restore.status)")
            }
            let missing = try await client.call(.get, "/api/v1/backups/stockroom-20200101-000000.zip", token: admin)
            #expect(missing.object["field"] as? String == "name")
            for uri in ["/api/v1/backups", "/api/v1/backups/\(record.name)"] {
                let refused = try await client.call(.get, uri, token: manager)
                #expect(refused.status == 403, "\(uri)")
            }
            let refused = try await client.call(.post, "/api/v1/backups", token: manager)
            #expect(refused.status == 403)
            let list = try await client.call(.get, "/api/v1/backups", token: admin)
            #expect(list.object["automatic"] as? Bool == true)
        }
        #expect(try await shop.folder.list().count == 1)
    }

    @Test func backupNames() {
        for good in ["stockroom-20261126-031500.zip", "stockroom-20261126-031500-2.zip", "stockroom-20261126-031500-123.zip"] {
            #expect(BackupFolder<InventorySQLiteRepository>.isBackupName(good), "\(good)")
        }
        for bad in ["stockroom-20261126-031500.json", "stockroom-20261126-03150.zip", "stockroom-2026112a-031500.zip", "../stockroom-20261126-031500.zip",
                    "stockroom-20261126-031500-.zip", "stockroom-20261126-031500-12345.zip", "stockroom-20261126_031500.zip", "", "stockroom.sqlite",
                    "stockroom-20261126-031500-2/.zip"] {
            #expect(!BackupFolder<InventorySQLiteRepository>.isBackupName(bad), "\(bad)")
        }
    }
}
