import Hummingbird
import InventoryDomain

/// `/api/v1/reorder`: what to buy per supplier (``ReorderRule``), with the figures behind each line.
struct ReorderController<Store: ReportRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to reorder: Routes) {
        reorder.get(.permission(.purchase), use: self.suggestions)
    }

    /// `GET /reorder?window=28&cover=14&supplierId=`: the suggestions, all suppliers' or one's.
    @Sendable func suggestions(_ request: Request, context: some RequestContext) async throws -> JSON<ReorderResponse> {
        let supplier = try request.query("supplierId").map { text in
            guard let id = Int64(text), id > 0 else { throw InventoryError(.invalidValue, field: "supplierId", "must be a supplier's id") }
            return SupplierID(rawValue: id)
        }
        return JSON(try await self.suggestions(window: request.query("window"), cover: request.query("cover"), supplier: supplier))
    }

    /// The suggestions (the route and the command line's `reorder --json` answer these).
    func suggestions(window: String?, cover: String?, supplier: SupplierID?, now: Instant = .now) async throws -> ReorderResponse {
        let terms = try ReorderTerms.parse(window: window, cover: cover)
        let (formats, _) = try await self.store.formats()
        let facts = try await self.store.reorderFacts(soldWithin: terms.interval(endingAt: now, calendar: formats.calendar))
        if let supplier, !facts.suppliers.contains(where: { $0.id == supplier }) {
            throw InventoryError(.notFound, field: "supplierId", "supplier \(supplier) does not exist")
        }
        let groups = facts.suggestions(terms).filter { supplier == nil || $0.supplier?.id == supplier }
        return ReorderResponse(groups, terms: terms, days: terms.days(endingAt: now, calendar: formats.calendar), formats: formats)
    }
}
