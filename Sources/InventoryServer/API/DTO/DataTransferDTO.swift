import InventoryDomain

/// `POST /api/v1/import/products`'s answer (and the command line's `import products --format json`): what was
/// imported, or for a dry run what would be.
struct ImportResponse: Encodable, Sendable {
    var dryRun: Bool
    var created: Int
    var updated: Int
    var unchanged: Int
    var newCategories: [String]
    var rows: [Row]

    struct Row: Encodable, Sendable {
        var line: Int
        var action: String
        var productId: Int64?
        var name: String
        var changedFields: [String]
    }

    /// The answer for a checked plan: `imported` is what the import wrote, nil for a dry run.
    init(_ plan: ProductImport, imported: (created: Int, updated: Int)?) {
        let wouldCreate = plan.rows.filter { $0.productID == nil }.count
        let (created, updated) = imported ?? (wouldCreate, plan.rows.count - wouldCreate)
        self.dryRun = imported == nil
        self.created = created
        self.updated = updated
        self.unchanged = plan.unchangedCount
        self.newCategories = plan.newCategories
        self.rows = plan.rows.map {
            Row(line: $0.line, action: $0.productID == nil ? "create" : "update", productId: $0.productID?.rawValue, name: $0.details.name,
                changedFields: $0.changedFields)
        }
    }
}
