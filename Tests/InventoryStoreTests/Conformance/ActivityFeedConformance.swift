import Foundation
import InventoryDomain
import Testing

/// The activity feed (``ActivityFeedQuery``): shifts and products gone low are recorded as activities, a store answers
/// exactly the entries the query includes, newest first, a page at a time.
@Suite struct ActivityFeedConformance {
    static func sell(_ store: any TestableRepository, _ product: Product, _ quantity: Int64) async throws {
        _ = try await store.postSale(SaleDraft(effectiveAt: .now, lines: [.init(productID: product.id, quantity: qty(quantity), unitPrice: eur("1.00"))]))
    }

    static func receive(_ store: any TestableRepository, _ product: Product, _ quantity: Int64) async throws {
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: .now, lines: [.init(productID: product.id, quantity: qty(quantity), unitCost: eur("0.50"))]))
    }

    static func feed(_ store: any TestableRepository, _ groups: Set<ActivityGroup> = [], userID: UserID? = nil, range: DateRange = .all,
                     limit: Int = 50, before: Int64? = nil) async throws -> [AuditEntry] {
        try await store.activityFeed(ActivityFeedQuery(groups: groups, userID: userID, range: range, limit: limit, before: before))
    }

    @Test(arguments: Backend.ported)
    func clockingInAndOutAreShiftsInTheFeed(backend: Backend) async throws {
        let shop = try await ActivityConformance.shop(backend)
        let store = shop.store
        let ada = try #require(shop.ada.userID)
        let shift = try await shop.asAda { try await store.clockIn(ada, at: Instant.now.milliseconds) }
        _ = try await shop.asAda { try await store.clockOut(ada, at: Instant.now.milliseconds) }
        let entries = try await Self.feed(store, [.shifts])
        #expect(entries.map(\.kind) == [.clockedOut, .clockedIn])
        #expect(entries.map(\.sentence) == ["ada clocked out", "ada clocked in"])
        #expect(entries.allSatisfy { $0.record == ShopActivity.Record(.shift, shift.id) && $0.userID == ada })
        #expect(shop.heard.all.map(\.kind) == [.clockedIn, .clockedOut])
        // A refused clock-out (no shift open) records nothing.
        await #expect(throws: InventoryError.self) { try await shop.asAda { try await store.clockOut(ada, at: Instant.now.milliseconds) } }
        #expect(try await Self.feed(store).count == 2)
    }

    @Test(arguments: Backend.ported)
    func aProductGoesLowOnceUntilItIsRestocked(backend: Backend) async throws {
        let shop = try await ActivityConformance.shop(backend)
        let store = shop.store
        // A new product with nothing in stock is no news.
        let bun = try await shop.asAda { try await store.createProduct(ProductDetails(name: "Bun", salePrice: eur("1.00"), lowStockThreshold: qty(5))) }
        try await shop.asAda { try await Self.receive(store, bun, 10) }
        #expect(try await Self.feed(store, [.lowStock]).isEmpty)

        try await shop.asAda { try await Self.sell(store, bun, 6) }
        var low = try await Self.feed(store, [.lowStock])
        #expect(low.map(\.sentence) == ["Bun went low: 4 left, threshold 5"])
        #expect(low.first?.figures == ShopActivity.Figures(stock: qty(4), threshold: qty(5)))
        #expect(low.first?.record == ShopActivity.Record(.product, bun.id.rawValue) && low.first?.userID == shop.ada.userID)
        // Recorded with the sale that caused it: the sale first, then the product gone low, both heard after the commit.
        #expect(shop.heard.all.suffix(2).map(\.kind) == [.saleRecorded, .stockWentLow])

        // Further down is not news again; a refused sale records nothing.
        try await shop.asAda { try await Self.sell(store, bun, 1) }
        await #expect(throws: InventoryError.self) { try await shop.asAda { try await Self.sell(store, bun, 50) } }
        #expect(try await Self.feed(store, [.lowStock]).count == 1)

        // Restocked above the threshold and sold out: news again.
        try await shop.asAda { try await Self.receive(store, bun, 10) }
        try await shop.asAda { try await Self.sell(store, bun, 13) }
        low = try await Self.feed(store, [.lowStock])
        #expect(low.map(\.sentence) == ["Bun ran out: 0 left, threshold 5", "Bun went low: 4 left, threshold 5"])
    }

    @Test(arguments: Backend.ported)
    func theFeedFiltersByGroupUserTimeAndPages(backend: Backend) async throws {
        let shop = try await ActivityConformance.shop(backend)
        let store = shop.store
        let bob = try await store.createUser(ActivityConformance.account("bob"))
        let started = Instant.now
        let bun = try await shop.asAda { try await store.createProduct(ProductDetails(name: "Bun", salePrice: eur("1.00"), lowStockThreshold: qty(0))) }
        try await shop.asAda { try await Self.receive(store, bun, 100) }
        var details = bun.details
        details.name = "Roll"
        _ = try await shop.asAda { try await store.updateProduct(bun.id, details) }
        #expect(try await Self.feed(store).isEmpty, "a purchase, a new product and a change of name are not in the feed")
        details.salePrice = eur("1.20")
        _ = try await shop.asAda { try await store.updateProduct(bun.id, details) }
        for _ in 0..<3 { try await shop.asAda { try await Self.sell(store, bun, 1) } }
        try await Agent.$current.withValue(Agent(bob)) { try await Self.sell(store, bun, 2) }

        let all = try await Self.feed(store)
        #expect(all.map(\.feedGroup) == [.sales, .sales, .sales, .sales, .priceChanges])
        #expect(all.map(\.id) == all.map(\.id).sorted(by: >))
        #expect(all.last?.sentence == "ada changed the sale price of Roll from €1.00 to €1.20")
        #expect(try await Self.feed(store, [.priceChanges]).map(\.id) == [all[4].id])
        #expect(try await Self.feed(store, [.sales, .priceChanges]).count == 5)
        #expect(try await Self.feed(store, [.refunds, .shifts]).isEmpty)
        #expect(try await Self.feed(store, userID: bob.id).map(\.username) == ["bob"])

        // Pages: newest first, each one older than the last.
        let first = try await Self.feed(store, limit: 2)
        let second = try await Self.feed(store, limit: 2, before: first.last?.id)
        let third = try await Self.feed(store, limit: 2, before: second.last?.id)
        #expect((first + second + third).map(\.id) == all.map(\.id))

        // Time: everything happened after `started`; nothing before it.
        #expect(try await Self.feed(store, range: DateRange(from: started, to: nil)).count == 5)
        #expect(try await Self.feed(store, range: DateRange(from: nil, to: Instant(milliseconds: started.milliseconds - 1))).isEmpty)

        // The store answers what the query includes, from the whole log.
        let query = try ActivityFeedQuery(groups: [.sales], userID: shop.ada.userID, limit: 200)
        let log = try await store.auditLog(limit: 1000, offset: 0)
        #expect(try await store.activityFeed(query).map(\.id) == log.filter(query.includes).map(\.id))
    }
}
