import Hummingbird
import InventoryDomain

/// `/api/v1/purchases`: receipts from suppliers; every write re-costs exactly as the ledger does.
struct PurchaseController<Store: InventoryRepository> {
    let store: Store

    /// `POST` and `PUT /api/v1/purchases`: a receipt from a supplier, each line an existing product or a new one.
    struct PurchaseRequest: Decodable, Sendable, KnownFields {
        var effectiveAt: String?
        var supplierId: Int64?
        var note: String?
        var lines: [Line]

        struct Line: Decodable, Sendable, KnownFields {
            var productId: Int64?
            var newProduct: ProductController<Store>.ProductRequest?
            var quantity: String
            var unitCost: String
            var lotCode: String?
            var expiryDate: String?

            enum CodingKeys: String, CodingKey, CaseIterable { case productId, newProduct, quantity, unitCost, lotCode, expiryDate }
            static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case effectiveAt, supplierId, note, lines }
        static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }
        static var nested: [String: any KnownFields.Type] { ["lines": Line.self] }

        func draft(_ formats: Formats, defaultTax: Percent) throws -> PurchaseDraft {
            try requireLineLimit(self.lines.count)
            let lines = try self.lines.enumerated().map { index, line -> PurchaseDraft.Line in
                let field = "lines[\(index)]"
                let product: ProductReference
                switch (line.productId, line.newProduct) {
                case (let id?, nil): product = .existing(ProductID(id))
                case (nil, let new?):
                    do {
                        product = .new(try new.details(formats: formats, defaultTax: defaultTax))
                    } catch let error as InventoryError {
                        throw error.nested(under: "\(field).newProduct")
                    }
                default:
                    throw InventoryError(.missingValue, field: "\(field).productId", "give either productId or newProduct")
                }
                return PurchaseDraft.Line(
                    product: product, quantity: try formats.quantity(line.quantity, field: "\(field).quantity"),
                    unitCost: try formats.money(line.unitCost, field: "\(field).unitCost"), lotCode: line.lotCode, expiryDate: line.expiryDate)
            }
            return PurchaseDraft(effectiveAt: try formats.date(self.effectiveAt, field: "effectiveAt"),
                                 supplierID: self.supplierId.map(SupplierID.init(rawValue:)), note: self.note ?? "", lines: lines)
        }
    }

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
