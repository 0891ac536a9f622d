import Foundation
import InventoryDomain

/// Shops built through the storage protocols only, shared by more than one suite.
enum Fixtures {
    /// A shop to be refused things in: beans (SKU `BEAN-1`, barcode 4006381333931, 9.00, minimum 8.00) with 5 bought
    /// from Bean Co on 1 January, milk (1.50) with no stock, and the customer Ada.
    struct RefusalShop {
        let store: any TestableRepository
        let beans: Product
        let milk: Product
        let supplier: Contact<Supplier>
        let customer: Contact<Customer>
    }

    static func refusalShop(_ backend: Backend) async throws -> RefusalShop {
        let store = try await backend.make()
        let beans = try await store.createProduct(ProductDetails(name: "Beans", sku: "BEAN-1", barcode: "4006381333931", salePrice: eur("9.00"), minimumSalePrice: eur("8.00")))
        let milk = try await store.createProduct(ProductDetails(name: "Milk", salePrice: eur("1.50")))
        let supplier = try await store.createSupplier(Contact(id: SupplierID(0), name: "Bean Co"))
        let customer = try await store.createCustomer(Contact(id: CustomerID(0), name: "Ada"))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), supplierID: supplier.id, lines: [.init(productID: beans.id, quantity: qty(5), unitCost: eur("4.00"))]))
        return RefusalShop(store: store, beans: beans, milk: milk, supplier: supplier, customer: customer)
    }

    /// Fills `store` as a live shop: a category, a product (10 bought at 1.00 on 1 January, 2 sold at 2.50 on the
    /// 2nd) and an admin. Returns the product.
    @discardableResult
    static func liveShop(_ store: any TestableRepository) async throws -> Product {
        let category = try await store.createCategory(Category(id: CategoryID(0), name: "Drinks", color: "#3b82f6"))
        let product = try await store.createProduct(ProductDetails(name: "Espresso", barcode: "4006381333931", categoryID: category.id,
                                                                   salePrice: eur("2.50")))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: product.id, quantity: qty(10), unitCost: eur("1.00"))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: product.id, quantity: qty(2), unitPrice: eur("2.50"))]))
        _ = try await store.createFirstAdmin(StaffAccount(id: UserID(0), username: "owner", displayName: "Owner", role: .admin,
                                                           passwordHash: "$2b$12$abcdefghijklmnopqrstuuOQ3oZJr9Yc0i7e5C4m1n2b3v4x5y6z7", pinHash: nil))
        return product
    }

    /// Drinks (threshold 10, markup 50 %) holding Cola (50 bought at 0.50), Water (5 at 0.20) and Juice (none), and
    /// Lemonade without a category (2 at 1.00), all on 1 January. Returns the category and the products' ids in that
    /// order.
    static func drinksShop(_ store: any TestableRepository) async throws -> (drinks: Category, ids: [ProductID]) {
        let drinks = try await store.createCategory(Category(id: CategoryID(0), name: "Drinks", color: "#2563EB", lowStockThreshold: qty(10), markup: Percent(hundredths: 5000)))
        var ids: [ProductID] = []
        for (index, name) in ["Cola", "Water", "Juice", "Lemonade"].enumerated() {
            let product = try await store.createProduct(ProductDetails(name: name, categoryID: index < 3 ? drinks.id : nil))
            ids.append(product.id)
        }
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [
            .init(productID: ids[0], quantity: qty(50), unitCost: eur("0.50")),
            .init(productID: ids[1], quantity: qty(5), unitCost: eur("0.20")),
            .init(productID: ids[3], quantity: qty(2), unitCost: eur("1.00")),
        ]))
        return (drinks, ids)
    }
}
