import Foundation
import InventoryDomain
@testable import InventoryPostgres
import PostgresNIO
import Testing

/// Live events across instances (issue 13): an activity committed on one `stockroom serve` instance reaches the feed of
/// every other instance on the same database and schema over `LISTEN/NOTIFY`, once, rebuilt as it was recorded; a
/// refusal or a dry run sends nothing; another schema hears nothing; the listener comes back after its connection
/// drops. Two repositories opened on one schema stand for two instances.
@Suite(.enabled(if: Backend.ported.contains(.postgres), "needs STOCKROOM_TEST_POSTGRES"))
struct PostgresLiveEventsTests {
    typealias Heard = ActivityConformance.Heard

    /// A repository and what its feed heard since it was first observed.
    struct Instance {
        let store: InventoryPostgresRepository
        let heard: Heard
        let observation: ActivityFeed.Observation
    }

    /// Opens a repository on `location`, observes its feed and waits until it listens.
    static func instance(_ location: PostgresLocation) async throws -> Instance {
        let store = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        let heard = Heard()
        let observation = store.activityFeed.observe({ heard.add($0) }, missed: { heard.miss() })
        try await Self.eventually("the instance listens") { store.liveEventsConnected }
        return Instance(store: store, heard: heard, observation: observation)
    }

    /// Polls `condition` every 20 ms until it holds; fails the test after `seconds`.
    static func eventually(_ what: String, within seconds: Int = 10, sourceLocation: SourceLocation = #_sourceLocation,
                           _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        if try await condition() { return }  // once more after the deadline, for a thread that was late to run
        Issue.record("waited \(seconds) s in vain until \(what)", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    /// A write whose activity marks a point in the stream: once another instance hears it, it has heard everything
    /// committed before it (notifications arrive in commit order).
    static func marker(_ store: InventoryPostgresRepository, _ name: String) async throws -> ShopActivity.Record {
        let category = try await store.createCategory(Category(id: CategoryID(0), name: name, color: "#111111"))
        return ShopActivity.Record(.category, category.id.rawValue)
    }

    static func hears(_ instance: Instance, _ record: ShopActivity.Record) -> Bool {
        instance.heard.all.contains { $0.record == record }
    }

    /// Runs a statement on the database as the test (not as an instance), answering its single column.
    static func sql(_ store: InventoryPostgresRepository, _ query: PostgresQuery) async throws -> [Int64] {
        try await store.client.withConnection { connection in
            try await connection.query(query, logger: store.logger).collect(Int64.self)
        }
    }

    /// The backends listening for `location`'s schema (the listener's application name names it).
    static func listeners(_ store: InventoryPostgresRepository, _ location: PostgresLocation) async throws -> [Int64] {
        let name = PostgresLiveEvents.applicationName(schema: location.schema)
        return try await Self.sql(store, "SELECT pid::bigint FROM pg_stat_activity WHERE application_name = \(name) ORDER BY pid")
    }

    // MARK: - Across instances

    @Test func aSaleOnOneInstanceReachesTheOtherOnceAsRecordedAndItsOwnFeedOnce() async throws {
        let location = try Backend.postgresLocation()
        let a = try await Self.instance(location)
        let b = try await Self.instance(location)
        let customer = try await a.store.createCustomer(Contact(id: CustomerID(0), name: "Bob"))
        let tea = try await a.store.createProduct(ProductDetails(name: "Tea", salePrice: eur("2.00")))
        _ = try await a.store.postPurchase(PurchaseDraft(effectiveAt: at(20260301), lines: [.init(productID: tea.id, quantity: qty(10), unitCost: eur("0.50"))]))
        let sale = try await a.store.postSale(SaleDraft(effectiveAt: at(20260302), customerID: customer.id,
                                                        lines: [.init(productID: tea.id, quantity: qty(6), unitPrice: eur("2.00"))], tip: eur("0.30")))
        var details = tea.details
        details.salePrice = eur("2.20")
        _ = try await a.store.updateProduct(tea.id, details)
        let own = a.heard.all
        // The sale, the tea gone low by it (4 left, threshold 5), and the price change among them.
        #expect(own.map(\.kind) == [.customerCreated, .productCreated, .purchaseRecorded, .saleRecorded, .stockWentLow, .productChanged])

        let mark = try await Self.marker(b.store, "Marker B")
        try await Self.eventually("B hears A's writes and A hears B's marker") { Self.hears(b, mark) && Self.hears(a, mark) }
        try await Self.eventually("B has heard A's last write") { b.heard.all.count == own.count + 1 }
        let heardOnB = b.heard.all.filter { $0.record != mark }
        // Rebuilt from the audit log as recorded: kind, agent, instant, record, products, figures, changes, subject,
        // party and sentence alike, in commit order, each once.
        #expect(heardOnB == own)
        let soldOnB = try #require(heardOnB.first { $0.kind == .saleRecorded })
        #expect(soldOnB.record == ShopActivity.Record(.sale, sale.id.rawValue) && soldOnB.productIDs == [tea.id])
        #expect(soldOnB.party == "Bob" && soldOnB.sentence == own[3].sentence)
        #expect(heardOnB.first { $0.kind == .stockWentLow }?.alert?.title == "Low stock: Tea")
        // A heard its own writes once (published locally, its own notifications skipped), then B's marker.
        #expect(a.heard.all.count == own.count + 1 && a.heard.all.last?.record == mark)
    }

    @Test func aSettingsChangeReachesTheOtherInstancesKeptSettingsWithItsNotification() async throws {
        let location = try Backend.postgresLocation()
        let a = try await Self.instance(location)
        let b = try await Self.instance(location)
        // The proof needs B's kept settings to outlive the steps below (a second): on a machine so busy that they ran
        // longer, B read the settings again anyway and the attempt proves nothing, so it is made again (five at most).
        var proved = false
        for attempt in 0..<5 where !proved {
            // B keeps the settings it read (for up to a second): a change made behind its back, by SQL, is not seen yet.
            let before = try await b.store.settings()
            let keptAt = ContinuousClock.now
            _ = try await Self.sql(a.store, "INSERT INTO setting (key, value) VALUES ('lockMinutes', \(String(100 + attempt))) ON CONFLICT (key) DO UPDATE SET value = excluded.value RETURNING 1::bigint")
            let stillKept = try await b.store.settings() == before
            // A change through A: A sees it at once, B as soon as A's notification arrives, well within the second.
            var changed = before
            changed.lockMinutes = 42 + attempt
            let heardBefore = b.heard.all.count { $0.kind == .settingsChanged }
            try await a.store.saveSettings(changed)
            #expect(try await a.store.settings().lockMinutes == 42 + attempt)
            try await Self.eventually("B hears A's settings change") { b.heard.all.count { $0.kind == .settingsChanged } > heardBefore }
            let seen = try await b.store.settings().lockMinutes == 42 + attempt
            guard ContinuousClock.now - keptAt < .seconds(1) else { continue }
            #expect(stillKept, "B read a change made behind its back before its kept settings ran out")
            #expect(seen, "B did not see A's change with its notification")
            proved = true
        }
        #expect(proved, "B's kept settings ran out before the end of each of five attempts: the checks proved nothing")
        // And whatever the notifications, a kept read lasts a second at most.
        _ = try await Self.sql(a.store, "INSERT INTO setting (key, value) VALUES ('lockMinutes', '9') ON CONFLICT (key) DO UPDATE SET value = excluded.value RETURNING 1::bigint")
        try await Self.eventually("B reads the settings again within a second", within: 2) { try await b.store.settings().lockMinutes == 9 }
    }

    @Test func aRefusedWriteAndADryRunNotifyNothing() async throws {
        let location = try Backend.postgresLocation()
        let a = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        let milk = try await a.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.50")))
        let beans = try await a.createProduct(ProductDetails(name: "Beans", salePrice: eur("9.00")))
        _ = try await a.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: beans.id, quantity: qty(20), unitCost: eur("4.00"))]))
        let b = try await Self.instance(location)

        try await expectRefusal(a, .insufficientStock) {
            _ = try await a.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: milk.id, quantity: qty(1), unitPrice: eur("1.50"))]))
        }
        let preview = try await a.previewSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: beans.id, quantity: qty(2), unitPrice: eur("9.00"))]),
                                              replacing: nil)
        #expect(preview.lines.count == 1)
        let mark = try await Self.marker(a, "Marker A")
        try await Self.eventually("B hears the marker") { Self.hears(b, mark) }
        #expect(b.heard.all.map(\.record) == [mark])
    }

    @Test func twoSchemasDoNotHearEachOther() async throws {
        let first = try Backend.postgresLocation(), second = try Backend.postgresLocation()
        #expect(PostgresLiveEvents.channel(schema: first.schema) != PostgresLiveEvents.channel(schema: second.schema))
        let a = try await Self.instance(first)
        let c = try await Self.instance(second)
        let d = try await InventoryPostgresRepository.open(second, maximumConnections: 4)
        _ = try await a.store.createProduct(ProductDetails(name: "Only in the first shop"))
        let mark = try await Self.marker(d, "Marker D")
        try await Self.eventually("C hears its own schema's marker") { Self.hears(c, mark) }
        #expect(c.heard.all.map(\.record) == [mark])
        #expect(a.heard.all.map(\.kind) == [.productCreated])
    }

    /// A purchase of 600 lines, each leaving its product low: 601 activities in one write, far beyond what a
    /// notification could carry itself (8000 bytes), arrive whole.
    @Test func aLargeWriteArrivesWhole() async throws {
        let location = try Backend.postgresLocation()
        let a = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        let csv = "name,sale_price\n" + (1...600).map { "Item \($0),1.00\n" }.joined()
        let plan = try ProductImport.plan(csv: csv, currency: .eur, existing: [], categories: []).get()
        _ = try await a.importProducts(plan)
        let products = try await a.products(ProductQuery(limit: 1000)).products
        #expect(products.count == 600)
        let b = try await Self.instance(location)

        let purchase = try await a.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: products.map {
            .init(productID: $0.id, quantity: qty(1), unitCost: eur("0.40"))
        }))
        try await Self.eventually("B hears the whole purchase", within: 30) { b.heard.all.count == 601 }
        let heard = b.heard.all
        #expect(heard.first?.record == ShopActivity.Record(.purchase, purchase.id.rawValue))
        #expect(heard.first?.productIDs == products.map(\.id))
        #expect(heard.first?.figures.total == eur("240.00"))
        #expect(heard.dropFirst().allSatisfy { $0.kind == .stockWentLow })
        #expect(Set(heard.dropFirst().compactMap(\.alert?.title)) == Set(products.map { "Low stock: \($0.name)" }))
    }

    @Test func theListenerComesBackAfterItsConnectionIsTerminated() async throws {
        let location = try Backend.postgresLocation()
        let a = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
        let b = try await Self.instance(location)
        let before = try await Self.listeners(a, location)
        #expect(before.count == 1)
        let missedBefore = b.heard.missed  // 0 unless its first connection failed

        for round in 1...2 {
            let old = try await Self.listeners(a, location)
            let name = PostgresLiveEvents.applicationName(schema: location.schema)
            #expect(try await Self.sql(a, "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)) t") == [1])
            try await Self.eventually("B listens again on a new connection") {
                let now = try await Self.listeners(a, location)
                return now.count == 1 && now != old && b.store.liveEventsConnected
            }
            // What was committed while it did not listen is not replayed: its screens are told to read again.
            try await Self.eventually("B's feed says it may have missed activities") { b.heard.missed == missedBefore + round }
            let mark = try await Self.marker(a, "After outage \(round)")
            try await Self.eventually("B hears a write made after it came back") { Self.hears(b, mark) }
        }
        #expect(b.heard.all.map(\.kind) == [.categoryCreated, .categoryCreated])
        #expect(b.heard.missed == missedBefore + 2)
    }

    // MARK: - When the listener runs

    @Test func aRepositoryNobodyObservesDoesNotListenAndAReleasedOneStops() async throws {
        let location = try Backend.postgresLocation()
        let probe = try await InventoryPostgresRepository.open(location, maximumConnections: 2)
        var store: InventoryPostgresRepository? = try await InventoryPostgresRepository.open(location, maximumConnections: 2)
        _ = try await store?.createProduct(ProductDetails(name: "Written, never observed"))
        #expect(store?.liveEventsConnected == false)
        #expect(try await Self.listeners(probe, location).isEmpty)

        var observation = store?.activityFeed.observe { _ in }
        try await Self.eventually("the observed repository listens") { store?.liveEventsConnected == true }
        #expect(try await Self.listeners(probe, location).count == 1)
        observation = nil
        store = nil
        _ = observation
        try await Self.eventually("the released repository's listener has gone") { try await Self.listeners(probe, location).isEmpty }
    }
}

/// The notification's payload and channel (no server needed).
@Suite struct PostgresLiveEventsPayloadTests {
    @Test func idsTravelAsRangesUnderPostgreSQLsLimitAndReadBackInOrder() throws {
        let instance = UUID()
        #expect(PostgresLiveEvents.payloads(instance: instance, ids: []) == [])
        #expect(PostgresLiveEvents.payloads(instance: instance, ids: [1, 2, 3, 5, 7, 8, 9]) == ["\(instance.uuidString) 1-3,5,7-9"])
        #expect(PostgresLiveEvents.payloads(instance: instance, ids: Array(1_000_000...1_005_000)).count == 1)

        // Every other id (another writer's in between): several payloads, each under the limit, together the ids.
        let scattered = (0..<3000).map { Int64(10_000_000 + 2 * $0) }
        let payloads = PostgresLiveEvents.payloads(instance: instance, ids: scattered)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count <= PostgresLiveEvents.maximumPayload })
        let read = payloads.compactMap(PostgresLiveEvents.parse)
        #expect(read.count == payloads.count && read.allSatisfy { $0.instance == instance.uuidString })
        #expect(read.flatMap(\.ids) == scattered)

        #expect(PostgresLiveEvents.parse("nonsense") == nil)
        #expect(PostgresLiveEvents.parse("\(instance.uuidString) 5-3") == nil)
        #expect(PostgresLiveEvents.parse("\(instance.uuidString) x") == nil)
    }

    @Test func theChannelNamesTheSchemaAndStaysAnIdentifierPostgreSQLKeepsWhole() {
        #expect(PostgresLiveEvents.channel(schema: nil) == "stockroom_events")
        #expect(PostgresLiveEvents.channel(schema: "corner_shop") == "stockroom_events_corner_shop")
        let long = String(repeating: "a", count: 60), other = String(repeating: "a", count: 59) + "b"
        #expect(PostgresLiveEvents.channel(schema: long).utf8.count <= 63)
        #expect(PostgresLiveEvents.channel(schema: long) != PostgresLiveEvents.channel(schema: other))
        #expect(PostgresLiveEvents.channel(schema: long) == PostgresLiveEvents.channel(schema: long))
    }
}
