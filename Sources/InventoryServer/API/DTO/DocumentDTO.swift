import InventoryDomain

/// One document in the lists of `GET /api/v1/purchases` and `GET /api/v1/sales`.
struct SummaryResponse: Encodable, Sendable {
    var id: Int64
    var effectiveAt: String
    var partyName: String?
    var lineCount: Int
    var total: String
    var note: String
    /// A sale's receipt number (absent for purchases).
    var receiptNumber: Int64?

    init(_ summary: DocumentSummary, formats: Formats) {
        self.id = summary.id
        self.effectiveAt = formats.string(summary.effectiveAt)
        self.partyName = summary.partyName
        self.lineCount = summary.lineCount
        self.total = formats.string(summary.total)
        self.note = summary.note
        self.receiptNumber = summary.receiptNumber
    }
}

/// The answer of `POST /api/v1/adjustments` and the returns: the new document's id.
struct CreatedResponse: Encodable, Sendable {
    var id: Int64
}
