import InventoryDomain

extension InventorySQLiteRepository {
    /// The domain's low-stock rule (``StockStatus/of(quantity:tracksStock:productThreshold:categoryThreshold:shopDefault:)``)
    /// as one SQL expression over `product p LEFT JOIN category c ON c.id = p.categoryId`, giving the status's raw value.
    /// Both the products filter and the low-stock report use it, on SQLite and PostgreSQL alike (plain SQL both read);
    /// `StockStatusSQLTests` hold it to the domain function.
    package static func stockStatusSQL(shopDefault: Quantity) -> String {
        """
        (CASE WHEN NOT p.tracksStock THEN '\(StockStatus.notTracked.rawValue)' \
        WHEN p.quantity <= 0 THEN '\(StockStatus.out.rawValue)' \
        WHEN p.quantity <= COALESCE(p.lowStockThreshold, c.lowStockThreshold, \(shopDefault.thousandths)) THEN '\(StockStatus.low.rawValue)' \
        ELSE '\(StockStatus.inStock.rawValue)' END)
        """
    }
}
