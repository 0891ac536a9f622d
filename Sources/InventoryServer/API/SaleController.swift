import Hummingbird
import InventoryDomain

/// `/api/v1/sales`: sales at the till or on account; every write re-costs exactly as the ledger does.
struct SaleController<Store: LedgerRepository & SettingsRepository & StaffRepository> {
    let store: Store
    let secrets: Secrets

    func addRoutes(to sales: Routes) {
        sales.get(.permission(.sell), use: self.list)
        sales.post(.permission(.sell), use: self.create)
        sales.get(":id", .permission(.sell), use: self.get)
        // Editing a sale after the fact is a refund-level change.
        sales.put(":id", .permission(.refund), use: self.update)
        sales.delete(":id", .permission(.deleteTransactions), use: self.delete)
        // Settling a pending card payment (completed, or failed) is part of taking it.
        sales.put(":id/payments/:paymentId", .permission(.sell), use: self.settlePayment)
    }

    @Sendable func settlePayment(_ request: Request, context: AppRequestContext) async throws -> JSON<SaleResponse> {
        let saleID = SaleID(try request.id(context))
        let paymentID = PaymentID(try request.id(context, "paymentId"))
        let body = try await request.decodeJSON(as: PaymentSettleRequest.self, context: context)
        guard let status = PaymentStatus(rawValue: body.status) else {
            throw InventoryError(.invalidValue, field: "status", "must be completed or failed")
        }
        let formats = try await self.store.formats().0
        return JSON(SaleResponse(try await self.store.settlePayment(paymentID, of: saleID, to: status), formats))
    }

    /// `?search=&customerId=&productId=&from=&to=` find sales (``SaleQuery``); `from` and `to` take a day (`to`: to its
    /// end) or a date-time in the shop's time zone.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSON<[SummaryResponse]> {
        let (limit, offset) = try request.page()
        let formats = try await self.store.formats().0
        func id(_ name: String) throws -> Int64? {
            guard let text = request.query(name) else { return nil }
            guard let id = Int64(text), id > 0 else { throw InventoryError(.invalidValue, field: name, "'\(text.prefix(40))' is not an id") }
            return id
        }
        var query = SaleQuery(search: request.query("search"), limit: limit, offset: offset)
        if let customer = try id("customerId") { query.customerID = CustomerID(customer) }
        if let product = try id("productId") { query.productID = ProductID(product) }
        let range = try formats.calendar.range(from: request.query("from"), to: request.query("to"))
        (query.from, query.to) = (range.from, range.to)
        return JSON(try await self.store.sales(query).map { SummaryResponse($0, formats: formats) })
    }

    /// `?dryRun=true` answers what would be booked and books nothing.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> JSON<SaleResponse> {
        let dryRun = try request.dryRunFlag()
        let (body, bytes) = try await request.decodeJSONBody(as: SaleRequest.self, context: context)
        let formats = try await self.store.formats().0
        let draft = try body.draft(formats, approvedBy: try await self.approver(body.approval, context: context),
                                   soldBy: context.identity?.account.username ?? "")
        if dryRun { return JSON(SaleResponse(preview: try await self.store.previewSale(draft, replacing: nil), formats)) }
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
        let draft = try body.draft(formats, approvedBy: try await self.approver(body.approval, context: context), soldBy: "")
        if dryRun { return JSON(SaleResponse(preview: try await self.store.previewSale(draft, replacing: id), formats)) }
        return JSON(SaleResponse(try await self.store.updateSale(id, draft), formats))
    }

    /// Who may approve prices below the products' minimum on this request: the signed-in user when their role allows
    /// it; else the manager whose username and PIN came with the sale (checked, and throttled, as the PIN lock checks
    /// them); else nobody.
    /// - Throws: 403 on `approval.pin` for a wrong username or PIN (not 401: the cashier's session is fine), 429 after
    ///   too many, 403 on `approval.username` for a role that may not approve, 422 on `approval.pin` for a malformed PIN.
    func approver(_ approval: SaleRequest.Approval?, context: AppRequestContext) async throws -> String? {
        if let identity = context.identity, identity.allows(.sellBelowMinimum) { return identity.account.username }
        guard let approval else { return nil }
        do {
            try StaffAccount.validatePIN(approval.pin)
        } catch let error as InventoryError {
            throw error.nested(under: "approval")
        }
        let account: StaffAccount
        do {
            account = try await SecretCheck(staff: self.store, secrets: self.secrets).verify(
                username: approval.username, secret: approval.pin, kind: "PIN", address: context.clientAddress) { $0.pinHash }
        } catch var problem as Problem where problem.status == .unauthorized {
            // Not 401: the cashier's own session is fine, only the manager's PIN is wrong.
            problem.status = .forbidden
            problem.field = "approval.pin"
            throw problem
        }
        guard account.role.allows(.sellBelowMinimum) else {
            throw Problem(.forbidden, code: .forbidden, title: "Not allowed",
                          detail: "\(account.username) may not approve prices below the minimum; a manager must", field: "approval.username")
        }
        return account.username
    }

    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await self.store.deleteSale(SaleID(try request.id(context)))
        return Response(status: .noContent)
    }
}
