import Foundation
import InventoryDomain
import Testing

@Suite struct StocktakeTests {
    static let counted = Instant(milliseconds: 1_780_000_000_000)

    static func sheet(_ lines: [StocktakeLine], status: StocktakeStatus = .open) -> Stocktake {
        Stocktake(id: StocktakeID(7), scope: .all, status: status, note: "shelf A", createdAt: Instant(milliseconds: 0), lines: lines)
    }

    static func line(_ id: Int64, counted: Int64?, stock: Int64, cost: Int64 = 1_234_500) -> StocktakeLine {
        StocktakeLine(productID: ProductID(id), productName: "P\(id)", counted: counted.map { Quantity($0) },
                      countedAt: counted == nil ? nil : Self.counted, stockAtCount: counted == nil ? nil : Quantity(stock),
                      averageCostAtCount: counted == nil ? nil : UnitCost(scaled: cost))
    }

    @Test func aScanAddsOneAndATypedCountReplaces() throws {
        #expect(try StocktakeEntry.scanned.counted(after: nil) == Quantity(1))
        #expect(try StocktakeEntry.scanned.counted(after: Quantity(4)) == Quantity(5))
        #expect(try StocktakeEntry.typed(Quantity(thousandths: 2500)).counted(after: Quantity(4)) == Quantity(thousandths: 2500))
        #expect(try StocktakeEntry.typed(.zero).counted(after: Quantity(4)) == .zero)
        #expect(throws: InventoryError(.invalidValue, field: "quantity", "")) { try StocktakeEntry.typed(Quantity(-1)).counted(after: nil) }
    }

    @Test func theVarianceIsValuedAtTheAverageCostOfTheCountedInstantRoundedOnce() {
        // 1.2345 a unit (scaled 10^4 beyond cents); 3 short: −3.7035 → −3.70.
        let short = Self.line(1, counted: 2, stock: 5)
        #expect(short.variance == Quantity(-3) && short.varianceValue == Money(minorUnits: -370))
        let over = Self.line(2, counted: 6, stock: 5)
        #expect(over.variance == Quantity(1) && over.varianceValue == Money(minorUnits: 123))
        let uncounted = Self.line(3, counted: nil, stock: 0)
        #expect(uncounted.variance == nil && uncounted.varianceValue == nil && !uncounted.isCounted)
        let totals = Self.sheet([short, over, uncounted, Self.line(4, counted: 5, stock: 5)]).totals
        #expect(totals.counted == 3 && totals.uncounted == 1 && totals.differing == 2)
        #expect(totals.surplusValue == Money(minorUnits: 123) && totals.shortageValue == Money(minorUnits: -370))
        #expect(totals.varianceValue == Money(minorUnits: -247))
    }

    @Test func postingAdjustsOnlyCountsThatDifferEachAtItsInstant() throws {
        let drafts = try Self.sheet([Self.line(1, counted: 2, stock: 5), Self.line(2, counted: nil, stock: 0), Self.line(3, counted: 4, stock: 4),
                                     Self.line(4, counted: 9, stock: 5)]).countAdjustment()
        #expect(drafts.map(\.productID) == [ProductID(1), ProductID(4)])
        #expect(drafts.map(\.quantityChange) == [Quantity(-3), Quantity(4)])
        #expect(drafts.allSatisfy { $0.reason == .count && $0.effectiveAt == Self.counted && $0.note == "Stocktake 7: shelf A" })
        #expect(drafts[0].effect == .issue(quantity: Quantity(3)) && drafts[1].effect == .receiptAtAverage(quantity: Quantity(4)))
    }

    @Test func onlyAnOpenSheetWithACountPosts() {
        #expect(throws: InventoryError(.missingValue, field: "lines", "")) { try Self.sheet([Self.line(1, counted: nil, stock: 0)]).countAdjustment() }
        #expect(throws: InventoryError(.conflict, field: "status", "")) {
            try Self.sheet([Self.line(1, counted: 1, stock: 0)], status: .posted).countAdjustment()
        }
        #expect(throws: InventoryError(.conflict, field: "status", "")) { try Self.sheet([], status: .cancelled).requireOpen() }
    }

    @Test func aScopeIsAllOneCategoryOrOneShelf() throws {
        #expect(try StocktakeScope.parse(nil, categoryID: nil) == .all)
        #expect(try StocktakeScope.parse("category", categoryID: CategoryID(3)) == .category(CategoryID(3)))
        #expect(StocktakeScope.category(CategoryID(3)).kind == "category" && StocktakeScope.all.categoryID == nil)
        #expect(throws: InventoryError(.missingValue, field: "categoryId", "")) { try StocktakeScope.parse("category", categoryID: nil) }
        #expect(throws: InventoryError(.invalidValue, field: "categoryId", "")) { try StocktakeScope.parse("all", categoryID: CategoryID(3)) }
        #expect(throws: InventoryError(.invalidValue, field: "scope", "")) { try StocktakeScope.parse("aisle", categoryID: nil) }
        #expect(throws: InventoryError(.invalidValue, field: "scope", "")) { try StocktakeScope.parse("aisle", categoryID: CategoryID(3)) }
        // A shelf is trimmed and its inner spaces made one, as a product's shelf is stored.
        #expect(try StocktakeScope.parse("shelf", categoryID: nil, shelf: "  Back   room ") == .shelf("Back room"))
        #expect(StocktakeScope.shelf("A3").kind == "shelf" && StocktakeScope.shelf("A3").shelf == "A3" && StocktakeScope.all.shelf == nil)
        #expect(throws: InventoryError(.missingValue, field: "shelf", "")) { try StocktakeScope.parse("shelf", categoryID: nil) }
        #expect(throws: InventoryError(.missingValue, field: "shelf", "")) { try StocktakeScope.parse("shelf", categoryID: nil, shelf: " \t ") }
        #expect(throws: InventoryError(.invalidValue, field: "shelf", "")) { try StocktakeScope.parse("all", categoryID: nil, shelf: "A3") }
        #expect(throws: InventoryError(.invalidValue, field: "categoryId", "")) {
            try StocktakeScope.parse("shelf", categoryID: CategoryID(3), shelf: "A3")
        }
        #expect(throws: InventoryError(.invalidValue, field: "shelf", "")) {
            try StocktakeScope.parse("shelf", categoryID: nil, shelf: String(repeating: "x", count: 41))
        }
        #expect(StocktakeScope.all.name(categoryName: nil) == "All products")
        #expect(StocktakeScope.category(CategoryID(3)).name(categoryName: "Dairy") == "Dairy")
        #expect(StocktakeScope.category(nil).name(categoryName: nil) == "Deleted category")
        #expect(StocktakeScope.shelf("A3").name(categoryName: nil) == "Shelf A3")
    }

    @Test func anExpiredLotIsWrittenOffForWhatIsLeft() throws {
        let at = Self.counted
        let draft = try ExpiredLot(productID: ProductID(1), lotCode: "L7", expiryDate: "2026-02-01", remaining: Quantity(2)).writeOff(at: at)
        #expect(draft.quantityChange == Quantity(-2) && draft.reason == .expired && draft.effectiveAt == at)
        #expect(draft.note == "Expired: lot 'L7', best before 2026-02-01")
        #expect(throws: InventoryError(.notFound, field: "lotCode", "")) {
            try ExpiredLot(productID: ProductID(1), lotCode: "", expiryDate: nil, remaining: nil).writeOff(at: at)
        }
        #expect(throws: InventoryError(.invalidValue, field: "lotCode", "")) {
            try ExpiredLot(productID: ProductID(1), lotCode: "", expiryDate: nil, remaining: .zero).writeOff(at: at)
        }
    }
}
