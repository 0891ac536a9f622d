import InventoryDomain

/// One document in the lists of `GET /api/v1/purchases` and `GET /api/v1/sales`.
struct SummaryResponse: Encodable, Sendable {
    var id: Int64
    var effectiveAt: String
    var partyName: String?
    var lineCount: Int
    var total: String
    var note: String

    init(_ summary: DocumentSummary, formats: Formats) {
        self.id = summary.id
        self.effectiveAt = formats.string(summary.effectiveAt)
        self.partyName = summary.partyName
        self.lineCount = summary.lineCount
        self.total = formats.string(summary.total)
        self.note = summary.note
    }
}

/// The answer of `POST /api/v1/adjustments` and the returns: the new document's id.
struct CreatedResponse: Encodable, Sendable {
    var id: Int64
}
