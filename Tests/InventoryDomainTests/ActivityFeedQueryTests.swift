import Foundation
import InventoryDomain
import Testing

/// The activity feed's groups, its filters (a bad one names its parameter) and when a product "goes low".
@Suite struct ActivityFeedQueryTests {
    let utc = ShopCalendar(timeZone: TimeZone(identifier: "UTC")!)
    let ada = Agent(userID: UserID(1), username: "ada")

    static func refusal(_ body: () throws -> Void) -> InventoryError? {
        do { try body() } catch let error as InventoryError { return error } catch { return nil }
        return nil
    }

    @Test func theFeedShowsSalesRefundsShiftsPriceChangesAndProductsGoneLow() {
        #expect(ActivityGroup.of(.saleRecorded, changes: []) == .sales)
        #expect(ActivityGroup.of(.customerReturnRecorded, changes: []) == .refunds)
        #expect(ActivityGroup.of(.clockedIn, changes: []) == .shifts)
        #expect(ActivityGroup.of(.clockedOut, changes: []) == .shifts)
        #expect(ActivityGroup.of(.stockWentLow, changes: []) == .lowStock)
        let price = ShopActivity.Change(.salePrice, from: .money(Money(minorUnits: 290)), to: .money(Money(minorUnits: 310)))
        let minimum = ShopActivity.Change(.minimumSalePrice, from: .none, to: .money(Money(minorUnits: 200)))
        let name = ShopActivity.Change(.name, from: .text("Bun"), to: .text("Roll"))
        #expect(ActivityGroup.of(.productChanged, changes: [name, price]) == .priceChanges)
        #expect(ActivityGroup.of(.productChanged, changes: [minimum]) == .priceChanges)
        // A product edit that changed no price, and everything else, stays in the audit log only.
        #expect(ActivityGroup.of(.productChanged, changes: [name]) == nil)
        for kind in [ShopActivity.Kind.saleChanged, .purchaseRecorded, .settingsChanged, .userCreated, .productCreated] {
            #expect(ActivityGroup.of(kind, changes: [price]) == nil)
        }
        let changed = ShopActivity(.productChanged, by: self.ada, subject: "Bun", changes: [price], currency: .eur)
        #expect(changed.feedGroup == .priceChanges)
        let entry = AuditEntry(id: 3, at: 0, userID: UserID(1), username: "ada", action: "productChanged", detail: changed.sentence, changes: [price])
        #expect(entry.feedGroup == .priceChanges)
        #expect(AuditEntry(id: 4, at: 0, userID: nil, username: "x", action: "POST /api/v1/sales", detail: "").feedGroup == nil)
    }

    @Test func theTypedFiltersMakeAQuery() throws {
        let all = try ActivityFeedQuery.parse(kind: nil, userID: nil, from: nil, to: nil, limit: nil, before: nil, calendar: self.utc)
        #expect(all.groups == ActivityGroup.allCases)
        #expect(all.limit == 50 && all.userID == nil && all.before == nil && all.range.isAll)
        let some = try ActivityFeedQuery.parse(kind: "refunds, sales", userID: "7", from: "2026-03-01", to: "2026-03-02", limit: "10",
                                               before: "99", calendar: self.utc)
        #expect(some.groups == [.sales, .refunds])
        #expect(some.userID == UserID(7) && some.limit == 10 && some.before == 99)
        #expect(some.range.from == Instant(milliseconds: 1_772_323_200_000))
        #expect(some.range.to == Instant(milliseconds: 1_772_323_200_000 + 2 * 86_400_000 - 1))
        // Empty values are no filter.
        let empty = try ActivityFeedQuery.parse(kind: "", userID: "", from: "", to: "", limit: "", before: "", calendar: self.utc)
        #expect(empty == all)
    }

    @Test func aBadFilterNamesItsParameter() {
        func field(kind: String? = nil, userID: String? = nil, from: String? = nil, to: String? = nil, limit: String? = nil,
                   before: String? = nil) -> String? {
            Self.refusal {
                _ = try ActivityFeedQuery.parse(kind: kind, userID: userID, from: from, to: to, limit: limit, before: before, calendar: self.utc)
            }?.field
        }
        #expect(field(kind: "sales,gossip") == "kind")
        #expect(field(userID: "ada") == "userId")
        #expect(field(userID: "0") == "userId")
        #expect(field(from: "yesterday") == "from")
        #expect(field(from: "2026-03-02", to: "2026-03-01") == "to")
        #expect(field(limit: "0") == "limit")
        #expect(field(limit: "201") == "limit")
        #expect(field(limit: "ten") == "limit")
        #expect(field(before: "0") == "before")
        #expect(field(before: "x") == "before")
        #expect(Self.refusal { _ = try ActivityFeedQuery(limit: 500) }?.field == "limit")
    }

    @Test func aQueryIncludesWhatItsFiltersAccept() throws {
        let query = try ActivityFeedQuery(groups: [.sales], userID: UserID(1), range: DateRange(from: Instant(milliseconds: 10), to: Instant(milliseconds: 20)),
                                          before: 50)
        func entry(id: Int64 = 10, at: Int64 = 15, user: Int64? = 1, action: String = "saleRecorded") -> AuditEntry {
            AuditEntry(id: id, at: at, userID: user.map(UserID.init(rawValue:)), username: "ada", action: action, detail: "")
        }
        #expect(query.includes(entry()))
        #expect(!query.includes(entry(action: "customerReturnRecorded")))
        #expect(!query.includes(entry(user: 2)))
        #expect(!query.includes(entry(user: nil)))
        #expect(!query.includes(entry(id: 50)))
        #expect(!query.includes(entry(at: 9)))
        #expect(!query.includes(entry(at: 21)))
    }

    @Test func aProductGoesLowOnceUntilItRecovers() {
        #expect(LowStockCrossing.decide(status: .low, noted: false) == .wentLow)
        #expect(LowStockCrossing.decide(status: .out, noted: false) == .wentLow)
        #expect(LowStockCrossing.decide(status: .low, noted: true) == .unchanged)
        #expect(LowStockCrossing.decide(status: .out, noted: true) == .unchanged)
        #expect(LowStockCrossing.decide(status: .inStock, noted: true) == .recovered)
        #expect(LowStockCrossing.decide(status: .notTracked, noted: true) == .recovered)
        #expect(LowStockCrossing.decide(status: .inStock, noted: false) == .unchanged)
        #expect(LowStockCrossing.decide(status: .low, isArchived: true, noted: false) == .unchanged)
        #expect(ShopActivity.Kind.saleRecorded.movesStock && ShopActivity.Kind.adjustmentDeleted.movesStock)
        #expect(!ShopActivity.Kind.productCreated.movesStock && !ShopActivity.Kind.productChanged.movesStock)
    }

    @Test func shiftsAndProductsGoneLowReadAsSentences() {
        #expect(ShopActivity(.clockedIn, by: self.ada, record: .init(.shift, 4), currency: .eur).sentence == "ada clocked in")
        #expect(ShopActivity(.clockedOut, by: self.ada, record: .init(.shift, 4), currency: .eur).sentence == "ada clocked out")
        let low = ShopActivity.wentLow(ProductID(3), name: "Flat white", stock: Quantity(2), threshold: Quantity(5), by: self.ada)
        #expect(low.sentence == "Flat white went low: 2 left, threshold 5")
        #expect(low.record == ShopActivity.Record(.product, 3) && low.productIDs == [ProductID(3)])
        #expect(low.figures.stock == Quantity(2) && low.figures.threshold == Quantity(5))
        let out = ShopActivity.wentLow(ProductID(3), name: "Flat white", stock: Quantity(thousandths: -1500), threshold: Quantity(5), by: self.ada)
        #expect(out.sentence == "Flat white ran out: -1.5 left, threshold 5")
        #expect(ShopActivity.Figures(stored: low.figures.stored) == low.figures)
    }
}
