import Hummingbird
import InventoryDomain

/// `/api/v1/adjustments`: stock counts and corrections with their reasons.
struct AdjustmentController<Store: LedgerRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to adjustments: Routes) {
        adjustments.post(.permission(.adjustStock), use: self.create)
        adjustments.delete(":id", .permission(.deleteTransactions), use: self.delete)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSON<CreatedResponse> {
        let (body, bytes) = try await request.decodeJSONBody(as: AdjustmentRequest.self, context: context)
        let formats = try await self.store.formats().0
        let booked = try await self.store.postAdjustment(try body.draft(formats), idempotency: try request.idempotencyKey(context, body: bytes))
        return .created(CreatedResponse(id: booked.record.rawValue), booked)
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await self.store.deleteAdjustment(AdjustmentID(try request.id(context)))
        return Response(status: .noContent)
    }
}
