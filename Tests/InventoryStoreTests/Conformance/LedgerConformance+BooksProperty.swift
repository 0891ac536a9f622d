import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Random operation sequences (purchases, sales, returns, adjustments, edits, deletes, back-dating) against a real
    /// store, checking the invariants of the books after each sequence.
    @Suite struct BooksPropertyTests {
        /// Sequences per backend; `STOCKROOM_PROPERTY_RUNS` raises or lowers it.
        static let runs = ProcessInfo.processInfo.environment["STOCKROOM_PROPERTY_RUNS"].flatMap { Int($0) } ?? 1_000
        /// Sequences on PostgreSQL; `STOCKROOM_PG_PROPERTY_RUNS` raises or lowers it. 100 by default: a history there costs
        /// about 2.5 s on a loaded 2-core machine (a schema migrated for each, and a round trip per statement), so the
        /// issue's 1,000 take some 40 minutes; run them with STOCKROOM_PG_PROPERTY_RUNS=1000.
        static let postgresRuns = ProcessInfo.processInfo.environment["STOCKROOM_PG_PROPERTY_RUNS"].flatMap { Int($0) } ?? 100

        /// A document as the test's model remembers it, to enter again into an empty database.
        enum Document {
            case purchase(PurchaseDraft)
            case sale(SaleDraft)
            case adjustment(AdjustmentDraft)
            case supplierReturn(SupplierReturnDraft)
            case customerReturn(saleID: Int64, date: Instant, lines: [(lineNo: Int, quantity: Quantity)])

            var effectiveAt: Instant {
                switch self {
                case .purchase(let draft): draft.effectiveAt
                case .sale(let draft): draft.effectiveAt
                case .adjustment(let draft): draft.effectiveAt
                case .supplierReturn(let draft): draft.effectiveAt
                case .customerReturn(_, let date, _): date
                }
            }
        }

        static let products = [
            ProductDetails(name: "Beans", salePrice: Money(minorUnits: 900)),
            ProductDetails(name: "Milk", unit: "l", salePrice: Money(minorUnits: 150), taxRate: Percent(hundredths: 700)),
            ProductDetails(name: "Flour", unit: "kg", salePrice: Money(minorUnits: 200), allowsNegativeStock: true),
            ProductDetails(name: "Service", salePrice: Money(minorUnits: 500), tracksStock: false),
            // A recipe (``recipe``): selling it issues beans and milk.
            ProductDetails(name: "Latte", salePrice: Money(minorUnits: 350), tracksStock: false),
        ]

        /// The latte's recipe: 0.018 of beans and 0.2 of milk a cup (products 0 and 1).
        static func recipe(_ ids: [ProductID]) -> [RecipeComponent] {
            [RecipeComponent(ingredientID: ids[0], quantity: Quantity(thousandths: 18)), RecipeComponent(ingredientID: ids[1], quantity: Quantity(thousandths: 200))]
        }

        @Test(arguments: [Backend.sqliteMemory])
        func randomSequencesKeepTheBooksExactAndOrderIndependent(backend: Backend) async throws {
            var approvals = 0
            for seed in 0..<UInt64(Self.runs) {
                approvals += try await self.run(seed: seed, backend: backend)
            }
            // The histories do exercise sales approved beyond the stock on record.
            #expect(Self.runs < 20 || approvals > Self.runs / 10, "only \(approvals) approved sales in \(Self.runs) histories")
        }

        @Test(arguments: [Backend.sqliteFile])
        func randomSequencesOnAFile(backend: Backend) async throws {
            for seed in 0..<UInt64(max(1, Self.runs / 50)) {
                try await self.run(seed: seed &+ 7_777_777, backend: backend)
            }
        }

        /// The same histories on PostgreSQL (each in a schema of its own), checked against the same model.
        @Test(arguments: Backend.ported.filter { $0 == .postgres })
        func randomSequencesOnPostgres(backend: Backend) async throws {
            var approvals = 0
            for seed in 0..<UInt64(Self.postgresRuns) {
                approvals += try await self.run(seed: seed, backend: backend)
            }
            #expect(Self.postgresRuns < 20 || approvals > Self.postgresRuns / 10, "only \(approvals) approved sales in \(Self.postgresRuns) histories")
        }

        /// Runs one random history; returns how many sales a manager approved beyond the stock on record.
        @discardableResult
        func run(seed: UInt64, backend: Backend) async throws -> Int {
            var approvals = 0
            var random = SeededRandom(seed: seed)
            let store = try await backend.make()
            let zone = ["UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Tokyo"][Int(seed % 4)]
            try await store.saveSettings(ShopSettings(timeZoneIdentifier: zone))
            var ids: [ProductID] = []
            for details in Self.products { ids.append(try await store.createProduct(details).id) }
            _ = try await store.setRecipe(Self.recipe(ids), of: ids[4])
            var documents: [Int64: Document] = [:]
            let base = at(20260101)

            // Half the runs crowd 10 days (ties in effective date-time happen often), half spread over 4 months
            // (report ranges cross month ends).
            let step = seed % 2 == 0 ? 6 * 3600 : 3 * 86_400
            func randomDate() -> Instant {
                base.adding(seconds: Int64(Int.random(in: 0..<40, using: &random) * step))
            }
            func randomQuantity(_ max: Int64) -> Quantity {
                Bool.random(using: &random) ? Quantity(Int64.random(in: 1...max, using: &random))
                    : Quantity(thousandths: Int64.random(in: 1...(max * 1000), using: &random))
            }
            func randomPurchase() -> PurchaseDraft {
                PurchaseDraft(effectiveAt: randomDate(), lines: (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    .init(productID: ids.randomElement(using: &random) ?? ids[0], quantity: randomQuantity(20),
                          unitCost: Money(minorUnits: Int64.random(in: 0...1_000, using: &random)))
                })
            }
            func randomSale() -> SaleDraft {
                SaleDraft(effectiveAt: randomDate(), lines: (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    let price = Money(minorUnits: Int64.random(in: 0...2_000, using: &random))
                    return .init(productID: ids.randomElement(using: &random) ?? ids[0], quantity: randomQuantity(8), unitPrice: price,
                                 discount: Bool.random(using: &random) ? .zero : Money(minorUnits: Int64.random(in: 0...price.minorUnits / 2, using: &random)))
                }, tip: Money(minorUnits: Int64.random(in: 0...300, using: &random)))
            }

            /// Books a sale (new, or an edit of `id`); when it goes beyond the stock on record, half the time a manager
            /// approves it and it is booked again with the approval (``SaleDraft/stockApprovedBy``).
            func bookSale(_ draft: SaleDraft, editing id: Int64? = nil) async throws -> (Int64, SaleDraft) {
                func book(_ draft: SaleDraft) async throws -> Int64 {
                    let answer = if let id { try await store.updateSale(SaleID(id), draft) } else { try await store.postSale(draft) }
                    // The answer (partly made from what the booking wrote) is what a later read finds.
                    #expect(answer == (try await store.sale(answer.id)), "seed \(seed): sale \(answer.id) answered otherwise than it reads")
                    return answer.id.rawValue
                }
                do {
                    return (try await book(draft), draft)
                } catch let error as InventoryError where error.code == .insufficientStock && error.document == nil && Bool.random(using: &random) {
                    #expect(error.managerMayApprove, "seed \(seed): a sale line short of stock may be approved")
                    var approved = draft
                    approved.stockApprovedBy = "manager"
                    do {
                        let id = try await book(approved)
                        approvals += 1
                        return (id, approved)
                    } catch let refusal as InventoryError where refusal.code == .insufficientStock {
                        // Only a stored document left short may refuse an approved sale, never one of its own lines.
                        #expect(refusal.document != nil, "seed \(seed): an approved line was refused: \(refusal.debugDescription)")
                        throw refusal
                    }
                }
            }

            for _ in 0..<Int.random(in: 10...50, using: &random) {
                do {
                    switch Int.random(in: 0..<20, using: &random) {
                    case 0..<6:
                        let draft = randomPurchase()
                        documents[try await store.postPurchase(draft).id.rawValue] = .purchase(draft)
                    case 6..<11:
                        let (id, booked) = try await bookSale(randomSale())
                        documents[id] = .sale(booked)
                    case 11:
                        let sign: Int64 = Bool.random(using: &random) ? 1 : -1
                        let draft = AdjustmentDraft(
                            effectiveAt: randomDate(), productID: ids.randomElement(using: &random) ?? ids[0],
                            quantityChange: Quantity(thousandths: sign * randomQuantity(5).thousandths),
                            reason: .count, unitCost: sign > 0 && Bool.random(using: &random) ? Money(minorUnits: Int64.random(in: 0...900, using: &random)) : nil)
                        documents[try await store.postAdjustment(draft).rawValue] = .adjustment(draft)
                    case 12:
                        let draft = SupplierReturnDraft(effectiveAt: randomDate(), lines: [.init(productID: ids.randomElement(using: &random) ?? ids[0], quantity: randomQuantity(3))])
                        documents[try await store.postSupplierReturn(draft).rawValue] = .supplierReturn(draft)
                    case 13, 14:
                        let sales = documents.filter { if case .sale = $0.value { return true } else { return false } }.keys.sorted()
                        guard let saleID = sales.randomElement(using: &random) else { continue }
                        let sale = try await store.sale(SaleID(saleID))
                        let lineNo = Int.random(in: 0..<sale.lines.count, using: &random)
                        let quantity = Quantity(thousandths: Int64.random(in: 1...sale.lines[lineNo].quantity.thousandths, using: &random))
                        let date = sale.effectiveAt.adding(seconds: Int64(Int.random(in: 0..<10, using: &random) * 6 * 3600))
                        let id = try await store.postCustomerReturn(CustomerReturnDraft(
                            effectiveAt: date, saleID: sale.id, lines: [.init(saleLineID: sale.lines[lineNo].movementID, quantity: quantity)]))
                        documents[id.rawValue] = .customerReturn(saleID: saleID, date: date, lines: [(lineNo, quantity)])
                    case 15, 16:
                        guard let id = documents.keys.sorted().randomElement(using: &random) else { continue }
                        switch documents[id] {
                        case .purchase?:
                            let draft = randomPurchase()
                            _ = try await store.updatePurchase(PurchaseID(id), draft)
                            documents[id] = .purchase(draft)
                        case .sale?:
                            let (_, booked) = try await bookSale(randomSale(), editing: id)
                            documents[id] = .sale(booked)
                        default: continue
                        }
                    default:
                        guard let id = documents.keys.sorted().randomElement(using: &random) else { continue }
                        switch documents[id] {
                        case .purchase?: try await store.deletePurchase(PurchaseID(id))
                        case .sale?: try await store.deleteSale(SaleID(id))
                        case .adjustment?: try await store.deleteAdjustment(AdjustmentID(id))
                        case .supplierReturn?: try await store.deleteSupplierReturn(SupplierReturnID(id))
                        case .customerReturn?: try await store.deleteCustomerReturn(CustomerReturnID(id))
                        case nil: continue
                        }
                        documents[id] = nil
                    }
                } catch let error as InventoryError {
                    // Refusals are expected (overselling, deleting a sale with returns, returning too much) and must leave
                    // the books as they were; the comparison below proves it.
                    #expect([.insufficientStock, .inUse, .invalidValue].contains(error.code), "seed \(seed): \(error.debugDescription)")
                }
            }

            let movements = try await store.allMovements()
            if ProcessInfo.processInfo.environment["STOCKROOM_PROPERTY_STATS"] != nil {
                print("seed \(seed): \(documents.count) documents, \(movements.count) movements")
            }
            try await self.checkInvariants(movements, store: store, seed: seed)
            // A sale's cost of goods sold is the exact sum of what its lines and its recipes' ingredients issued.
            let issued = Dictionary(grouping: movements.filter { $0.kind == .sale || $0.kind == .consumption }, by: \.documentID)
            for (id, document) in documents {
                guard case .sale = document else { continue }
                let sale = try await store.sale(SaleID(id))
                #expect(sale.costOfGoodsSold == (issued[id] ?? []).reduce(Money.zero) { $0 + $1.costOfGoodsSold }, "seed \(seed): sale \(id)")
                #expect(sale.lines.count == (issued[id] ?? []).filter { $0.kind == .sale }.count, "seed \(seed): sale \(id)")
            }
            try await self.checkOrderIndependence(movements, documents: documents, zone: zone, backend: backend, seed: seed)
            try await self.checkReports(movements, store: store, seed: seed, random: &random)
            return approvals
        }

        /// (a) books balance per product; (c) no negative stock unless allowed — by the product, by a manager's approval of
        /// the sale line (``StockMovement/beyondStock``), or a receipt into stock that was already below zero; stored
        /// balances chain exactly.
        func checkInvariants(_ movements: [StockMovement], store: any TestableRepository, seed: UInt64) async throws {
            var totalIn = Money.zero, totalOut = Money.zero, totalAdjustments = Money.zero, totalValue = Money.zero
            for (productID, ledger) in Dictionary(grouping: movements, by: \.productID) {
                let product = try await store.product(productID)
                var inflow = Money.zero, issued = Money.zero, adjustments = Money.zero
                var previous = LedgerBalance.empty
                for movement in ledger.sorted(by: { $0.position < $1.position }) {
                    if movement.quantity > .zero { inflow = inflow + movement.valueChange + movement.costAdjustment } else { issued = issued - movement.valueChange }
                    adjustments = adjustments + movement.costAdjustment
                    #expect(movement.balance.quantity == previous.quantity + (product.details.tracksStock ? movement.quantity : .zero), "seed \(seed)")
                    #expect(movement.balance.value == previous.value + movement.valueChange, "seed \(seed)")
                    if !product.details.allowsNegativeStock {
                        #expect(movement.balance.quantity >= .zero || movement.beyondStock || (movement.quantity > .zero && previous.quantity < .zero),
                                "seed \(seed): \(product.name) below zero at \(movement.kind) \(movement.documentID)")
                    }
                    if movement.beyondStock {
                        #expect([.sale, .consumption].contains(movement.kind) && !product.details.allowsNegativeStock, "seed \(seed)")
                    }
                    if movement.balance.quantity == .zero { #expect(movement.balance.value == .zero, "seed \(seed)") }
                    previous = movement.balance
                }
                #expect(inflow == issued + adjustments + previous.value, "seed \(seed): books of \(product.name) do not balance")
                #expect(product.stock == previous, "seed \(seed): cached balance of \(product.name)")
                totalIn = totalIn + inflow
                totalOut = totalOut + issued
                totalAdjustments = totalAdjustments + adjustments
                totalValue = totalValue + previous.value
            }
            #expect(totalIn == totalOut + totalAdjustments + totalValue, "seed \(seed): books do not balance in total")
        }

        /// (b) the ledger equals the one built by entering the final documents in date order into an empty database.
        func checkOrderIndependence(_ movements: [StockMovement], documents: [Int64: Document], zone: String, backend: Backend, seed: UInt64) async throws {
            let fresh = try await backend.make()
            try await fresh.saveSettings(ShopSettings(timeZoneIdentifier: zone))
            var ids: [ProductID] = []
            for details in Self.products { ids.append(try await fresh.createProduct(details).id) }
            _ = try await fresh.setRecipe(Self.recipe(ids), of: ids[4])
            var saleIDs: [Int64: SaleID] = [:]
            let ordered = documents.sorted { ($0.value.effectiveAt, $0.key) < ($1.value.effectiveAt, $1.key) }
            for (oldID, document) in ordered {
                switch document {
                case .purchase(let draft): _ = try await fresh.postPurchase(draft)
                case .sale(let draft): saleIDs[oldID] = try await fresh.postSale(draft).id
                case .adjustment(let draft): _ = try await fresh.postAdjustment(draft)
                case .supplierReturn(let draft): _ = try await fresh.postSupplierReturn(draft)
                case .customerReturn(let saleID, let date, let lines):
                    let sale = try await fresh.sale(try #require(saleIDs[saleID]))
                    _ = try await fresh.postCustomerReturn(CustomerReturnDraft(
                        effectiveAt: date, saleID: sale.id, lines: lines.map { .init(saleLineID: sale.lines[$0.lineNo].movementID, quantity: $0.quantity) }))
                }
            }
            func shape(_ list: [StockMovement]) -> [String] {
                list.sorted { ($0.productID, $0.position) < ($1.productID, $1.position) }.map {
                    "\($0.productID) \($0.position.effectiveAt) \($0.kind) \($0.quantity.thousandths) \($0.valueChange.minorUnits) \($0.costAdjustment.minorUnits) \($0.balance)"
                }
            }
            let rebuilt = try await fresh.allMovements()
            #expect(shape(movements) == shape(rebuilt), "seed \(seed): ledger depends on entry order")
        }

        /// Every SQL report equals its pure fold over the movements.
        func checkReports(_ movements: [StockMovement], store: any TestableRepository, seed: UInt64, random: inout SeededRandom) async throws {
            var names: [ProductID: String] = [:]
            for product in try await store.products(ProductQuery(includeArchived: true)).products { names[product.id] = product.name }
            let base = at(20260101)
            for _ in 0..<3 {
                let moment = base.adding(seconds: Int64(Int.random(in: -1..<50, using: &random) * 3 * 3600))
                #expect(try await store.snapshot(at: moment) == ReportFolds.snapshot(movements: movements, names: names, at: moment), "seed \(seed)")
            }
            let calendar = try await store.settings().calendar
            let first = calendar.dayNumber(base.adding(seconds: -86_400)), last = calendar.dayNumber(base.adding(seconds: 125 * 86_400))
            let expected = ReportFolds.daily(movements: movements, sales: try await store.saleFacts(), calendar: calendar, from: first, to: last)
            #expect(try await store.daily(from: first, to: last) == expected, "seed \(seed)")
            let from = [base.adding(seconds: Int64(Int.random(in: -2..<40, using: &random) * 86_400 + Int.random(in: 0..<86_400, using: &random))),
                        calendar.startOfDay(Int.random(in: 20260101...20260131, using: &random)),
                        calendar.startOfDay(20260101)].randomElement(using: &random) ?? base
            let to = [from.adding(seconds: Int64(Int.random(in: 0..<130, using: &random) * 86_400 + Int.random(in: 0..<86_400, using: &random))),
                      calendar.startOfDay(20260501).adding(milliseconds: -1), calendar.startOfDay(20260301)].randomElement(using: &random) ?? base
            for metric in TopProductMetric.allCases {
                #expect(try await store.topProducts(from: from, to: to, by: metric, limit: 3)
                    == ReportFolds.top(movements: movements, names: names, from: from, to: to, by: metric, limit: 3), "seed \(seed)")
            }
        }
    }
}
