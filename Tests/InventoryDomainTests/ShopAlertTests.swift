import Foundation
import InventoryDomain
import Testing

/// Which activities are alerts and how a notification words them; when the expiry check is due.
@Suite struct ShopAlertTests {
    let ada = Agent(userID: UserID(1), username: "ada")
    let utc = ShopCalendar(timeZone: TimeZone(identifier: "UTC")!)

    @Test func aProductGoneLowIsAnAlertThatOpensTheProduct() throws {
        let low = try #require(ShopActivity.wentLow(ProductID(3), name: "Oat milk", stock: Quantity(2), threshold: Quantity(5), by: self.ada).alert)
        #expect(low == ShopAlert(.lowStock, title: "Low stock: Oat milk", body: "2 left, threshold 5", path: "/app/products/3"))
        let out = try #require(ShopActivity.wentLow(ProductID(3), name: "Oat milk", stock: .zero, threshold: Quantity(5), by: self.ada).alert)
        #expect(out.title == "Out of stock: Oat milk")
    }

    @Test func aDrawerClosedWithADifferenceIsAnAlertAndInTheFeed() throws {
        let short = ShopActivity.drawerClosed(7, counted: Money(minorUnits: 9_500), expected: Money(minorUnits: 10_000), by: self.ada, currency: .eur)
        #expect(short.sentence == "ada closed the drawer (drawer session #7): counted €95.00, expected €100.00, €5.00 short")
        #expect(short.figures.difference == Money(minorUnits: -500))
        #expect(short.alert == ShopAlert(.cashDifference, title: "Cash difference at close", body: short.sentence, path: "/app/drawer"))
        #expect(short.feedGroup == .alerts)
        let over = ShopActivity.drawerClosed(8, counted: Money(minorUnits: 10_250), expected: Money(minorUnits: 10_000), by: self.ada, currency: .eur)
        #expect(over.sentence.hasSuffix("€2.50 over"))
        let even = ShopActivity.drawerClosed(9, counted: Money(minorUnits: 10_000), expected: Money(minorUnits: 10_000), by: self.ada, currency: .eur)
        #expect(even.sentence.hasSuffix("no difference"))
        #expect(even.alert == nil && even.feedGroup == nil)
        #expect(ShopActivity.Figures(stored: short.figures.stored) == short.figures)
    }

    @Test func expiringLotsAndARefusedRestoreAreAlerts() throws {
        let lots = [("Milk", 1), ("Milk", 1), ("Croissant", 2), ("Yoghurt", 3), ("Cream", 4)].map {
            ExpiringLot(productID: ProductID(Int64($0.1)), name: $0.0, lotCode: nil, expiryDate: "2026-03-02", purchasedQuantity: Quantity(1),
                        stockQuantity: Quantity(1))
        }
        let expiring = ShopActivity.lotsExpiring(lots)
        #expect(expiring.sentence == "5 lots expire within 7 days: Milk, Croissant, Yoghurt and 1 more")
        #expect(expiring.agent == .system && expiring.productIDs.count == 4)
        #expect(expiring.alert?.kind == .expiringLots && expiring.alert?.path == "/app/reports#expiring")
        #expect(expiring.feedGroup == .alerts)
        #expect(ShopActivity.lotsExpiring(Array(lots.prefix(1))).sentence == "1 lot expires within 7 days: Milk")

        let refused = ShopActivity.restoreRefused("the file is not a Stockroom backup", by: self.ada)
        #expect(refused.sentence == "ada's restore was refused: the file is not a Stockroom backup")
        #expect(refused.alert == ShopAlert(.restoreRefused, title: "Restore refused", body: refused.sentence, path: "/app/backup"))
        #expect(refused.feedGroup == .alerts)
        let failed = ShopActivity.backupFailed("it could not be written: disk full")
        #expect(failed.sentence == "A backup failed: it could not be written: disk full" && failed.agent == .system)
        #expect(failed.alert == ShopAlert(.backupFailed, title: "Backup failed", body: failed.sentence, path: "/app/backup"))
        #expect(failed.feedGroup == .alerts && !failed.kind.changesProducts)
        // Most activities are not alerts.
        #expect(ShopActivity(.saleRecorded, by: self.ada, currency: .eur).alert == nil)
    }

    @Test func onlyManagersAndAdminsReceiveAlerts() {
        #expect(!ShopAlert.mayReceive(.staff))
        #expect(ShopAlert.mayReceive(.manager) && ShopAlert.mayReceive(.admin))
    }

    @Test func theExpiryCheckRunsOncePerShopDay() {
        let morning = Instant(milliseconds: 1_772_323_200_000 + 8 * 3_600_000)  // 2026-03-01 08:00 UTC
        #expect(ExpiryCheck.isDue(lastRecorded: nil, now: morning, calendar: self.utc))
        #expect(!ExpiryCheck.isDue(lastRecorded: morning, now: Instant(milliseconds: morning.milliseconds + 15 * 3_600_000), calendar: self.utc))
        #expect(ExpiryCheck.isDue(lastRecorded: morning, now: Instant(milliseconds: morning.milliseconds + 16 * 3_600_000), calendar: self.utc))
        #expect(ExpiryCheck.through(now: morning, calendar: self.utc) == "2026-03-08")
    }
}
