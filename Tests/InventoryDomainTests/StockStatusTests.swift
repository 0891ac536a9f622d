import InventoryDomain
import Testing

/// The one low-stock rule: the product's threshold, else its category's, else the shop's default.
@Suite struct StockStatusTests {
    func status(_ quantity: Int64, tracks: Bool = true, own: Int64? = nil, category: Int64? = nil, shop: Int64 = 5) -> StockStatus {
        StockStatus.of(quantity: Quantity(quantity), tracksStock: tracks, productThreshold: own.map { Quantity($0) },
                       categoryThreshold: category.map { Quantity($0) }, shopDefault: Quantity(shop))
    }

    @Test func theShopDefaultAppliesWhenNeitherProductNorCategorySetsOne() {
        #expect(self.status(3) == .low)
        #expect(self.status(5) == .low)
        #expect(self.status(6) == .inStock)
    }

    @Test func theProductsThresholdWinsThenTheCategorys() {
        #expect(self.status(3, own: 2, category: 10) == .inStock)
        #expect(self.status(3, category: 2) == .inStock)
        #expect(self.status(8, category: 10) == .low)
        #expect(StockStatus.effectiveThreshold(productThreshold: nil, categoryThreshold: Quantity(2), shopDefault: Quantity(5)) == Quantity(2))
        #expect(StockStatus.effectiveThreshold(productThreshold: .zero, categoryThreshold: Quantity(2), shopDefault: Quantity(5)) == .zero)
    }

    @Test func zeroMeansWarnOnlyWhenOut() {
        #expect(self.status(1, own: 0) == .inStock)
        #expect(self.status(0, own: 0) == .out)
        #expect(StockStatus.of(quantity: Quantity(thousandths: 1), tracksStock: true, productThreshold: nil, categoryThreshold: nil,
                               shopDefault: .zero) == .inStock)
    }

    @Test func outAndUntrackedComeFirst() {
        #expect(self.status(0) == .out)
        #expect(self.status(-2, own: 0) == .out)
        #expect(self.status(0, tracks: false) == .notTracked)
        #expect(self.status(-1, tracks: false) == .notTracked)
        #expect(StockStatus.allCases.filter(\.needsRestocking) == [.low, .out])
    }

    @Test func thresholdsFromCategories() {
        let drinks = Category(id: CategoryID(1), name: "Drinks", lowStockThreshold: Quantity(10))
        let loose = Category(id: CategoryID(2), name: "Loose")
        let thresholds = StockThresholds(shopDefault: Quantity(3), categories: [drinks, loose])
        #expect(thresholds.threshold(for: ProductDetails(name: "Cola", categoryID: drinks.id)) == Quantity(10))
        #expect(thresholds.threshold(for: ProductDetails(name: "Rice", categoryID: loose.id)) == Quantity(3))
        #expect(thresholds.threshold(for: ProductDetails(name: "Pen")) == Quantity(3))
        #expect(thresholds.threshold(for: ProductDetails(name: "Tea", categoryID: drinks.id, lowStockThreshold: Quantity(1))) == Quantity(1))
    }
}

/// The till greys a product it cannot sell; the rule is the domain's, the tile shows `soldOut`.
@Suite struct SoldOutTests {
    static func product(quantity: Int64, tracks: Bool = true, negative: Bool = false) -> Product {
        Product(id: ProductID(1), details: ProductDetails(name: "Tea", tracksStock: tracks, allowsNegativeStock: negative),
                stock: LedgerBalance(quantity: Quantity(quantity), value: .zero, averageCost: .zero), createdAt: 0, updatedAt: 0)
    }

    @Test func onlyATrackedProductWithNothingLeftThatMayNotGoNegativeIsSoldOut() {
        #expect(Self.product(quantity: 0).isSoldOut)
        #expect(Self.product(quantity: -2).isSoldOut)
        #expect(!Self.product(quantity: 1).isSoldOut)
        #expect(!Self.product(quantity: 0, negative: true).isSoldOut)
        #expect(!Self.product(quantity: 0, tracks: false).isSoldOut)
    }
}

@Suite struct MovementUnitCostTests {
    @Test func aMovementsUnitCostIsItsValueOverItsQuantityAtTheAveragesPrecision() {
        func movement(_ quantity: Int64, _ value: Int64) -> StockMovement {
            StockMovement(id: MovementID(1), productID: ProductID(1), kind: .sale, documentID: 1,
                          position: LedgerPosition(effectiveAt: 0, sequence: 1, lineNo: 0), recordedAt: 0, quantity: Quantity(quantity),
                          unitAmount: .zero, revenue: .zero, tax: .zero, valueChange: Money(minorUnits: value), costAdjustment: .zero,
                          balance: LedgerBalance(quantity: .zero, value: .zero, averageCost: .zero))
        }
        #expect(movement(-3, -1_000).unitCost == UnitCost(scaled: 3_333_333))  // 10.00 / 3 = 3.333333
        #expect(movement(4, 1_100).unitCost == UnitCost(scaled: 2_750_000))
        #expect(movement(0, 50).unitCost == nil)
    }
}
