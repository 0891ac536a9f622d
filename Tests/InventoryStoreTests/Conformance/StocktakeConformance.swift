import Foundation
import InventoryDomain
import Testing

/// Count sheets: counted while the till sells, posted as one adjustment whose lines apply at each count's instant.
@Suite struct StocktakeConformance {
    @Test(arguments: Backend.ported)
    func aPostedCountAppliesAtItsInstantSoALaterSaleStillCounts(backend: Backend) async throws {
        let shop = try await Fixtures.refusalShop(backend)  // 5 beans at 4.00; milk never bought
        let beans = shop.beans.id
        let sheet = try await shop.store.openStocktake(scope: .all, note: " back room ")
        #expect(sheet.status == .open && sheet.note == "back room" && sheet.lines.map(\.productName) == ["Beans", "Milk"])
        #expect(sheet.totals.uncounted == 2 && sheet.totals.counted == 0)
        // Two scans, then a typed figure replaces them.
        _ = try await shop.store.countStocktake(sheet.id, productID: beans, entry: .scanned)
        let scanned = try await shop.store.countStocktake(sheet.id, productID: beans, entry: .scanned)
        #expect(scanned.lines.first { $0.productID == beans }?.counted == qty(2))
        let typed = try await shop.store.countStocktake(sheet.id, productID: beans, entry: .typed(qty(3)))
        let line = try #require(typed.lines.first { $0.productID == beans })
        #expect(line.counted == qty(3) && line.stockAtCount == qty(5) && line.variance == qty(-2) && line.varianceValue == eur("-8.00"))
        #expect(typed.totals.counted == 1 && typed.totals.uncounted == 1 && typed.totals.shortageValue == eur("-8.00"))
        // The till sells one bean after the count.
        try await Task.sleep(for: .milliseconds(5))
        _ = try await shop.store.postSale(SaleDraft(effectiveAt: .now, lines: [.init(productID: beans, quantity: qty(1))]))
        let posted = try await shop.store.postStocktake(sheet.id, by: "manager")
        #expect(posted.status == .posted && posted.closedBy == "manager" && posted.closedAt != nil)
        let adjustment = try #require(posted.adjustmentID)
        // 3 counted, 1 sold since: 2 left; the count's line is −2, dated when the beans were counted.
        #expect(try await shop.store.product(beans).stock.quantity == qty(2))
        let movements = try await shop.store.movements(productID: beans).filter { $0.documentID == adjustment.rawValue }
        #expect(movements.count == 1 && movements[0].quantity == qty(-2) && movements[0].reason == .count)
        #expect(movements[0].position.effectiveAt == line.countedAt?.milliseconds)
        // The posted sheet reads back as it closed, uncounted milk included.
        let report = try await shop.store.stocktake(sheet.id)
        #expect(report == posted && report.totals.uncounted == 1 && report.totals.varianceValue == eur("-8.00"))
        #expect(try await shop.store.stocktakes(limit: 10, offset: 0).map(\.status) == [.posted])
    }

    @Test(arguments: Backend.ported)
    func countsAtTheBooksFigureBookNothingButStillPost(backend: Backend) async throws {
        let shop = try await Fixtures.refusalShop(backend)
        let sheet = try await shop.store.openStocktake(scope: .all, note: "")
        _ = try await shop.store.countStocktake(sheet.id, productID: shop.beans.id, entry: .typed(qty(5)))
        let posted = try await shop.store.postStocktake(sheet.id, by: "manager")
        #expect(posted.status == .posted && posted.adjustmentID == nil && posted.totals.differing == 0)
        #expect(try await shop.store.product(shop.beans.id).stock.quantity == qty(5))
    }

    @Test(arguments: Backend.ported)
    func aCategorySheetCoversItsCategoryAndCancellingBooksNothing(backend: Backend) async throws {
        let store = try await backend.make()
        let (drinks, ids) = try await Fixtures.drinksShop(store)  // Cola, Water, Juice in Drinks; Lemonade without
        let sheet = try await store.openStocktake(scope: .category(drinks.id), note: "")
        #expect(sheet.scopeName == "Drinks" && sheet.lines.map(\.productName) == ["Cola", "Juice", "Water"])
        try await expectRefusal(store, .invalidValue, field: "productId") {
            _ = try await store.countStocktake(sheet.id, productID: ids[3], entry: .scanned)
        }
        _ = try await store.countStocktake(sheet.id, productID: ids[0], entry: .typed(qty(40)))
        let before = try await store.product(ids[0]).stock
        let cancelled = try await store.cancelStocktake(sheet.id, by: "manager")
        #expect(cancelled.status == .cancelled && cancelled.adjustmentID == nil && cancelled.lines.count == 3)
        #expect(try await store.product(ids[0]).stock == before)
        // A sheet whose category is later deleted reads back with no category (schemathesis found it answered id 0).
        let shelf = try await store.createCategory(Category(id: CategoryID(0), name: "Shelf B"))
        let emptySheet = try await store.openStocktake(scope: .category(shelf.id), note: "")
        _ = try await store.cancelStocktake(emptySheet.id, by: "manager")
        try await store.deleteCategory(shelf.id)
        let orphan = try await store.stocktake(emptySheet.id)
        #expect(orphan.scope == .category(nil) && orphan.scope.categoryID == nil && orphan.scopeName == "Deleted category")
    }

    @Test(arguments: Backend.ported)
    func badCountsAndPostingsAreRefusedAndChangeNothing(backend: Backend) async throws {
        let shop = try await Fixtures.refusalShop(backend)
        try await expectRefusal(shop.store, .notFound, field: "categoryId") {
            _ = try await shop.store.openStocktake(scope: .category(CategoryID(999)), note: "")
        }
        try await expectRefusal(shop.store, .invalidValue, field: "note") {
            _ = try await shop.store.openStocktake(scope: .all, note: String(repeating: "n", count: 5000))
        }
        let sheet = try await shop.store.openStocktake(scope: .all, note: "")
        try await expectRefusal(shop.store, .notFound, field: "id") {
            _ = try await shop.store.countStocktake(StocktakeID(999), productID: shop.beans.id, entry: .scanned)
        }
        try await expectRefusal(shop.store, .notFound, field: "productId") {
            _ = try await shop.store.countStocktake(sheet.id, productID: ProductID(999), entry: .scanned)
        }
        try await expectRefusal(shop.store, .invalidValue, field: "quantity") {
            _ = try await shop.store.countStocktake(sheet.id, productID: shop.beans.id, entry: .typed(qty(-1)))
        }
        try await expectRefusal(shop.store, .missingValue, field: "lines") {
            _ = try await shop.store.postStocktake(sheet.id, by: "manager")
        }
        _ = try await shop.store.countStocktake(sheet.id, productID: shop.beans.id, entry: .typed(qty(1)))
        _ = try await shop.store.postStocktake(sheet.id, by: "manager")
        try await expectRefusal(shop.store, .conflict, field: "status") {
            _ = try await shop.store.postStocktake(sheet.id, by: "manager")
        }
        try await expectRefusal(shop.store, .conflict, field: "status") {
            _ = try await shop.store.countStocktake(sheet.id, productID: shop.beans.id, entry: .scanned)
        }
        try await expectRefusal(shop.store, .conflict, field: "status") {
            _ = try await shop.store.cancelStocktake(sheet.id, by: "manager")
        }
    }

    @Test(arguments: Backend.ported)
    func anExpiredLotIsWrittenOffOnceForWhatIsLeft(backend: Backend) async throws {
        let shop = try await Fixtures.refusalShop(backend)  // 5 beans without a lot
        let beans = shop.beans.id
        _ = try await shop.store.postPurchase(PurchaseDraft(effectiveAt: at(20260105), lines: [
            .init(productID: beans, quantity: qty(3), unitCost: eur("4.00"), lotCode: "L7", expiryDate: "2026-02-01")]))
        _ = try await shop.store.postSale(SaleDraft(effectiveAt: at(20260106), lines: [.init(productID: beans, quantity: qty(6))]))
        // First in, first out: the 6 sold took the 5 older beans and one of lot L7, so 2 of it are left.
        try await expectRefusal(shop.store, .notFound, field: "lotCode") {
            _ = try await shop.store.writeOffLot(productID: beans, lotCode: "L8", expiryDate: nil)
        }
        let id = try await shop.store.writeOffLot(productID: beans, lotCode: "L7", expiryDate: "2026-02-01")
        let movement = try #require(try await shop.store.movements(productID: beans).first { $0.documentID == id.rawValue })
        #expect(movement.quantity == qty(-2) && movement.reason == .expired)
        #expect(try await shop.store.product(beans).stock.quantity == .zero)
        try await expectRefusal(shop.store, .invalidValue, field: "lotCode") {
            _ = try await shop.store.writeOffLot(productID: beans, lotCode: "L7", expiryDate: nil)
        }
    }
}
