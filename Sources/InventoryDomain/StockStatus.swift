/// Where a product's stock stands: the one low-stock rule of the shop.
///
/// Every place that decides "low" — the product's `status`, the products list filter, the low-stock report, the
/// dashboard's alerts and the live low-stock events — answers with ``of(quantity:tracksStock:productThreshold:categoryThreshold:shopDefault:)``
/// (a store that filters in its query language must be tested against it):
///
/// - A product that does not track stock is ``notTracked``: it is never low and never out.
/// - A tracked product with nothing (or less than nothing) in stock is ``out``, whatever its threshold.
/// - Otherwise its **effective threshold** is its own threshold, else its category's, else the shop's default
///   (``ShopSettings/lowStockDefault``) — see ``effectiveThreshold(productThreshold:categoryThreshold:shopDefault:)``.
///   The product is ``low`` when its quantity is at or below that threshold, and ``inStock`` above it.
/// - A threshold of 0 (on the product, its category or the shop) therefore means "warn only when it runs out".
///   There is no "never warn" threshold: a product whose stock is not worth watching is set not to track stock.
///
/// The low-stock report and alerts list every tracked, unarchived product that is ``low`` or ``out``
/// (``needsRestocking``).
public enum StockStatus: String, Sendable, Codable, CaseIterable {
    case inStock = "in_stock", low, out, notTracked = "not_tracked"

    /// The threshold that applies to a product: its own, else its category's, else the shop's default.
    public static func effectiveThreshold(productThreshold: Quantity?, categoryThreshold: Quantity?, shopDefault: Quantity) -> Quantity {
        productThreshold ?? categoryThreshold ?? shopDefault
    }

    /// The status of a product holding `quantity`, by the rule above.
    public static func of(
        quantity: Quantity, tracksStock: Bool, productThreshold: Quantity?, categoryThreshold: Quantity?, shopDefault: Quantity
    ) -> StockStatus {
        guard tracksStock else { return .notTracked }
        if quantity.thousandths <= 0 { return .out }
        let threshold = Self.effectiveThreshold(
            productThreshold: productThreshold, categoryThreshold: categoryThreshold, shopDefault: shopDefault)
        return quantity <= threshold ? .low : .inStock
    }

    /// Whether the low-stock report and the alerts list a product in this state (low or out).
    public var needsRestocking: Bool { self == .low || self == .out }
}

/// The thresholds a shop's products are judged by: the shop default and each category's threshold.
public struct StockThresholds: Sendable, Hashable {
    /// The shop's default (``ShopSettings/lowStockDefault``).
    public var shopDefault: Quantity
    /// Each category's threshold; a category without one is absent.
    public var categories: [CategoryID: Quantity]

    /// Creates the thresholds from the shop default and the categories.
    public init(shopDefault: Quantity, categories: [Category]) {
        self.shopDefault = shopDefault
        self.categories = Dictionary(categories.compactMap { category in category.lowStockThreshold.map { (category.id, $0) } },
                                     uniquingKeysWith: { first, _ in first })
    }

    /// The threshold that applies to a product with these details.
    public func threshold(for details: ProductDetails) -> Quantity {
        StockStatus.effectiveThreshold(productThreshold: details.lowStockThreshold, categoryThreshold: self.categoryThreshold(details),
                                       shopDefault: self.shopDefault)
    }

    /// The product's status.
    public func status(of product: Product) -> StockStatus {
        StockStatus.of(quantity: product.stock.quantity, tracksStock: product.details.tracksStock,
                       productThreshold: product.details.lowStockThreshold, categoryThreshold: self.categoryThreshold(product.details),
                       shopDefault: self.shopDefault)
    }

    private func categoryThreshold(_ details: ProductDetails) -> Quantity? {
        details.categoryID.flatMap { self.categories[$0] }
    }
}

extension CatalogueRepository where Self: SettingsRepository {
    /// The shop default and every category's threshold, to judge products with ``StockThresholds/status(of:)``.
    public func stockThresholds() async throws -> StockThresholds {
        try await self.stockThresholds(settings: try await self.settings())
    }

    /// ``stockThresholds()`` with the settings the caller has already read.
    public func stockThresholds(settings: ShopSettings) async throws -> StockThresholds {
        StockThresholds(shopDefault: settings.lowStockDefault, categories: try await self.categories())
    }
}
