import Hummingbird
import InventoryDomain

/// `/api/v1/returns/customer` and `/api/v1/returns/supplier`: goods coming back from a customer or going back to a
/// supplier.
struct ReturnController<Store: LedgerRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to returns: Routes) {
        returns.post("customer", .permission(.refund), use: self.createCustomerReturn)
        returns.delete("customer/:id", .permission(.deleteTransactions), use: self.deleteCustomerReturn)
        returns.post("supplier", .permission(.purchase), use: self.createSupplierReturn)
        returns.delete("supplier/:id", .permission(.deleteTransactions), use: self.deleteSupplierReturn)
    }

    /// `?dryRun=true` answers what the return would give back, line by line and payment by payment, and books nothing.
    @Sendable func createCustomerReturn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let dryRun = try request.dryRunFlag()
        let (body, bytes) = try await request.decodeJSONBody(as: CustomerReturnRequest.self, context: context)
        let formats = try await self.store.formats().0
        let draft = try body.draft(formats)
        if dryRun {
            return try JSON(CustomerReturnPreviewResponse(try await self.store.previewCustomerReturn(draft), formats)).response(from: request, context: context)
        }
        let booked = try await self.store.postCustomerReturn(draft, idempotency: try request.idempotencyKey(context, body: bytes))
        return try JSON<CreatedResponse>.created(CreatedResponse(id: booked.record.rawValue), booked).response(from: request, context: context)
    }

    @Sendable func deleteCustomerReturn(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await self.store.deleteCustomerReturn(CustomerReturnID(try request.id(context)))
        return Response(status: .noContent)
    }

    @Sendable func createSupplierReturn(_ request: Request, context: AppRequestContext) async throws -> JSON<CreatedResponse> {
        let (body, bytes) = try await request.decodeJSONBody(as: SupplierReturnRequest.self, context: context)
        let formats = try await self.store.formats().0
        try requireLineLimit(body.lines.count)
        let lines = try body.lines.enumerated().map { index, line in
            SupplierReturnDraft.Line(productID: ProductID(line.productId), quantity: try formats.quantity(line.quantity, field: "lines[\(index)].quantity"))
        }
        let draft = SupplierReturnDraft(
            effectiveAt: try formats.date(body.effectiveAt, field: "effectiveAt"), supplierID: body.supplierId.map(SupplierID.init(rawValue:)),
            note: body.note ?? "", lines: lines).dating(whenBooked: body.effectiveAt == nil)
        let booked = try await self.store.postSupplierReturn(draft, idempotency: try request.idempotencyKey(context, body: bytes))
        return .created(CreatedResponse(id: booked.record.rawValue), booked)
    }

    @Sendable func deleteSupplierReturn(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await self.store.deleteSupplierReturn(SupplierReturnID(try request.id(context)))
        return Response(status: .noContent)
    }
}
