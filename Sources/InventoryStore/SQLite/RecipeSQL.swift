import InventoryDomain

/// How a sale line's cost takes in its recipe's ingredient issues, in SQL (their numbering is ``RecipeLines``).
enum RecipeSQL {
    /// The line number of ingredient `component` of sale line `line` (``RecipeLines``).
    static func lineNo(line: Int, component: Int) -> Int { RecipeLines.lineNo(line: line, component: component) }

    /// SQL for the value change of sale line `alias` (a `movement` row) with its ingredients': its cost of goods sold,
    /// negated.
    static func lineValueChange(_ alias: String) -> String {
        """
        (\(alias).valueChange + (SELECT COALESCE(SUM(c.valueChange), 0) FROM movement c
            WHERE c.documentId = \(alias).documentId AND c.kind = 'consumption' AND c.lineNo / 1000 - 1000 = \(alias).lineNo))
        """
    }
}
