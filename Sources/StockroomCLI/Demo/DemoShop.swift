import Foundation
import InventoryDomain
import InventoryStore

/// Fills an empty database with a realistic café: 60 products in 6 categories, suppliers, customers, and 90 days
/// of purchases at varying costs and sales, a few entered late (back-dated). The same seed and end day give the
/// same shop.
public struct DemoShop: Sendable {
    /// The seed of every random choice.
    public var seed: UInt64
    /// The last day of the history (`yyyymmdd`, UTC).
    public var endDay: Int
    /// Days of history.
    public var days: Int

    /// Creates a demo plan.
    public init(seed: UInt64 = 42, endDay: Int, days: Int = 90) {
        self.seed = seed
        self.endDay = endDay
        self.days = days
    }

    struct Item {
        var name: String
        var category: Int
        var price: Int64
        var cost: Int64
        var unit: String = "pcs"
        var tax: Int64 = 700
    }

    static let categories: [(String, String)] = [
        ("Coffee", "#92400e"), ("Tea", "#15803d"), ("Bakery", "#b45309"), ("Cold drinks", "#0369a1"), ("Snacks", "#7c3aed"), ("Retail", "#475569"),
    ]

    /// Where each category's products sit (a stocktake can count one shelf).
    static let shelves = ["Counter", "Counter", "Bakery case", "Fridge", "Shelf A", "Shelf B"]

    static let items: [Item] = [
        Item(name: "Espresso", category: 0, price: 220, cost: 45), Item(name: "Double espresso", category: 0, price: 290, cost: 80),
        Item(name: "Americano", category: 0, price: 280, cost: 50), Item(name: "Cappuccino", category: 0, price: 350, cost: 75),
        Item(name: "Latte", category: 0, price: 370, cost: 85), Item(name: "Flat white", category: 0, price: 380, cost: 90),
        Item(name: "Mocha", category: 0, price: 400, cost: 110), Item(name: "Macchiato", category: 0, price: 260, cost: 55),
        Item(name: "Cortado", category: 0, price: 320, cost: 70), Item(name: "Filter coffee", category: 0, price: 250, cost: 40),
        Item(name: "Cold brew", category: 0, price: 390, cost: 95),
        Item(name: "Earl Grey tea", category: 1, price: 260, cost: 30), Item(name: "Green tea", category: 1, price: 260, cost: 30),
        Item(name: "Peppermint tea", category: 1, price: 260, cost: 28), Item(name: "Chai latte", category: 1, price: 380, cost: 90),
        Item(name: "Matcha latte", category: 1, price: 420, cost: 120), Item(name: "Rooibos tea", category: 1, price: 260, cost: 30),
        Item(name: "Chamomile tea", category: 1, price: 260, cost: 28), Item(name: "Hot chocolate", category: 1, price: 340, cost: 85),
        Item(name: "Butter croissant", category: 2, price: 240, cost: 90), Item(name: "Almond croissant", category: 2, price: 320, cost: 130),
        Item(name: "Pain au chocolat", category: 2, price: 280, cost: 105), Item(name: "Blueberry muffin", category: 2, price: 290, cost: 95),
        Item(name: "Banana bread", category: 2, price: 310, cost: 100), Item(name: "Cinnamon roll", category: 2, price: 330, cost: 110),
        Item(name: "Sourdough bread", category: 2, price: 520, cost: 210), Item(name: "Bagel", category: 2, price: 260, cost: 80),
        Item(name: "Cheesecake slice", category: 2, price: 450, cost: 160), Item(name: "Chocolate brownie", category: 2, price: 300, cost: 95),
        Item(name: "Carrot cake slice", category: 2, price: 420, cost: 150), Item(name: "Oat cookie", category: 2, price: 180, cost: 50),
        Item(name: "Sparkling water", category: 3, price: 220, cost: 60, tax: 1900), Item(name: "Still water", category: 3, price: 200, cost: 50, tax: 1900),
        Item(name: "Orange juice", category: 3, price: 320, cost: 110, tax: 1900), Item(name: "Apple juice", category: 3, price: 300, cost: 100, tax: 1900),
        Item(name: "Lemonade", category: 3, price: 340, cost: 105, tax: 1900), Item(name: "Cola", category: 3, price: 280, cost: 80, tax: 1900),
        Item(name: "Iced tea", category: 3, price: 320, cost: 90, tax: 1900), Item(name: "Ginger beer", category: 3, price: 350, cost: 120, tax: 1900),
        Item(name: "Oat milk", category: 3, price: 290, cost: 140, unit: "l"), Item(name: "Whole milk", category: 3, price: 190, cost: 95, unit: "l"),
        Item(name: "Ham & cheese sandwich", category: 4, price: 590, cost: 240), Item(name: "Veggie sandwich", category: 4, price: 560, cost: 210),
        Item(name: "Tomato soup", category: 4, price: 520, cost: 170), Item(name: "Greek salad", category: 4, price: 680, cost: 260),
        Item(name: "Granola bowl", category: 4, price: 550, cost: 190), Item(name: "Dark chocolate bar", category: 4, price: 290, cost: 120),
        Item(name: "Salted crisps", category: 4, price: 190, cost: 70), Item(name: "Trail mix", category: 4, price: 350, cost: 150),
        Item(name: "Energy ball", category: 4, price: 240, cost: 80), Item(name: "Fruit cup", category: 4, price: 380, cost: 160),
        Item(name: "Coffee beans 250g", category: 5, price: 1290, cost: 610, tax: 700), Item(name: "Coffee beans 1kg", category: 5, price: 3990, cost: 2100),
        Item(name: "Ground coffee 250g", category: 5, price: 1190, cost: 560), Item(name: "Loose tea tin", category: 5, price: 990, cost: 420),
        Item(name: "Ceramic mug", category: 5, price: 1490, cost: 520, tax: 1900), Item(name: "Reusable cup", category: 5, price: 1290, cost: 430, tax: 1900),
        Item(name: "Tote bag", category: 5, price: 990, cost: 310, tax: 1900), Item(name: "Gift card", category: 5, price: 2500, cost: 0, tax: 0),
        Item(name: "Honey jar", category: 5, price: 890, cost: 390),
    ]

    /// What was created.
    public struct Summary: Sendable {
        public var products: Int
        public var purchases: Int
        public var sales: Int
        public var backDated: Int
    }

    /// Fills `store`, which must hold no products yet.
    /// - Throws: ``InventoryError`` with code `conflict` when the database already has products.
    public func fill(_ store: some InventoryRepository & StaffRepository) async throws -> Summary {
        guard try await store.products(ProductQuery(includeArchived: true, limit: 1)).total == 0 else {
            throw InventoryError(.conflict, field: "data", "the database already has products; give --data a new folder for the demo")
        }
        var random = SeededRandom(seed: self.seed)
        // A café in the euro area: its prices include tax, as a customer reads them on the board.
        var settings = ShopSettings(shopName: "Corner Café (demo)", currency: .eur, timeZoneIdentifier: "UTC",
                                    defaultTaxRate: Percent(hundredths: 700), lowStockDefault: Quantity(10), lockMinutes: 5)
        settings.pricesIncludeTax = true
        try await store.saveSettings(settings)
        var categoryIDs: [CategoryID] = []
        for (index, (name, color)) in Self.categories.enumerated() {
            let category = try await store.createCategory(Category(
                id: CategoryID(0), name: name, color: color, lowStockThreshold: Quantity(index == 5 ? 3 : 15), markup: Percent(hundredths: index == 5 ? 10_000 : 25_000)))
            categoryIDs.append(category.id)
        }
        let suppliers = try await Array(["Roastery Nord", "Bakehouse Weber", "FreshDrinks GmbH", "Wholesale Market"].enumerated()).asyncMap { index, name in
            try await store.createSupplier(Contact(id: SupplierID(0), name: name, location: ["Hamburg", "Berlin", "Leipzig", "Potsdam"].randomElement(using: &random) ?? "",
                                                   phone: "+49 30 \(Int.random(in: 100_000...999_999, using: &random))",
                                                   leadTimeDays: [3, 1, 2, 5][index]))
        }
        // Who each category is reordered from (coffee and tea: the roastery; bakery; drinks; snacks and retail: the market).
        let supplierOfCategory = [0, 0, 1, 2, 3, 3]
        for name in ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Linus Pauling", "Marie Curie", "Office Park Ltd", "Hotel Kranich"] {
            _ = try await store.createCustomer(Contact(id: CustomerID(0), name: name, location: "Berlin",
                                                       email: name.lowercased().replacingOccurrences(of: " ", with: ".") + "@example.com"))
        }
        var products: [(id: ProductID, item: Item)] = []
        for (index, item) in Self.items.enumerated() {
            let body = [2, 0, 0] + String(format: "%09d", 4_711_000 + index).compactMap(\.wholeNumberValue)
            let barcode = body.map(String.init).joined() + String(Barcode.checkDigit(body))
            let product = try await store.createProduct(ProductDetails(
                name: item.name, sku: "CAFE-\(String(format: "%03d", index + 1))", barcode: barcode, categoryID: categoryIDs[item.category],
                unit: item.unit, salePrice: Money(minorUnits: item.price), minimumSalePrice: Money(minorUnits: item.price * 8 / 10),
                taxRate: Percent(hundredths: item.tax), tracksStock: item.name != "Gift card",
                preferredSupplierID: suppliers[supplierOfCategory[item.category]].id, shelf: Self.shelves[item.category]))
            products.append((product.id, item))
        }
        // The coffees are chosen with a size and extras at the till, the milk drinks also with a milk (issue 12, point 6).
        let milkDrinks: Set<String> = ["Cappuccino", "Latte", "Flat white", "Mocha", "Cortado", "Chai latte", "Matcha latte", "Hot chocolate"]
        for (id, item) in products where item.category == 0 || milkDrinks.contains(item.name) {
            var groups = [
                ModifierGroup(name: "Size", required: true, options: [
                    Modifier(name: "Regular", isDefault: true), Modifier(name: "Large", priceChange: Money(minorUnits: 50))]),
            ]
            if milkDrinks.contains(item.name) {
                groups.append(ModifierGroup(name: "Milk", options: [
                    Modifier(name: "Whole milk"), Modifier(name: "Oat milk", priceChange: Money(minorUnits: 40)),
                    Modifier(name: "Lactose-free", priceChange: Money(minorUnits: 30))]))
            }
            if item.category == 0 {
                groups.append(ModifierGroup(name: "Extras", multiple: true, options: [
                    Modifier(name: "Extra shot", priceChange: Money(minorUnits: 60)), Modifier(name: "Vanilla syrup", priceChange: Money(minorUnits: 40)),
                    Modifier(name: "Caramel syrup", priceChange: Money(minorUnits: 40))]))
            }
            _ = try await store.setOptionGroups(groups, of: id)
        }

        let calendar = ShopCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current)
        let firstDay = calendar.addingDays(-(self.days - 1), to: self.endDay)
        var stock = [Int64](repeating: 0, count: products.count)
        var purchases = 0, sales = 0, backDated = 0
        var late: [PurchaseDraft] = []
        for offset in 0..<self.days {
            let day = calendar.addingDays(offset, to: firstDay)
            let opening = calendar.startOfDay(day)
            // Restock in the morning whatever runs low, at a cost that drifts ±15 %.
            var lines: [PurchaseDraft.Line] = []
            for (index, product) in products.enumerated() where product.item.name != "Gift card" && stock[index] < 20 {
                let quantity = Int64.random(in: 30...90, using: &random)
                let drift = Int64.random(in: -15...15, using: &random)
                let cost = max(1, product.item.cost + product.item.cost * drift / 100)
                lines.append(.init(productID: product.id, quantity: Quantity(quantity), unitCost: Money(minorUnits: cost),
                                   lotCode: product.item.category == 2 ? "L\(day % 10_000)" : nil,
                                   expiryDate: product.item.category == 2 ? ShopCalendar.isoDate(calendar.addingDays(5, to: day)) : nil))
                stock[index] += quantity
            }
            for chunk in stride(from: 0, to: lines.count, by: 12) {
                let draft = PurchaseDraft(effectiveAt: opening.adding(seconds: 7 * 3600), supplierID: suppliers[(chunk / 12) % suppliers.count].id,
                                          note: "morning delivery", lines: Array(lines[chunk..<min(lines.count, chunk + 12)]))
                // Nothing is delivered in the future: before 07:00 today's delivery has not come yet.
                guard draft.effectiveAt <= Instant.now else { continue }
                // Now and then a delivery note is typed in days later: a back-dated purchase.
                if offset > 2 && Int.random(in: 0..<12, using: &random) == 0 { late.append(draft) } else {
                    _ = try await store.postPurchase(draft)
                    purchases += 1
                }
            }
            if offset % 5 == 4 {
                for draft in late {
                    _ = try await store.postPurchase(draft)
                    purchases += 1
                    backDated += 1
                }
                late.removeAll()
            }
            // Sales through the day.
            var drafts: [SaleDraft] = []
            let weekend = [0, 6].contains(ShopCalendar.weekday(day))
            for _ in 0..<Int.random(in: weekend ? 45...70 : 25...45, using: &random) {
                var saleLines: [SaleDraft.Line] = []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let index = Self.pick(&random, count: products.count)
                    let product = products[index]
                    let quantity = Int64.random(in: 1...2, using: &random)
                    if product.item.name != "Gift card" {
                        guard stock[index] - self.reservedLate(late, product.id) >= quantity else { continue }
                        stock[index] -= quantity
                    }
                    saleLines.append(.init(productID: product.id, quantity: Quantity(quantity), unitPrice: Money(minorUnits: product.item.price)))
                }
                guard !saleLines.isEmpty else { continue }
                let minute = Int.random(in: 8 * 60...18 * 60, using: &random)
                drafts.append(SaleDraft(effectiveAt: opening.adding(seconds: Int64(minute * 60)),
                                        lines: saleLines, tip: Money(minorUnits: Bool.random(using: &random) ? 0 : Int64.random(in: 10...100, using: &random)),
                                        paymentMethod: [.cash, .card, .card, .other].randomElement(using: &random) ?? .card))
            }
            // Nothing is sold in the future: today's trade stops at the current time.
            let now = Instant.now
            drafts = drafts.filter { $0.effectiveAt <= now }
            drafts.sort { $0.effectiveAt < $1.effectiveAt }
            try await store.postSales(drafts)
            sales += drafts.count
        }
        for draft in late {
            _ = try await store.postPurchase(draft)
            purchases += 1
            backDated += 1
        }
        return Summary(products: products.count, purchases: purchases, sales: sales, backDated: backDated)
    }

    /// Popular items sell more: a skewed pick.
    static func pick(_ random: inout SeededRandom, count: Int) -> Int {
        let a = Int.random(in: 0..<count, using: &random), b = Int.random(in: 0..<count, using: &random)
        return min(a, b)
    }

    /// Stock still waiting in late (not yet entered) deliveries cannot be sold yet in the books.
    func reservedLate(_ late: [PurchaseDraft], _ id: ProductID) -> Int64 {
        late.flatMap(\.lines).filter { $0.product == .existing(id) }.reduce(0) { $0 + $1.quantity.thousandths / 1000 }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
