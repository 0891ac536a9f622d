import Hummingbird
import InventoryDomain

/// `/api/v1/sales`: sales at the till or on account; every write re-costs exactly as the ledger does.
struct SaleController<Store: LedgerRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to sales: Routes) {
        sales.get(.permission(.sell), use: self.list)
        sales.post(.permission(.sell), use: self.create)
        sales.get(":id", .permission(.sell), use: self.get)
        // Editing a sale after the fact is a refund-level change.
        sales.put(":id", .permission(.refund), use: self.update)
        sales.delete(":id", .permission(.deleteTransactions), use: self.delete)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSON<[SummaryResponse]> {
        let (limit, offset) = try request.page()
        let formats = try await self.store.formats().0
        return JSON(try await self.store.sales(limit: limit, offset: offset).map { SummaryResponse($0, formats: formats) })
    }

    /// `?dryRun=true` answers what would be booked and books nothing.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSON<SaleResponse> {
        let dryRun = try request.dryRunFlag()
        let (body, bytes) = try await request.decodeJSONBody(as: SaleRequest.self, context: context)
        let formats = try await self.store.formats().0
        let draft = try body.draft(formats, allowBelowMinimum: context.identity?.allows(.sellBelowMinimum) ?? false,
                                   soldBy: context.identity?.account.username ?? "")
        if dryRun { return JSON(SaleResponse(try await self.store.previewSale(draft, replacing: nil), formats)) }
        let booked = try await self.store.postSale(draft, idempotency: try request.idempotencyKey(context, body: bytes))
        return .created(SaleResponse(booked.record, formats), booked)
    }

    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> JSON<SaleResponse> {
        JSON(SaleResponse(try await self.store.sale(SaleID(try request.id(context))), try await self.store.formats().0))
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> JSON<SaleResponse> {
        let id = SaleID(try request.id(context))
        let dryRun = try request.dryRunFlag()
        let body = try await request.decodeJSON(as: SaleRequest.self, context: context)
        let formats = try await self.store.formats().0
        // An edit keeps who rang the sale up (the store does not change it).
        let draft = try body.draft(formats, allowBelowMinimum: context.identity?.allows(.sellBelowMinimum) ?? false, soldBy: "")
        if dryRun { return JSON(SaleResponse(try await self.store.previewSale(draft, replacing: id), formats)) }
        return JSON(SaleResponse(try await self.store.updateSale(id, draft), formats))
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await self.store.deleteSale(SaleID(try request.id(context)))
        return Response(status: .noContent)
    }
}
