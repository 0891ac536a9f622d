import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Finding sales (issue 14 point 6): by receipt number, customer, product and date range, every word narrowing the
    /// list; bad queries are refused naming their field.
    @Suite struct SaleSearch {
        struct Shop {
            let store: any TestableRepository
            let ada: Contact<Customer>, zoe: Contact<Customer>
            let creme: Product, beans: Product
            /// The sales in booking order: 1 Ada crème (2 Jan), 2 Zoë beans (3 Jan), 3 walk-in both (4 Jan, note), 4 Ada beans (5 Jan).
            let sales: [SaleRecord]
        }

        static func shop(_ backend: Backend) async throws -> Shop {
            let store = try await backend.make()
            let ada = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ada Lovelace", phone: "+49 30 1234567"))
            let zoe = try await store.createCustomer(Contact(id: CustomerID(0), name: "Zoë Durand", email: "zoe@example.org"))
            let creme = try await store.createProduct(ProductDetails(name: "Crème brûlée", sku: "CB-1", salePrice: eur("4.50")))
            let beans = try await store.createProduct(ProductDetails(name: "Beans 100% arabica", barcode: "4006381333931", salePrice: eur("9.00")))
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
                .init(productID: creme.id, quantity: qty(50), unitCost: eur("1.00")), .init(productID: beans.id, quantity: qty(50), unitCost: eur("4.00")),
            ]))
            var sales: [SaleRecord] = []
            sales.append(try await store.postSale(SaleDraft(effectiveAt: at(20260102), customerID: ada.id, lines: [.init(productID: creme.id, quantity: qty(1))])))
            sales.append(try await store.postSale(SaleDraft(effectiveAt: at(20260103), customerID: zoe.id, lines: [.init(productID: beans.id, quantity: qty(2))])))
            sales.append(try await store.postSale(SaleDraft(effectiveAt: at(20260104), note: "table 7, birthday", lines: [
                .init(productID: creme.id, quantity: qty(1)), .init(productID: beans.id, quantity: qty(1)),
            ])))
            sales.append(try await store.postSale(SaleDraft(effectiveAt: at(20260105), customerID: ada.id, lines: [.init(productID: beans.id, quantity: qty(3))])))
            return Shop(store: store, ada: ada, zoe: zoe, creme: creme, beans: beans, sales: sales)
        }

        /// The receipt numbers a query finds, newest first.
        static func found(_ shop: Shop, _ query: SaleQuery) async throws -> [Int64] {
            try await shop.store.sales(query).map { try #require($0.receiptNumber) }
        }

        @Test(arguments: Backend.ported)
        func findsByEachKindOfWord(backend: Backend) async throws {
            let shop = try await Self.shop(backend)
            #expect(shop.sales.map(\.receiptNumber) == [1, 2, 3, 4])
            let cases: [(String, [Int64])] = [
                ("", [4, 3, 2, 1]),
                ("#3", [3]), ("#2", [2]), ("#9", []),       // a receipt number only
                ("3", [4, 3, 2, 1]),                         // receipt 3, or a 3 in Ada's phone or the beans' barcode
                ("ada", [4, 1]), ("LOVELACE", [4, 1]),       // the customer's name, any case
                ("zoe", [2]), ("example.org", [2]),          // accents folded; the email
                ("1234567", [4, 1]),                         // digits that are no receipt number but a phone's
                ("creme", [3, 1]), ("brulee", [3, 1]), ("CB-1", [3, 1]),   // a product's name and SKU
                ("4006381333931", [4, 3, 2]),                // a product's barcode
                ("100%", [4, 3, 2]), ("%", [4, 3, 2]), ("_", []),   // LIKE's wildcards are plain text
                ("birthday", [3]),                           // the note
                ("ada beans", [4]), ("ada creme", [1]), ("zoe creme", []),   // every word must match
            ]
            for (search, receipts) in cases {
                #expect(try await Self.found(shop, SaleQuery(search: search)) == receipts, "\(search)")
            }
            // The summaries still carry what the list shows.
            let first = try #require(try await shop.store.sales(SaleQuery(search: "#3")).first)
            #expect(first.id == shop.sales[2].id.rawValue && first.lineCount == 2 && first.note == "table 7, birthday" && first.partyName == nil)
        }

        @Test(arguments: Backend.ported)
        func findsByCustomerProductAndDates(backend: Backend) async throws {
            let shop = try await Self.shop(backend)
            #expect(try await Self.found(shop, SaleQuery(customerID: shop.ada.id)) == [4, 1])
            #expect(try await Self.found(shop, SaleQuery(productID: shop.creme.id)) == [3, 1])
            #expect(try await Self.found(shop, SaleQuery(customerID: shop.ada.id, productID: shop.beans.id)) == [4])
            // Both ends inclusive.
            #expect(try await Self.found(shop, SaleQuery(from: at(20260103), to: at(20260104))) == [3, 2])
            #expect(try await Self.found(shop, SaleQuery(from: at(20260104))) == [4, 3])
            #expect(try await Self.found(shop, SaleQuery(to: at(20260102))) == [1])
            #expect(try await Self.found(shop, SaleQuery(from: at(20260103), to: at(20260103))) == [2])
            #expect(try await Self.found(shop, SaleQuery(search: "beans", from: at(20260104))) == [4, 3])
            // Paging keeps the order.
            #expect(try await Self.found(shop, SaleQuery(limit: 2, offset: 1)) == [3, 2])
            // A customer nobody bought as, a product nobody sold: nothing.
            #expect(try await Self.found(shop, SaleQuery(customerID: CustomerID(999))) == [])
            #expect(try await Self.found(shop, SaleQuery(productID: ProductID(999))) == [])
        }

        @Test(arguments: Backend.ported)
        func badQueriesNameTheirField(backend: Backend) async throws {
            let shop = try await Self.shop(backend)
            try await expectRefusal(shop.store, .invalidValue, field: "to") {
                _ = try await shop.store.sales(SaleQuery(from: at(20260105), to: at(20260104)))
            }
            try await expectRefusal(shop.store, .invalidValue, field: "search") {
                _ = try await shop.store.sales(SaleQuery(search: "a b c d e f g h i"))
            }
            try await expectRefusal(shop.store, .invalidValue, field: "search") {
                _ = try await shop.store.sales(SaleQuery(search: String(repeating: "x", count: 201)))
            }
        }
    }
}
