import Foundation
import InventoryDomain
import Testing

/// The audit log's sentences (issue 10, defect 7): built once, in the domain, from an activity's fields.
@Suite struct ActivitySentenceTests {
    let ada = Agent(userID: UserID(1), username: "ada")

    func line(_ id: Int64, _ name: String, _ quantity: Quantity, unit: Money = .zero, revenue: Money = .zero, tax: Money = .zero,
              value: Money = .zero) -> ShopActivity.DocumentLine {
        ShopActivity.DocumentLine(productID: ProductID(id), productName: name, quantity: quantity, unitAmount: unit, revenue: revenue, tax: tax,
                                  valueChange: value)
    }

    @Test func aSaleNamesItsItemsTotalAndNumber() {
        let sale = ShopActivity.document(
            .recorded, .sale, id: 12,
            lines: [self.line(1, "Flat white", Quantity(-2), revenue: Money(minorUnits: 560), tax: Money(minorUnits: 40), value: Money(minorUnits: -180)),
                    self.line(2, "Bun", Quantity(-1), revenue: Money(minorUnits: 300), tax: Money(minorUnits: 20), value: Money(minorUnits: -90))],
            tip: Money(minorUnits: 20), by: self.ada, currency: .eur)
        #expect(sale.sentence == "ada sold 3 items for €9.40 (sale #12)")
        #expect(sale.kind == .saleRecorded)
        #expect(sale.record == ShopActivity.Record(.sale, 12))
        #expect(sale.productIDs == [ProductID(1), ProductID(2)])
        #expect(sale.figures == ShopActivity.Figures(lines: 2, items: Quantity(3), total: Money(minorUnits: 940),
                                                     costOfGoodsSold: Money(minorUnits: 270), tax: Money(minorUnits: 60)))
        let toBob = ShopActivity.document(.recorded, .sale, id: 13, lines: [self.line(1, "Flat white", Quantity(-1), revenue: Money(minorUnits: 290))],
                                          party: "Bob", by: self.ada, currency: .eur)
        #expect(toBob.sentence == "ada sold 1 × Flat white to Bob for €2.90 (sale #13)")
        let deleted = ShopActivity.document(.deleted, .sale, id: 13, lines: [self.line(1, "Flat white", Quantity(-1), revenue: Money(minorUnits: 290))],
                                            by: self.ada, currency: .eur)
        #expect(deleted.sentence == "ada deleted sale #13 (1 × Flat white for €2.90)")
        let changed = ShopActivity.document(.changed, .sale, id: 13, lines: [self.line(1, "Flat white", Quantity(-2), revenue: Money(minorUnits: 580))],
                                            by: self.ada, currency: .eur)
        #expect(changed.sentence == "ada changed sale #13: now 2 × Flat white for €5.80")
    }

    @Test func aPurchaseNamesWhatCameFromWhomAtWhatCost() {
        let purchase = ShopActivity.document(.recorded, .purchase, id: 4, lines: [self.line(7, "Flat white beans", Quantity(24), unit: Money(minorUnits: 275))],
                                             party: "Roastery Nord", by: self.ada, currency: .eur)
        #expect(purchase.sentence == "ada received 24 × Flat white beans from Roastery Nord for €66.00 (purchase #4)")
        #expect(purchase.figures.total == Money(minorUnits: 6600))
        // Extended per line and rounded as the books round: 1.5 × 0.33 = 0.495 → 0.50.
        let half = ShopActivity.document(.recorded, .purchase, id: 5,
                                         lines: [self.line(7, "Beans", Quantity(thousandths: 1500), unit: Money(minorUnits: 33)),
                                                 self.line(8, "Milk", Quantity(1), unit: Money(minorUnits: 100))],
                                         by: self.ada, currency: .eur)
        #expect(half.sentence == "ada received 2.5 items for €1.50 (purchase #5)")
    }

    @Test func returnsAndAdjustmentsSayWhichWayTheStockWent() {
        let back = ShopActivity.document(.recorded, .customerReturn, id: 14,
                                         lines: [self.line(1, "Flat white", Quantity(1), revenue: Money(minorUnits: -290), tax: Money(minorUnits: -20))],
                                         saleID: SaleID(12), by: self.ada, currency: .eur)
        #expect(back.sentence == "ada took back 1 × Flat white from sale #12, refunding €3.10 (customer return #14)")
        #expect(back.related == ShopActivity.Record(.sale, 12))
        let sent = ShopActivity.document(.recorded, .supplierReturn, id: 15, lines: [self.line(7, "Beans", Quantity(-2), value: Money(minorUnits: -550))],
                                         party: "Roastery Nord", by: self.ada, currency: .eur)
        #expect(sent.sentence == "ada sent 2 × Beans back to Roastery Nord worth €5.50 (supplier return #15)")
        let damaged = ShopActivity.document(.recorded, .adjustment, id: 16, lines: [self.line(1, "Mug", Quantity(-2), value: Money(minorUnits: -400))],
                                            reason: .damage, by: self.ada, currency: .eur)
        #expect(damaged.sentence == "ada adjusted the stock of Mug by -2 for damage (adjustment #16)")
        #expect(damaged.figures.quantityChange == Quantity(-2) && damaged.figures.total == Money(minorUnits: -400))
        let counted = ShopActivity.document(.deleted, .adjustment, id: 17, lines: [self.line(1, "Mug", Quantity(thousandths: 1500))],
                                            reason: .count, by: self.ada, currency: .eur)
        #expect(counted.sentence == "ada deleted adjustment #17 (Mug +1.5 after a count)")
        let stocktake = [self.line(1, "Mug", Quantity(-2)), self.line(2, "Cup", Quantity(3))]
        #expect(ShopActivity.document(.recorded, .adjustment, id: 18, lines: stocktake, reason: .count, by: self.ada, currency: .eur).sentence
                == "ada adjusted the stock of 2 products after a count (adjustment #18)")
        #expect(ShopActivity.document(.deleted, .adjustment, id: 18, lines: stocktake, reason: .count, by: self.ada, currency: .eur).sentence
                == "ada deleted adjustment #18 (2 products after a count)")
    }

    @Test func aPriceChangeIsSpelledOut() {
        let old = ProductDetails(name: "Flat white", salePrice: Money(minorUnits: 290))
        var new = old
        new.salePrice = Money(minorUnits: 310)
        let changes = ShopActivity.Change.between(old, new) { _ in nil }
        #expect(changes == [ShopActivity.Change(.salePrice, from: .money(Money(minorUnits: 290)), to: .money(Money(minorUnits: 310)))])
        let activity = ShopActivity(.productChanged, by: self.ada, record: .init(.product, 3), productIDs: [ProductID(3)], subject: "Flat white",
                                    changes: changes, currency: .eur)
        #expect(activity.sentence == "ada changed the sale price of Flat white from €2.90 to €3.10")
    }

    @Test func severalChangesAreListedAndSingleOnesReadNaturally() {
        let categories = [CategoryID(1): "Coffee", CategoryID(2): "Tea"]
        let old = ProductDetails(name: "Flat white", barcode: "4006381333931", categoryID: CategoryID(1), salePrice: Money(minorUnits: 290))
        var new = old
        new.barcode = nil
        new.categoryID = CategoryID(2)
        new.sku = "FW-1"
        new.taxRate = Percent(hundredths: 700)
        let changes = ShopActivity.Change.between(old, new) { categories[$0] }
        let several = ShopActivity(.productChanged, by: self.ada, subject: "Flat white", changes: changes, currency: .eur)
        #expect(several.sentence == "ada changed Flat white: tax rate 0% → 7%, SKU set to FW-1, barcode cleared, category Coffee → Tea")

        func one(_ change: ShopActivity.Change, _ kind: ShopActivity.Kind = .productChanged, subject: String = "Flat white") -> String {
            ShopActivity(kind, by: self.ada, record: kind == .categoryChanged ? .init(.category, 1) : nil, subject: subject, changes: [change],
                         currency: .eur).sentence
        }
        #expect(one(.init(.archived, from: .flag(false), to: .flag(true))) == "ada archived Flat white")
        #expect(one(.init(.archived, from: .flag(true), to: .flag(false))) == "ada restored Flat white")
        #expect(one(.init(.barcode, from: .none, to: .text("123"))) == "ada set the barcode of Flat white to 123")
        #expect(one(.init(.barcode, from: .text("123"), to: .none)) == "ada cleared the barcode of Flat white")
        #expect(one(.init(.tracksStock, from: .flag(true), to: .flag(false))) == "ada turned stock tracking off for Flat white")
        #expect(one(.init(.picture, from: .none, to: .hidden("a.jpg"))) == "ada added a picture to Flat white")
        #expect(one(.init(.picture, from: .hidden("a.jpg"), to: .none)) == "ada removed the picture of Flat white")
        #expect(one(.init(.picture, from: .hidden("a.jpg"), to: .hidden("b.jpg"))) == "ada replaced the picture of Flat white")
        #expect(one(.init(.color, from: .text("#111"), to: .text("#222")), .categoryChanged, subject: "Coffee")
                == "ada changed the colour of the category Coffee from #111 to #222")
        #expect(ShopActivity(.productChanged, by: self.ada, subject: "Mug", currency: .eur).sentence == "ada saved Mug without changes")
        #expect(ShopActivity.Change.between(pictures: ["a"], ["b", "a"]).first?.field == .picture)
        #expect(ShopActivity.Change.between(pictures: ["a"], ["a", "b"]) == [.init(.pictures, from: .number(1), to: .number(2))])
        #expect(ShopActivity.Change.between(pictures: ["a"], ["a"]).isEmpty)
    }

    @Test func settingsContactsAndCategoriesName() {
        var new = ShopSettings()
        new.timeZoneIdentifier = "Europe/Berlin"
        let one = ShopActivity(.settingsChanged, by: self.ada, changes: ShopActivity.Change.between(ShopSettings(), new), currency: .eur)
        #expect(one.sentence == "ada changed the time zone from UTC to Europe/Berlin")
        new.lowStockDefault = Quantity(3)
        new.lockMinutes = 10
        let two = ShopActivity(.settingsChanged, by: self.ada, changes: ShopActivity.Change.between(ShopSettings(), new), currency: .eur)
        #expect(two.sentence == "ada changed the settings: time zone UTC → Europe/Berlin, default low-stock threshold 5 → 3, minutes before the till locks 5 → 10")

        let before = Contact<Supplier>(id: SupplierID(1), name: "Roastery Nord", location: "", phone: "", email: "", note: "")
        var after = before
        after.phone = "+49 40 123"
        let contact = ShopActivity(.supplierChanged, by: self.ada, record: .init(.supplier, 1), subject: "Roastery Nord",
                                   changes: ShopActivity.Change.between(before, after), currency: .eur)
        #expect(contact.sentence == "ada set the phone of the supplier Roastery Nord to +49 40 123")
        #expect(ShopActivity(.customerCreated, by: self.ada, record: .init(.customer, 2), subject: "Bob", currency: .eur).sentence
                == "ada added the customer Bob")
        #expect(ShopActivity(.categoryDeleted, by: self.ada, record: .init(.category, 2), subject: "Tea", currency: .eur).sentence
                == "ada deleted the category Tea")
        #expect(ShopActivity(.productCreated, by: self.ada, subject: "Mug", figures: .init(price: Money(minorUnits: 1250)), currency: .eur).sentence
                == "ada added the product Mug at €12.50")
        #expect(ShopActivity(.productsImported, by: .system, figures: .init(created: 3, updated: 2), currency: .eur).sentence
                == "system imported products: 3 added, 2 updated")
        #expect(ShopActivity(.salesImported, by: .system, figures: .init(total: Money(minorUnits: 123_456), count: 1), currency: .eur).sentence
                == "system imported 1 sale for €1,234.56")
    }

    @Test func staffActivitiesNameTheAccountNeverItsSecrets() {
        let clerk = StaffAccount(id: UserID(2), username: "clerk", displayName: "Clerk", role: .staff, passwordHash: "$2b$old", pinHash: nil)
        var promoted = clerk
        promoted.role = .manager
        promoted.passwordHash = "$2b$new"
        let changes = ShopActivity.Change.between(clerk, promoted)
        let both = ShopActivity(.userChanged, by: self.ada, record: .init(.user, 2), subject: "clerk", changes: changes, currency: .eur)
        #expect(both.sentence == "ada changed clerk: role staff → manager, new password")
        #expect(!both.sentence.contains("$2b"))
        var off = clerk
        off.isActive = false
        #expect(ShopActivity(.userChanged, by: self.ada, subject: "clerk", changes: ShopActivity.Change.between(clerk, off), currency: .eur).sentence
                == "ada deactivated clerk")
        var pin = clerk
        pin.pinHash = "$2b$pin"
        #expect(ShopActivity(.userChanged, by: self.ada, subject: "clerk", changes: ShopActivity.Change.between(clerk, pin), currency: .eur).sentence
                == "ada set a new PIN for clerk")
        #expect(ShopActivity(.userChanged, by: self.ada, subject: "clerk", changes: ShopActivity.Change.between(pin, clerk), currency: .eur).sentence
                == "ada removed the PIN of clerk")
        #expect(ShopActivity(.tokenCreated, by: self.ada, record: .init(.token, 5), subject: "till", party: "clerk", currency: .eur).sentence
                == "ada created API token #5 'till' for clerk")
        #expect(ShopActivity(.tokenRevoked, by: self.ada, record: .init(.token, 5), subject: "till", currency: .eur).sentence
                == "ada revoked API token #5 'till'")
        #expect(ShopActivity.staff(.tillUnlocked, by: self.ada).sentence == "ada unlocked the till")
        #expect(ShopActivity.staff(.tillUnlocked, by: self.ada, party: "bob").sentence == "ada took over the till from bob")
        #expect(ShopActivity.staff(.sessionsEnded, by: self.ada, user: (UserID(2), "clerk"), count: 2).sentence
                == "ada ended 2 sessions and tokens of clerk after a new password or PIN")
        #expect(ShopActivity(.userCreated, by: self.ada, subject: "clerk", changes: [.init(.role, from: .none, to: .text("staff"))], currency: .eur)
                .sentence == "ada added the account clerk as staff")
        #expect(ShopActivity(.firstAdminCreated, by: self.ada, currency: .eur).sentence == "ada set up the shop as its first admin")
        #expect(ShopActivity(.backupRestored, by: self.ada, currency: .eur).sentence == "ada restored a backup")
    }

    @Test func amountsReadInTheShopsCurrency() {
        #expect(Money(minorUnits: 940).formatted(.eur) == "€9.40")
        #expect(Money(minorUnits: -200).formatted(.usd) == "-$2.00")
        #expect(Money(minorUnits: 123_456_789).formatted(.usd) == "$1,234,567.89")
        #expect(Money(minorUnits: 300).formatted(.jpy) == "¥300")
        #expect(Money(minorUnits: 1250).formatted(.kwd) == "KWD 1.250")
        #expect(Money(minorUnits: 940).formatted(Currency(code: "CHF", minorUnits: 2)) == "CHF 9.40")
        #expect(Money(minorUnits: Int64.min).formatted(.eur).hasPrefix("-€"))
    }

    @Test func kindsSayWhichLiveEventsTheyCause() {
        #expect(ShopActivity.Kind.saleRecorded.changesSales && ShopActivity.Kind.saleRecorded.changesProducts)
        #expect(!ShopActivity.Kind.purchaseRecorded.changesSales && ShopActivity.Kind.purchaseRecorded.changesProducts)
        #expect(!ShopActivity.Kind.tokenCreated.changesProducts && !ShopActivity.Kind.supplierChanged.changesProducts)
        for kind in MovementKind.allCases {
            for verb in [ShopActivity.Kind.Verb.recorded, .changed, .deleted] {
                #expect(ShopActivity.Kind.document(kind, verb).changesProducts)
            }
        }
        #expect(ShopActivity.Record.Kind.allCases.allSatisfy { !$0.label.isEmpty })
        #expect(ShopActivity.Change.Field.allCases.allSatisfy { !$0.label.isEmpty })
    }

    @Test func storedFiguresRoundTripExactly() {
        let figures = ShopActivity.Figures(lines: 2, items: Quantity(thousandths: 1500), total: Money(minorUnits: -940), costOfGoodsSold: Money(minorUnits: 3),
                                           tax: Money(minorUnits: 1), quantityChange: Quantity(-2), price: Money(minorUnits: 5), count: 7, created: 1,
                                           updated: 0)
        #expect(ShopActivity.Figures(stored: figures.stored) == figures)
        #expect(ShopActivity.Figures(stored: [:]) == ShopActivity.Figures())
    }

    @Test func olderAuditEntriesStillReadAsSentences() {
        let old = AuditEntry(id: 1, at: 0, userID: UserID(1), username: "ada", action: "POST /api/v1/sales", detail: "status 201")
        #expect(old.kind == nil)
        #expect(old.sentence == "ada: POST /api/v1/sales (status 201)")
        let new = AuditEntry(id: 2, at: 0, userID: nil, username: "system", action: "saleRecorded", detail: "system sold 1 item for €1.00 (sale #1)")
        #expect(new.kind == .saleRecorded && new.sentence == "system sold 1 item for €1.00 (sale #1)")
    }

    @Test func theAgentIsTaskLocal() async {
        #expect(Agent.current == .system)
        await Agent.$current.withValue(self.ada) {
            #expect(Agent.current == self.ada)
            await Task { #expect(Agent.current == self.ada) }.value
        }
        #expect(Agent.commandLine(user: "pk").username == "pk (command line)")
        #expect(Agent.commandLine(user: "").username == "command line")
        #expect(Agent(StaffAccount(id: UserID(4), username: "bob", displayName: "", role: .staff, passwordHash: "", pinHash: nil)).userID == UserID(4))
    }

    @Test func theFeedTellsObserversUntilTheyStop() {
        let feed = ActivityFeed()
        let seen = ActivityCounter()
        var observation: ActivityFeed.Observation? = feed.observe { seen.add($0.count) }
        let activity = ShopActivity(.backupRestored, by: .system, currency: .eur)
        feed.publish([activity, activity])
        feed.publish([])
        #expect(seen.total == 2 && feed.observerCount == 1)
        observation?.cancel()
        feed.publish([activity])
        #expect(seen.total == 2 && feed.observerCount == 0)
        observation = feed.observe { seen.add($0.count) }
        #expect(feed.observerCount == 1)
        observation = nil
        #expect(feed.observerCount == 0, "a released observation stops its observer")
    }

    @Test func aMissedSignalReachesTheObserversThatAskedForItUntilTheyStop() {
        let feed = ActivityFeed()
        let seen = ActivityCounter()
        let missed = ActivityCounter()
        var observation: ActivityFeed.Observation? = feed.observe({ seen.add($0.count) }, missed: { missed.add(1) })
        let plain = feed.observe { seen.add($0.count) }
        feed.publishMissed()
        feed.publishMissed()
        #expect(missed.total == 2 && seen.total == 0, "a missed signal is no activity")
        observation?.cancel()
        feed.publishMissed()
        #expect(missed.total == 2)
        observation = nil
        _ = plain
    }
}

final class ActivityCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ value: Int) { self.lock.withLock { self.count += value } }
    var total: Int { self.lock.withLock { self.count } }
}
