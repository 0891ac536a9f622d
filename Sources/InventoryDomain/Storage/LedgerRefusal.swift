import Foundation

extension MovementKind {
    /// The document's name in messages (an ingredient issue belongs to a sale).
    public var label: String {
        switch self {
        case .purchase: "purchase"
        case .sale: "sale"
        case .adjustment: "adjustment"
        case .customerReturn: "customer return"
        case .supplierReturn: "supplier return"
        case .consumption: "sale"
        }
    }

    /// The name every backend stores a movement's effect under (`movement.effect`).
    public static func storedName(of effect: MovementEffect) -> String {
        switch effect {
        case .receipt: "receipt"
        case .receiptAtAverage: "receiptAtAverage"
        case .returnToStock: "returnToStock"
        case .issue: "issue"
        case .writeOffReturned: "writeOffReturned"
        }
    }
}

extension MovementEffect {
    /// Whether a stored movement with effect `name` (``MovementKind/storedName(of:)``) is costed from the sale line it
    /// came back from (its source's booked cost, passed to ``init(storedName:quantity:unitAmount:source:)``).
    public static func needsSource(storedName name: String) -> Bool {
        name == "returnToStock" || name == "writeOffReturned"
    }

    /// A stored movement's effect, for a replay: `quantity` is the stored (signed) change, `unitAmount` its stored unit
    /// amount, and `source` the cost and quantity its source sale line is booked at now (for the names that
    /// ``needsSource(storedName:)``: a return comes back, or is written off, at that cost).
    public init(storedName name: String, quantity: Quantity, unitAmount: Money, source: (cost: Money, quantity: Quantity)?) {
        switch name {
        case "receipt": self = .receipt(quantity: quantity, unitCost: unitAmount)
        case "receiptAtAverage": self = .receiptAtAverage(quantity: quantity)
        case "returnToStock":
            self = .returnToStock(quantity: quantity, bookedCost: source?.cost ?? .zero, bookedQuantity: source?.quantity ?? .zero)
        case "writeOffReturned":
            self = .writeOffReturned(quantity: quantity.magnitude, bookedCost: source?.cost ?? .zero, bookedQuantity: source?.quantity ?? .zero)
        default: self = .issue(quantity: quantity.magnitude)
        }
    }
}

/// Where a recipe's ingredient issues sit in its sale's document.
///
/// A sale line `i` of a recipe product issues its ingredients as ``MovementKind/consumption`` movements of the same
/// document with line numbers `(1000 + i) × 1000 + j` (`j` the ingredient): after every sale line in the document's
/// ledger order, never mistaken for one (a document has at most 1,000 lines), and their line `i` is `lineNo / 1000 −
/// 1000`.
public enum RecipeLines {
    /// The line number of ingredient `component` of sale line `line`.
    public static func lineNo(line: Int, component: Int) -> Int { (1000 + line) * 1000 + component }

    /// The sale line an ingredient issue belongs to.
    public static func saleLine(of lineNo: Int) -> Int { lineNo / 1000 - 1000 }
}

/// How a ledger writer words a line the ledger refuses (stock would go short), whichever backend stores it.
public enum LedgerRefusal {
    /// `error` (``InventoryError/Code/insufficientStock`` from ``StockLedger/apply(_:beyondStock:)``) reworded for the
    /// line at `position`: when the line is the request's own (`requestField`, e.g. `lines[2].quantity`), it names that
    /// field and, for a sale, says a manager may approve; otherwise it names the stored document, line, day and
    /// shortfall the request would cause, with `blame` as the field (a setting whose change caused it), if any.
    public static func reword(
        _ error: InventoryError, effect: MovementEffect, quantityBefore before: Quantity, at position: LedgerPosition, kind: MovementKind,
        productID: ProductID, productName: String, requestField: String?, blame: String?, calendar: ShopCalendar
    ) -> InventoryError {
        var error = error
        let day = ShopCalendar.isoDate(calendar.dayNumber(milliseconds: position.effectiveAt))
        if let field = requestField {
            error.field = field
            error.userMessage = "not enough '\(productName)' in stock on \(day): \(error.userMessage)"
            if kind == .sale || kind == .consumption {
                // The count may be wrong or a delivery not booked yet: a manager may approve selling beyond stock.
                error.managerMayApprove = true
                error.userMessage += "; a manager may approve selling beyond the stock on record"
            }
        } else {
            let missing = Quantity(thousandths: effect.quantity.thousandths - before.thousandths)
            // A recipe's ingredient issue is named by its sale line.
            let (documentKind, line) = kind == .consumption ? (MovementKind.sale, RecipeLines.saleLine(of: position.lineNo) + 1) : (kind, position.lineNo + 1)
            error.field = blame
            error.document = AffectedLine(kind: documentKind, documentID: position.sequence, line: line, date: day,
                                          productID: productID, productName: productName, missing: missing)
            error.userMessage = "this would leave \(documentKind.label) \(position.sequence) (line \(line), \(productName), \(day)) "
                + "\(missing.decimalString) short"
        }
        return error
    }
}
