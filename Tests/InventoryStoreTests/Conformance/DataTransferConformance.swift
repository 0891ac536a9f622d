import Foundation
import InventoryDomain
import Testing

/// CSV import and export (``DataTransferRepository``): an import is all or nothing and goes through the same writes
/// as the API's edits; every export is RFC 4180 with a header row and neutralised formula cells, and a product export
/// imports back with nothing to change.
@Suite struct DataTransferConformance {
    /// An import that changes a product's stock rule is the same write as an edit: the ledger is replayed, so turning
    /// off negative stock under a history that went below zero is refused whole, as `updateProduct` refuses it.
    @Test(arguments: Backend.ported)
    func importOfAStockRuleChangeReplaysTheLedgerLikeAnEdit(backend: Backend) async throws {
        let store = try await backend.make()
        let cups = try await store.createProduct(ProductDetails(name: "Cups", sku: "C1", salePrice: eur("1.00"), allowsNegativeStock: true))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: cups.id, quantity: qty(2), unitCost: eur("0.40"))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: cups.id, quantity: qty(3), unitPrice: eur("1.00"))]))
        var edited = try await store.product(cups.id).details
        edited.allowsNegativeStock = false
        let viaEdit: InventoryError.Code?
        do {
            _ = try await store.updateProduct(cups.id, edited)
            viaEdit = nil
        } catch let error as InventoryError {
            viaEdit = error.code
        }
        #expect(viaEdit == .insufficientStock)
        let plan = try ProductImport.plan(csv: "name,sku,allow_negative_stock\nCups,C1,false\n", currency: .eur,
                                          existing: try await store.products(ProductQuery(limit: 10)).products, categories: []).get()
        try await expectRefusal(store, .insufficientStock) { _ = try await store.importProducts(plan) }
        #expect(try await store.product(cups.id).details.allowsNegativeStock)
    }

    /// A date range on the dated exports (issue 14 point 7): only purchases, sales and movements inside it, both ends
    /// inclusive, in the shop's time zone; a range on a list without dates, or one that ends before it starts, is
    /// refused naming its field.
    @Test(arguments: Backend.ported)
    func datedExportsTakeARange(backend: Backend) async throws {
        let store = try await backend.make()
        var settings = try await store.settings()
        settings.timeZoneIdentifier = "Europe/Berlin"
        try await store.saveSettings(settings)
        let calendar = settings.calendar
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: eur("3.00")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: calendar.instant(day: 20260301, hour: 9), lines: [
            .init(productID: tea.id, quantity: qty(10), unitCost: eur("1.00")),
        ]))
        // 23:30 in Berlin on 1 March (22:30 UTC), 00:30 on 2 March (23:30 UTC on the 1st), 10:00 on 3 March.
        for (day, hour, minute) in [(20260301, 23, 30), (20260302, 0, 30), (20260303, 10, 0)] {
            _ = try await store.postSale(SaleDraft(effectiveAt: calendar.instant(day: day, hour: hour).adding(seconds: Int64(minute * 60)),
                                                   lines: [.init(productID: tea.id, quantity: qty(1))]))
        }
        func rows(_ kind: ExportKind, _ from: String?, _ to: String?) async throws -> [[String]] {
            Array(try CSV.parse(try await store.exportCSV(kind, range: try calendar.range(from: from, to: to))).map(\.cells).dropFirst())
        }
        #expect(try await rows(.sales, nil, nil).count == 3)
        let first = try await rows(.sales, "2026-03-01", "2026-03-01")
        #expect(first.map { $0[1] } == ["2026-03-01T23:30:00.000+01:00"], "the shop's day, written in the shop's time")
        #expect(try await rows(.sales, "2026-03-02", nil).map { $0[1] } == ["2026-03-02T00:30:00.000+01:00", "2026-03-03T10:00:00.000+01:00"])
        #expect(try await rows(.sales, nil, "2026-03-02T00:30").count == 2, "both ends inclusive, to the millisecond")
        #expect(try await rows(.purchases, "2026-03-02", nil).isEmpty)
        #expect(try await rows(.purchases, "2026-03-01", "2026-03-01").count == 1)
        #expect(try await rows(.movements, "2026-03-03", "2026-03-03").count == 1)
        #expect(try await rows(.movements, nil, nil).count == 4)

        try await expectRefusal(store, .invalidValue, field: "to") {
            _ = try await store.exportCSV(.sales, range: try calendar.range(from: "2026-03-03", to: "2026-03-01"))
        }
        for kind in [ExportKind.products, .suppliers, .customers] {
            try await expectRefusal(store, .invalidValue, field: "from") {
                _ = try await store.exportCSV(kind, range: try calendar.range(from: "2026-03-01", to: nil))
            }
            #expect(try await store.exportCSV(kind, range: .all).hasPrefix("id,"))
        }
        #expect(throws: InventoryError.self) { _ = try calendar.range(from: "March", to: nil) }
    }

    /// The sales export holds each sale's payments and, as rows of their own dated when they happened, its customer
    /// returns: the quantity, revenue, tax and cost of goods sold going back, and the refunds (issue 14 point 7).
    @Test(arguments: Backend.ported)
    func theSalesExportHoldsPaymentsAndReturns(backend: Backend) async throws {
        let store = try await backend.make()
        let (sale, _) = try await PaymentConformance.splitSale(store)   // 3 lattes at 3.10, paid cash 5.00 and card 5.25 (one declined)
        let back = try await store.postCustomerReturn(CustomerReturnDraft(effectiveAt: at(20260303), saleID: sale.id, lines: [
            .init(saleLineID: sale.lines[0].movementID, quantity: qty(1)),
        ]))
        let table = try CSV.parse(try await store.exportCSV(.sales))
        let header = try #require(table.first?.cells)
        #expect(header.suffix(3) == ["type", "return_id", "payments"])
        let rows = table.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0.cells)) }
        #expect(rows.count == 2)
        let sold = rows[0], returned = rows[1]
        #expect(sold["type"] == "sale" && sold["quantity"] == "3" && sold["revenue"] == "9.30" && sold["cogs"] == "2.40")
        #expect(sold["payments"] == "cash 5.00; card 5.25 failed; card 5.25")
        #expect(returned["type"] == "return" && returned["return_id"] == String(back.rawValue) && returned["sale_id"] == String(sale.id.rawValue))
        #expect(returned["quantity"] == "-1" && returned["revenue"] == "-3.10" && returned["cogs"] == "-0.80" && returned["profit"] == "-2.30")
        #expect(returned["date"]?.hasPrefix("2026-03-03") == true)
        let refund = try await store.sale(sale.id).payments.map(\.refunded)
        let refundedTotal = refund.reduce(Money.zero, +)
        #expect(returned["payments"]?.hasPrefix("card -") == true, "\(returned["payments"] ?? "")")
        #expect(returned["payments"] == "card -\(refundedTotal.decimalString(.eur))")
        // Net revenue over the rows is the books' revenue less the return.
        let net = rows.compactMap { $0["revenue"].flatMap { try? Money.parse($0, currency: .eur, field: "revenue") } }.reduce(Money.zero, +)
        #expect(net == eur("6.20"))
        // A range of the return's day holds the return alone.
        let onlyReturn = try CSV.parse(try await store.exportCSV(.sales, range: try DateRange(from: at(20260303, minutes: -720), to: nil)))
        #expect(onlyReturn.dropFirst().map { $0.cells[18] } == ["return"])
    }

    @Test(arguments: Backend.ported)
    func importAppliesAllOrNothingAndExportsRoundTrip(backend: Backend) async throws {
        let store = try await backend.make()
        let beans = try await store.createProduct(ProductDetails(name: "Beans", sku: "B1", salePrice: eur("9.00")))
        let csv = "name,sku,category,sale_price\nBeans,B1,Coffee,9.50\nTea,T1,Tea,3.00\n"
        let settings = try await store.settings()
        let plan = try ProductImport.plan(csv: csv, currency: settings.currency, existing: try await store.products(ProductQuery(limit: 1000)).products,
                                          categories: try await store.categories()).get()
        let result = try await store.importProducts(plan)
        #expect(result.created == 1 && result.updated == 1)
        #expect(try await store.product(beans.id).details.salePrice == eur("9.50"))
        #expect(try await store.categories().map(\.name) == ["Coffee", "Tea"])

        // A plan made stale by a concurrent change is refused whole.
        let stale = try ProductImport.plan(csv: "name,sku,barcode\nA,A1,\nB,B2,4006381333931\n", currency: .eur, existing: [], categories: []).get()
        _ = try await store.createProduct(ProductDetails(name: "Owner", barcode: "4006381333931"))
        try await expectRefusal(store, .duplicate, field: "line 3.barcode") { _ = try await store.importProducts(stale) }

        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: beans.id, quantity: qty(4), unitCost: eur("2.50"))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: beans.id, quantity: qty(1), unitPrice: eur("9.50"))]))
        let products = try CSV.parse(try await store.exportCSV(.products))
        #expect(products.first?.cells.first == "id")
        let beansRow = try #require(products.first { $0.cells[1] == "Beans" })
        let header = try #require(products.first?.cells)
        func cell(_ name: String) -> String? { header.firstIndex(of: name).map { beansRow.cells[$0] } }
        #expect([cell("cost_price"), cell("quantity"), cell("stock_value")] == ["2.50", "3", "7.50"])
        #expect(cell("supplier_code") == "" && cell("pack_size") == "1")
        let sales = try CSV.parse(try await store.exportCSV(.sales))
        #expect(sales.count == 2)
        #expect(sales[1].cells[12] == "9.50" && sales[1].cells[15] == "2.50" && sales[1].cells[16] == "7.00")
        #expect(try CSV.parse(try await store.exportCSV(.purchases)).count == 2)
        #expect(try CSV.parse(try await store.exportCSV(.movements)).count == 3)
        #expect(try CSV.parse(try await store.exportCSV(.suppliers)).count == 1)
        // An export of products imports back with nothing to change.
        let again = try ProductImport.plan(csv: try await store.exportCSV(.products), currency: .eur,
                                           existing: try await store.products(ProductQuery(includeArchived: true, limit: 1000)).products,
                                           categories: try await store.categories()).get()
        #expect(again.rows.isEmpty)
    }

    @Test(arguments: Backend.ported)
    func everyExportHasItsHeaderAndNeutralisedFormulaCells(backend: Backend) async throws {
        let store = try await backend.make()
        let ada = try await store.createCustomer(Contact(id: CustomerID(0), name: "=HYPERLINK(\"http://x\")", location: "Leeds, \"North\"", phone: "+44 113", note: "@home"))
        let bean = try await store.createSupplier(Contact(id: SupplierID(0), name: "Bean Co", email: "orders@bean.example"))
        let customers = try CSV.parse(try await store.exportCSV(.customers))
        #expect(customers.map(\.cells) == [
            ["id", "name", "location", "phone", "email", "note"],
            [String(ada.id.rawValue), "'=HYPERLINK(\"http://x\")", "Leeds, \"North\"", "'+44 113", "", "'@home"],
        ])
        #expect(try CSV.parse(try await store.exportCSV(.suppliers)).map(\.cells) == [
            ["id", "name", "location", "phone", "email", "note"], [String(bean.id.rawValue), "Bean Co", "", "", "orders@bean.example", ""],
        ])
        // An empty shop's documents export as a header alone; each line ends with CRLF.
        for kind in [ExportKind.purchases, .sales, .movements] {
            let text = try await store.exportCSV(kind)
            #expect(text.hasSuffix("\r\n") && text.components(separatedBy: "\r\n").count == 2, "\(kind)")
            #expect(try CSV.parse(text).count == 1, "\(kind)")
        }
        #expect(ExportKind.allCases.count == 6)
    }

    @Test(arguments: Backend.ported)
    func anImportCreatesCategoriesOnceAndCountsWhatItDid(backend: Backend) async throws {
        let store = try await backend.make()
        let coffee = try await store.createCategory(Category(id: CategoryID(0), name: "Coffee"))
        let csv = "name,sku,category,sale_price,low_stock_threshold\nBeans,B1,coffee,9.50,3\nTea,T1,Tea,3.00,\nMate,M1,TEA,4.00,\n"
        let plan = try ProductImport.plan(csv: csv, currency: .eur, existing: [], categories: try await store.categories()).get()
        let result = try await store.importProducts(plan)
        #expect(result.created == 3 && result.updated == 0)
        let categories = try await store.categories()
        #expect(categories.map(\.name) == ["Coffee", "Tea"])
        let products = try await store.products(ProductQuery(limit: 10)).products
        #expect(products.map(\.name) == ["Beans", "Mate", "Tea"])
        #expect(products.map(\.details.categoryID) == [coffee.id, categories[1].id, categories[1].id])
        #expect(products[0].details.salePrice == eur("9.50") && products[0].details.lowStockThreshold == qty(3))
        #expect(products.allSatisfy { $0.stock == .empty })

        // A category the plan would create that someone created meanwhile is used, not made twice.
        let cakesPlan = try ProductImport.plan(csv: "name,category\nScone,Cakes\n", currency: .eur, existing: products, categories: categories).get()
        #expect(cakesPlan.newCategories == ["Cakes"])
        let cakes = try await store.createCategory(Category(id: CategoryID(0), name: "cakes"))
        #expect(try await store.importProducts(cakesPlan) == (created: 1, updated: 0))
        #expect(try await store.categories().map(\.name) == ["cakes", "Coffee", "Tea"])
        #expect(try await store.products(ProductQuery(search: "scone")).products.first?.details.categoryID == cakes.id)
    }
}
