import InventoryDomain

extension InventoryPostgresRepository {
    /// The domain's low-stock rule (``StockStatus/of(quantity:tracksStock:productThreshold:categoryThreshold:shopDefault:)``)
    /// as one SQL expression over `product p LEFT JOIN category c ON c.id = p.categoryId`, giving the status's raw value:
    /// SQLite's `stockStatusSQL` with PostgreSQL's booleans.
    static func stockStatusSQL(shopDefault: Quantity) -> String {
        """
        (CASE WHEN NOT p.tracksStock THEN '\(StockStatus.notTracked.rawValue)' \
        WHEN p.quantity <= 0 THEN '\(StockStatus.out.rawValue)' \
        WHEN p.quantity <= COALESCE(p.lowStockThreshold, c.lowStockThreshold, \(shopDefault.thousandths)) THEN '\(StockStatus.low.rawValue)' \
        ELSE '\(StockStatus.inStock.rawValue)' END)
        """
    }
}
