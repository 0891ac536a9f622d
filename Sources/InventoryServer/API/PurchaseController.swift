import Hummingbird
import InventoryDomain

/// `/api/v1/purchases`: receipts from suppliers; every write re-costs exactly as the ledger does.
struct PurchaseController<Store: LedgerRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to purchases: Routes) {
        purchases.get(.permission(.purchase), use: self.list)
        purchases.post(.permission(.purchase), use: self.create)
        purchases.get(":id", .permission(.purchase), use: self.get)
        purchases.put(":id", .permission(.purchase), use: self.update)
        purchases.delete(":id", .permission(.deleteTransactions), use: self.delete)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSON<[SummaryResponse]> {
        let (limit, offset) = try request.page()
        let formats = try await self.store.formats().0
        return JSON(try await self.store.purchases(limit: limit, offset: offset).map { SummaryResponse($0, formats: formats) })
    }

    /// `?dryRun=true` answers what would be booked and books nothing.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSON<PurchaseResponse> {
        let dryRun = try request.dryRunFlag()
        let (body, bytes) = try await request.decodeJSONBody(as: PurchaseRequest.self, context: context)
        let (formats, settings) = try await self.store.formats()
        let draft = try body.draft(formats, defaultTax: settings.defaultTaxRate)
        if dryRun { return JSON(PurchaseResponse(try await self.store.previewPurchase(draft, replacing: nil), formats)) }
        let booked = try await self.store.postPurchase(draft, idempotency: try request.idempotencyKey(context, body: bytes))
        return .created(PurchaseResponse(booked.record, formats), booked)
    }

    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> JSON<PurchaseResponse> {
        JSON(PurchaseResponse(try await self.store.purchase(PurchaseID(try request.id(context))), try await self.store.formats().0))
    }

    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> JSON<PurchaseResponse> {
        let id = PurchaseID(try request.id(context))
        let dryRun = try request.dryRunFlag()
        let body = try await request.decodeJSON(as: PurchaseRequest.self, context: context)
        let (formats, settings) = try await self.store.formats()
        let draft = try body.draft(formats, defaultTax: settings.defaultTaxRate)
        if dryRun { return JSON(PurchaseResponse(try await self.store.previewPurchase(draft, replacing: id), formats)) }
        return JSON(PurchaseResponse(try await self.store.updatePurchase(id, draft), formats))
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await self.store.deletePurchase(PurchaseID(try request.id(context)))
        return Response(status: .noContent)
    }
}
