import InventoryDomain

/// Where a recipe's ingredient issues sit in its sale's document, and how a sale line's cost takes them in.
///
/// A sale line `i` of a recipe product issues its ingredients as ``MovementKind/consumption`` movements of the same
/// document with line numbers `(1000 + i) × 1000 + j` (`j` the ingredient): after every sale line in the document's
/// ledger order, never mistaken for one (a document has at most 1,000 lines), and their line `i` is `lineNo / 1000 −
/// 1000`.
enum RecipeSQL {
    /// The line number of ingredient `component` of sale line `line`.
    static func lineNo(line: Int, component: Int) -> Int { (1000 + line) * 1000 + component }

    /// The sale line an ingredient issue belongs to.
    static func saleLine(of lineNo: Int) -> Int { lineNo / 1000 - 1000 }

    /// SQL for the value change of sale line `alias` (a `movement` row) with its ingredients': its cost of goods sold,
    /// negated.
    static func lineValueChange(_ alias: String) -> String {
        """
        (\(alias).valueChange + (SELECT COALESCE(SUM(c.valueChange), 0) FROM movement c
            WHERE c.documentId = \(alias).documentId AND c.kind = 'consumption' AND c.lineNo / 1000 - 1000 = \(alias).lineNo))
        """
    }
}
