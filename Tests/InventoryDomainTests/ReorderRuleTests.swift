import Foundation
import InventoryDomain
import Testing

/// The reorder rule: pace over the window, need over lead time + cover, the threshold as a floor, whole packs.
@Suite struct ReorderRuleTests {
    let fourWeeksTwoWeeks = try! ReorderTerms(windowDays: 28, coverDays: 14)

    func candidate(
        _ name: String = "Oat milk", id: Int64 = 1, supplier: Int64? = nil, stock: String, sold: String, threshold: String = "0",
        pack: String = "1", cost: Int64 = 0, tracks: Bool = true, archived: Bool = false
    ) throws -> ReorderCandidate {
        ReorderCandidate(
            productID: ProductID(id), name: name, unit: "l", supplierID: supplier.map(SupplierID.init(rawValue:)),
            packSize: try Quantity.parse(pack, field: "pack"), tracksStock: tracks, isArchived: archived,
            stock: try Quantity.parse(stock, field: "stock"), threshold: try Quantity.parse(threshold, field: "threshold"),
            averageCost: UnitCost(scaled: cost), sold: try Quantity.parse(sold, field: "sold"))
    }

    /// Worked by hand. Oat milk sold 47 l in the 28-day window; the supplier delivers in 3 days; cover 14 days.
    ///
    ///     velocity = 47 ÷ 28                = 1.678571… → shown as 1.679 l a day
    ///     need     = 47 × (3 + 14) ÷ 28     = 799 ÷ 28 = 28.535714… → 28.536 l (up to the thousandth)
    ///     target   = max(28.536, threshold 6) = 28.536
    ///     short    = 28.536 − stock 9.5     = 19.036 l
    ///     packs    = ⌈19.036 ÷ 6⌉ = ⌈3.172…⌉ = 4 crates of 6 l  → 24 l
    ///     cost     = 24 × 1.2345 (average)  = 29.628 → 29.63
    @Test func aHandComputedSuggestion() throws {
        let oat = try self.candidate(stock: "9.5", sold: "47", threshold: "6", pack: "6", cost: 123_4500)
        let line = try #require(ReorderRule.line(for: oat, leadTimeDays: 3, terms: self.fourWeeksTwoWeeks))
        #expect(line.velocity == Quantity(thousandths: 1_679))
        #expect(line.need == Quantity(thousandths: 28_536))
        #expect(line.target == Quantity(thousandths: 28_536))
        #expect(line.packs == 4)
        #expect(line.quantity == Quantity(24))
        #expect(line.cost == Money(minorUnits: 29_63))
    }

    @Test func withoutSalesTheThresholdIsTheFloor() throws {
        let line = try #require(ReorderRule.line(for: try self.candidate(stock: "2", sold: "0", threshold: "5"), leadTimeDays: 7,
                                                 terms: self.fourWeeksTwoWeeks))
        #expect(line.need == .zero)
        #expect(line.velocity == .zero)
        #expect(line.target == Quantity(5))
        #expect(line.quantity == Quantity(3))
        // Enough stock, or no threshold and no sales: nothing to buy.
        #expect(ReorderRule.line(for: try self.candidate(stock: "10", sold: "0", threshold: "5"), leadTimeDays: 7, terms: self.fourWeeksTwoWeeks) == nil)
        #expect(ReorderRule.line(for: try self.candidate(stock: "0", sold: "0"), leadTimeDays: 7, terms: self.fourWeeksTwoWeeks) == nil)
        // The threshold floors a small need: 2 sold in 28 days → need 2 × 14 ÷ 28 = 1, threshold 4 → target 4.
        let floored = try #require(ReorderRule.line(for: try self.candidate(stock: "1", sold: "2", threshold: "4"), leadTimeDays: 0,
                                                    terms: self.fourWeeksTwoWeeks))
        #expect(floored.need == Quantity(1))
        #expect(floored.target == Quantity(4))
        #expect(floored.quantity == Quantity(3))
    }

    @Test func negativeStockIsMadeUpToo() throws {
        // 28 sold in 28 days = 1 a day; lead 0 + cover 7 → need 7; stock −4 → short 11; packs of 12 → one.
        let terms = try ReorderTerms(windowDays: 28, coverDays: 7)
        let line = try #require(ReorderRule.line(for: try self.candidate(stock: "-4", sold: "28", pack: "12"), leadTimeDays: 0, terms: terms))
        #expect(line.need == Quantity(7))
        #expect(line.packs == 1)
        #expect(line.quantity == Quantity(12))
    }

    @Test func packsRoundUpButAnExactFitStays() throws {
        let terms = try ReorderTerms(windowDays: 10, coverDays: 10)
        // 12 sold in 10 days, 10 days → need 12; stock 0 → short 12 = exactly 2 packs of 6.
        let exact = try #require(ReorderRule.line(for: try self.candidate(stock: "0", sold: "12", pack: "6"), leadTimeDays: 0, terms: terms))
        #expect(exact.packs == 2)
        #expect(exact.quantity == Quantity(12))
        // A thousandth more → a third pack.
        let over = try #require(ReorderRule.line(for: try self.candidate(stock: "-0.001", sold: "12", pack: "6"), leadTimeDays: 0, terms: terms))
        #expect(over.packs == 3)
        // Packs of half a kilo: short 1.2 → 3 packs = 1.5.
        let half = try #require(ReorderRule.line(for: try self.candidate(stock: "0", sold: "1.2", pack: "0.5"), leadTimeDays: 0, terms: terms))
        #expect(half.packs == 3)
        #expect(half.quantity == Quantity(thousandths: 1_500))
    }

    @Test func moreReturnedThanSoldCountsAsNoSales() throws {
        let line = try #require(ReorderRule.line(for: try self.candidate(stock: "0", sold: "-3", threshold: "1"), leadTimeDays: 2,
                                                 terms: self.fourWeeksTwoWeeks))
        #expect(line.velocity == .zero)
        #expect(line.need == .zero)
        #expect(line.quantity == Quantity(1))
    }

    @Test func untrackedAndArchivedProductsAreLeftOut() throws {
        #expect(ReorderRule.line(for: try self.candidate(stock: "0", sold: "50", tracks: false), leadTimeDays: 0, terms: self.fourWeeksTwoWeeks) == nil)
        #expect(ReorderRule.line(for: try self.candidate(stock: "0", sold: "50", archived: true), leadTimeDays: 0, terms: self.fourWeeksTwoWeeks) == nil)
    }

    @Test func suggestionsAreGroupedPerSupplierByNameThenTheUnassigned() throws {
        let suppliers = [ReorderSupplier(id: SupplierID(1), name: "Zeta dairy", leadTimeDays: 2),
                         ReorderSupplier(id: SupplierID(2), name: "alpha bakery", leadTimeDays: 0),
                         ReorderSupplier(id: SupplierID(3), name: "Idle", leadTimeDays: 1)]
        let candidates = [
            try self.candidate("Milk", id: 1, supplier: 1, stock: "0", sold: "28", cost: 100_0000),
            try self.candidate("Butter", id: 2, supplier: 1, stock: "1", sold: "0", threshold: "3", cost: 250_0000),
            try self.candidate("Bread", id: 3, supplier: 2, stock: "0", sold: "14"),
            try self.candidate("Plenty", id: 4, supplier: 3, stock: "100", sold: "1"),
            try self.candidate("Loose", id: 5, stock: "0", sold: "0", threshold: "2"),
            try self.candidate("Orphan", id: 6, supplier: 99, stock: "0", sold: "0", threshold: "1"),
        ]
        let groups = ReorderRule.suggest(candidates, suppliers: suppliers, terms: self.fourWeeksTwoWeeks)
        #expect(groups.map { $0.supplier?.name } == ["alpha bakery", "Zeta dairy", nil])
        #expect(groups[1].lines.map(\.candidate.name) == ["Butter", "Milk"])
        #expect(groups[2].lines.map(\.candidate.name) == ["Loose", "Orphan"])
        // Milk: 1 a day × (2 + 14) = 16 at 1.00; Butter: 2 at 2.50 → 21.00 for the dairy.
        #expect(groups[1].lines[1].quantity == Quantity(16))
        #expect(groups[1].cost == Money(minorUnits: 21_00))
        #expect(groups[2].lines.allSatisfy { $0.leadTimeDays == 0 })
    }

    @Test func termsAreCheckedNamingTheField() throws {
        for (window, cover, field) in [("0", "14", "window"), ("-3", "14", "window"), ("367", "14", "window"), ("abc", "14", "window"),
                                       ("99999999999999999999999", "14", "window"), ("28", "-1", "cover"), ("28", "367", "cover"),
                                       ("28", "1.5", "cover")] {
            let error = #expect(throws: InventoryError.self) { try ReorderTerms.parse(window: window, cover: cover) }
            #expect(error?.field == field)
        }
        let defaults = try ReorderTerms.parse(window: nil, cover: nil)
        #expect(defaults.windowDays == 28 && defaults.coverDays == 14)
        let given = try ReorderTerms.parse(window: " 7 ", cover: "0")
        #expect(given.windowDays == 7 && given.coverDays == 0)
    }

    @Test func theWindowEndsTodayInTheShopsTimeZone() throws {
        let berlin = try ShopCalendar(identifier: "Europe/Berlin")
        // 23:30 UTC on 26 November is 00:30 on the 27th in Berlin: the window's last day is the 27th.
        let now = try berlin.parseDateTime("2026-11-26T23:30:00Z", field: "now")
        let terms = try ReorderTerms(windowDays: 28, coverDays: 0)
        let days = terms.days(endingAt: now, calendar: berlin)
        #expect(days.first == 2026_10_31 && days.last == 2026_11_27)
        let interval = terms.interval(endingAt: now, calendar: berlin)
        #expect(interval.lowerBound == berlin.startOfDay(2026_10_31))
        #expect(interval.upperBound == berlin.endOfDay(2026_11_27))
        #expect(interval.lowerBound.iso8601.hasPrefix("2026-10-30T23:00:00"))
    }

    @Test func productImportReadsSupplierCodeAndPackSize() throws {
        let csv = "name,supplier_code,pack_size\r\nOat milk,OAT-6,6\r\nTea,,\r\n"
        let plan = try ProductImport.plan(csv: csv, currency: .eur, existing: [], categories: []).get()
        #expect(plan.rows.map(\.details.supplierCode) == ["OAT-6", nil])
        #expect(plan.rows.map(\.details.packSize) == [Quantity(6), Quantity(1)])
        guard case .failure(let failure) = ProductImport.plan(csv: "name,pack_size\r\nOat milk,0\r\n", currency: .eur, existing: [], categories: []) else {
            Issue.record("a pack of 0 was accepted")
            return
        }
        #expect(failure.problems.map(\.field) == ["packSize"])
    }

    @Test func productReorderFieldsAreChecked() throws {
        var details = ProductDetails(name: "Oat milk", supplierCode: "  OAT-1  ", packSize: Quantity(6))
        #expect(try details.validated().supplierCode == "OAT-1")
        details.supplierCode = "   "
        #expect(try details.validated().supplierCode == nil)
        details.packSize = .zero
        #expect(throws: InventoryError.self) { try details.validated() }
        details.packSize = Quantity(1)
        details.supplierCode = String(repeating: "x", count: 65)
        let error = #expect(throws: InventoryError.self) { try details.validated() }
        #expect(error?.field == "supplierCode")
        let lead = #expect(throws: InventoryError.self) { try Contact<Supplier>(id: SupplierID(1), name: "Dairy", leadTimeDays: -1).validated() }
        #expect(lead?.field == "leadTimeDays")
        #expect(try Contact<Supplier>(id: SupplierID(1), name: "Dairy", leadTimeDays: 365).validated().leadTimeDays == 365)
    }
}
