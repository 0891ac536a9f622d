import InventoryDomain
import Testing

/// A new product's opening stock and the price figures of its form (issue 14, point 5).
@Suite struct ProductFormTests {
    let cups = Category(id: CategoryID(1), name: "Cups", markup: Percent(hundredths: 80_00))

    @Test func priceBeforeTaxHasItsTaxAdded() throws {
        let figures = try ProductPriceFigures.of(salePrice: Money(minorUnits: 10_00), taxRate: Percent(hundredths: 19_00),
                                                 cost: Money(minorUnits: 2_50), category: self.cups, pricesIncludeTax: false)
        #expect(figures == ProductPriceFigures(suggestedSalePrice: Money(minorUnits: 4_50), netPrice: Money(minorUnits: 10_00),
                                               tax: Money(minorUnits: 1_90), finalPrice: Money(minorUnits: 11_90)))
    }

    @Test func priceIncludingTaxHasItsTaxTakenOutAndTheSuggestionAdded() throws {
        let figures = try ProductPriceFigures.of(salePrice: Money(minorUnits: 3_10), taxRate: Percent(hundredths: 7_00),
                                                 cost: Money(minorUnits: 2_00), category: self.cups, pricesIncludeTax: true)
        #expect(figures.netPrice == Money(minorUnits: 2_90))
        #expect(figures.tax == Money(minorUnits: 20))
        #expect(figures.finalPrice == Money(minorUnits: 3_10))
        #expect(figures.suggestedSalePrice == Money(minorUnits: 3_85))
    }

    @Test func theFiguresAreATillLineOfOneUnit() throws {
        // Whatever the price, the final price is what a sale of one unit charges (the till's rule, not a copy of it).
        for minor in [Int64(1), 5, 99, 1_05, 3_33, 12_345] {
            for includeTax in [false, true] {
                let price = Money(minorUnits: minor)
                let figures = try ProductPriceFigures.of(salePrice: price, taxRate: Percent(hundredths: 7_70), cost: nil, category: nil,
                                                         pricesIncludeTax: includeTax)
                #expect(figures.finalPrice == (includeTax ? price : price + price.applying(Percent(hundredths: 7_70))))
                #expect(figures.netPrice.map { $0 + (figures.tax ?? .zero) } == figures.finalPrice)
            }
        }
    }

    @Test func withoutACategoryOrACostThereIsNoSuggestion() throws {
        #expect(try ProductPriceFigures.of(salePrice: nil, taxRate: .zero, cost: Money(minorUnits: 1_00), category: nil,
                                           pricesIncludeTax: false) == ProductPriceFigures())
        #expect(try ProductPriceFigures.of(salePrice: nil, taxRate: .zero, cost: .zero, category: self.cups,
                                           pricesIncludeTax: false).suggestedSalePrice == nil)
    }

    @Test func badFiguresAreRefusedNamingTheField() {
        #expect(throws: InventoryError.self) {
            try ProductPriceFigures.of(salePrice: Money(minorUnits: -1), taxRate: .zero, cost: nil, category: nil, pricesIncludeTax: false)
        }
        let cases: [(Money?, Percent, Money?, String)] = [
            (Money(minorUnits: -1), .zero, nil, "salePrice"),
            (Money(minorUnits: Money.maximum.minorUnits + 1), .zero, nil, "salePrice"),
            (nil, Percent(hundredths: 100_01), nil, "taxRate"),
            (nil, Percent(hundredths: -1), nil, "taxRate"),
            (nil, .zero, Money(minorUnits: -5), "cost"),
            (nil, .zero, Money(minorUnits: Money.maximum.minorUnits + 1), "cost"),
        ]
        for (price, rate, cost, field) in cases {
            do {
                _ = try ProductPriceFigures.of(salePrice: price, taxRate: rate, cost: cost, category: self.cups, pricesIncludeTax: false)
                Issue.record("expected a refusal on \(field)")
            } catch let error as InventoryError {
                #expect(error.field == field)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func anOpeningStockIsAnInitialAdjustmentAtItsCost() throws {
        let details = try ProductDetails(name: "Mug").validated()
        let opening = try OpeningStock(quantity: Quantity(12), unitCost: Money(minorUnits: 3_50)).validated(for: details)
        let draft = opening.adjustment(of: ProductID(7), askedAt: Instant(milliseconds: 1_000))
        #expect(draft.reason == .initial)
        #expect(draft.productID == ProductID(7))
        #expect(draft.datedWhenBooked)
        #expect(draft.effect == .receipt(quantity: Quantity(12), unitCost: Money(minorUnits: 3_50)))
        #expect(try draft.validated().quantityChange == Quantity(12))
    }

    @Test func aBadOpeningStockIsRefusedNamingTheField() throws {
        let details = try ProductDetails(name: "Mug").validated()
        let untracked = try ProductDetails(name: "Latte", tracksStock: false).validated()
        let cases: [(OpeningStock, ProductDetails, String)] = [
            (OpeningStock(quantity: .zero, unitCost: Money(minorUnits: 1)), details, "openingStock.quantity"),
            (OpeningStock(quantity: Quantity(-1), unitCost: Money(minorUnits: 1)), details, "openingStock.quantity"),
            (OpeningStock(quantity: Quantity(2_000_000), unitCost: Money(minorUnits: 1)), details, "openingStock.quantity"),
            (OpeningStock(quantity: Quantity(1), unitCost: nil), details, "openingStock.unitCost"),
            (OpeningStock(quantity: Quantity(1), unitCost: Money(minorUnits: -1)), details, "openingStock.unitCost"),
            (OpeningStock(quantity: Quantity(1), unitCost: Money(minorUnits: Money.maximum.minorUnits + 1)), details, "openingStock.unitCost"),
            (OpeningStock(quantity: Quantity(1), unitCost: Money(minorUnits: 1)), untracked, "openingStock"),
        ]
        for (opening, details, field) in cases {
            do {
                _ = try opening.validated(for: details)
                Issue.record("expected a refusal on \(field)")
            } catch let error as InventoryError {
                #expect(error.field == field)
            }
        }
    }

    @Test func aDescriptionIsTrimmedLimitedPatchedAndAudited() throws {
        let details = try ProductDetails(name: "Mug", description: "  Stoneware\n").validated()
        #expect(details.description == "Stoneware")
        #expect(throws: InventoryError.self) { try ProductDetails(name: "Mug", description: String(repeating: "x", count: 2001)).validated() }
        var patch = ProductPatch()
        #expect(patch.applied(to: details).description == "Stoneware")
        patch.description = "Porcelain"
        let patched = patch.applied(to: details)
        #expect(patched.description == "Porcelain")
        let changes = ShopActivity.Change.between(details, patched) { _ in nil }
        #expect(changes.map(\.field) == [.description])
    }

    @Test func aShelfIsTrimmedOptionalLimitedPatchedAndAudited() throws {
        let details = try ProductDetails(name: "Mug", shelf: "  A3 \t top ").validated()
        #expect(details.shelf == "A3 top")
        #expect(try ProductDetails(name: "Mug", shelf: "   ").validated().shelf == nil)
        #expect(throws: InventoryError(.invalidValue, field: "shelf", "")) {
            try ProductDetails(name: "Mug", shelf: String(repeating: "x", count: 41)).validated()
        }
        var patch = ProductPatch()
        #expect(patch.applied(to: details).shelf == "A3 top")
        patch.shelf = .some(nil)
        let cleared = patch.applied(to: details)
        #expect(cleared.shelf == nil)
        let changes = ShopActivity.Change.between(details, cleared) { _ in nil }
        #expect(changes.map(\.field) == [.shelf] && changes.first?.field.label == "shelf")
    }
}
