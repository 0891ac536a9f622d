import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

/// `/api/v1/purchases`, `/api/v1/sales`, returns and adjustments: every write re-costs exactly as the core does.
struct DocumentController<Repository: InventoryRepository> {
    let repository: Repository

    // MARK: Purchases

    struct PurchaseRequest: Decodable, Sendable {
        var effectiveAt: String?
        var supplierId: Int64?
        var note: String?
        var lines: [Line]

        struct Line: Decodable, Sendable {
            var productId: Int64?
            var newProduct: ProductController<Repository>.ProductRequest?
            var quantity: String
            var unitCost: String
            var lotCode: String?
            var expiryDate: String?

            enum CodingKeys: String, CodingKey, CaseIterable { case productId, newProduct, quantity, unitCost, lotCode, expiryDate }

            init(from decoder: any Decoder) throws {
                try decoder.rejectUnknownKeys(CodingKeys.self)
                let c = try decoder.container(keyedBy: CodingKeys.self)
                self.productId = try c.decodeIfPresent(Int64.self, forKey: .productId)
                self.newProduct = try c.decodeIfPresent(ProductController<Repository>.ProductRequest.self, forKey: .newProduct)
                self.quantity = try c.decode(String.self, forKey: .quantity)
                self.unitCost = try c.decode(String.self, forKey: .unitCost)
                self.lotCode = try c.decodeIfPresent(String.self, forKey: .lotCode)
                self.expiryDate = try c.decodeIfPresent(String.self, forKey: .expiryDate)
            }
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case effectiveAt, supplierId, note, lines }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.effectiveAt = try c.decodeIfPresent(String.self, forKey: .effectiveAt)
            self.supplierId = try c.decodeIfPresent(Int64.self, forKey: .supplierId)
            self.note = try c.decodeIfPresent(String.self, forKey: .note)
            self.lines = try c.decode([Line].self, forKey: .lines)
        }

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

    struct PurchaseResponse: Encodable, Sendable {
        var id: Int64
        var effectiveAt: String
        var recordedAt: String
        var supplierId: Int64?
        var supplierName: String?
        var note: String
        var total: String
        var lines: [Line]

        struct Line: Encodable, Sendable {
            var id: Int64
            var productId: Int64
            var productName: String
            var quantity: String
            var unitCost: String
            var amount: String
            var lotCode: String?
            var expiryDate: String?
            /// The product's average cost after the line, rounded once (``LedgerBalance/roundedAverageCost``).
            var averageCostAfter: String
            /// The same at full precision.
            var averageCostAfterExact: String
        }

        init(_ p: PurchaseRecord, _ f: Formats) {
            self.id = p.id.rawValue
            self.effectiveAt = f.string(p.effectiveAt)
            self.recordedAt = f.string(p.recordedAt)
            self.supplierId = p.supplierID?.rawValue
            self.supplierName = p.supplierName
            self.note = p.note
            self.total = f.string(p.total)
            self.lines = p.lines.map {
                Line(id: $0.movementID.rawValue, productId: $0.productID.rawValue, productName: $0.productName, quantity: $0.quantity.decimalString,
                     unitCost: f.string($0.unitCost), amount: f.string($0.amount), lotCode: $0.lotCode, expiryDate: $0.expiryDate,
                     averageCostAfter: f.string($0.balanceAfter.roundedAverageCost), averageCostAfterExact: f.exactString($0.averageCostAfter))
            }
        }
    }

    // MARK: Sales

    struct SaleRequest: Decodable, Sendable {
        var effectiveAt: String?
        var customerId: Int64?
        var note: String?
        var tip: String?
        var paymentMethod: String?
        var cashTendered: String?
        var lines: [Line]

        struct Line: Decodable, Sendable {
            var productId: Int64
            var quantity: String
            var unitPrice: String?
            var discount: String?
            /// A discount as a percentage of the line's amount; the domain turns it into money.
            var discountPercent: String?
            var taxRate: String?

            enum CodingKeys: String, CodingKey, CaseIterable { case productId, quantity, unitPrice, discount, discountPercent, taxRate }

            init(from decoder: any Decoder) throws {
                try decoder.rejectUnknownKeys(CodingKeys.self)
                let c = try decoder.container(keyedBy: CodingKeys.self)
                self.productId = try c.decode(Int64.self, forKey: .productId)
                self.quantity = try c.decode(String.self, forKey: .quantity)
                self.unitPrice = try c.decodeIfPresent(String.self, forKey: .unitPrice)
                self.discount = try c.decodeIfPresent(String.self, forKey: .discount)
                self.discountPercent = try c.decodeIfPresent(String.self, forKey: .discountPercent)
                self.taxRate = try c.decodeIfPresent(String.self, forKey: .taxRate)
            }
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case effectiveAt, customerId, note, tip, paymentMethod, cashTendered, lines }

        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.effectiveAt = try c.decodeIfPresent(String.self, forKey: .effectiveAt)
            self.customerId = try c.decodeIfPresent(Int64.self, forKey: .customerId)
            self.note = try c.decodeIfPresent(String.self, forKey: .note)
            self.tip = try c.decodeIfPresent(String.self, forKey: .tip)
            self.paymentMethod = try c.decodeIfPresent(String.self, forKey: .paymentMethod)
            self.cashTendered = try c.decodeIfPresent(String.self, forKey: .cashTendered)
            self.lines = try c.decode([Line].self, forKey: .lines)
        }

        func draft(_ formats: Formats, repository: Repository, allowBelowMinimum: Bool, soldBy: String) async throws -> SaleDraft {
            try requireLineLimit(self.lines.count)
            var lines: [SaleDraft.Line] = []
            for (index, line) in self.lines.enumerated() {
                let field = "lines[\(index)]"
                let price: Money
                if let text = line.unitPrice {
                    price = try formats.money(text, field: "\(field).unitPrice")
                } else {
                    do {
                        price = try await repository.product(ProductID(line.productId)).details.salePrice
                        try price.requireWithinLimit(field: "\(field).unitPrice", currency: formats.currency)
                    } catch let error as InventoryError {
                        throw InventoryError(error.code, field: "\(field).productId", error.userMessage)
                    }
                }
                let quantity = try formats.quantity(line.quantity, field: "\(field).quantity")
                let discount = try formats.money(line.discount, field: "\(field).discount")
                let percent = try line.discountPercent.map { try Percent.parse($0, field: "\(field).discountPercent", maximum: 100) }
                let taxRate = try line.taxRate.map { try Percent.parse($0, field: "\(field).taxRate") }
                switch (discount, percent) {
                case (_, nil):
                    lines.append(SaleDraft.Line(productID: ProductID(line.productId), quantity: quantity, unitPrice: price, discount: discount ?? .zero, taxRate: taxRate))
                case (nil, let percent?):
                    lines.append(SaleDraft.Line(productID: ProductID(line.productId), quantity: quantity, unitPrice: price, discountPercent: percent, taxRate: taxRate))
                case (.some, .some):
                    throw InventoryError(.invalidValue, field: "\(field).discountPercent", "give either discount or discountPercent, not both")
                }
            }
            let payment = try self.paymentMethod.map { text in
                guard let method = PaymentMethod(rawValue: text) else {
                    throw InventoryError(.invalidValue, field: "paymentMethod", "must be cash, card or other")
                }
                return method
            } ?? .cash
            return SaleDraft(effectiveAt: try formats.date(self.effectiveAt, field: "effectiveAt"), customerID: self.customerId.map(CustomerID.init(rawValue:)),
                             note: self.note ?? "", lines: lines, tip: try formats.money(self.tip, field: "tip") ?? .zero,
                             paymentMethod: payment, allowBelowMinimum: allowBelowMinimum, soldBy: soldBy,
                             cashTendered: try formats.money(self.cashTendered, field: "cashTendered"))
        }
    }

    struct SaleResponse: Encodable, Sendable {
        var id: Int64
        var effectiveAt: String
        var recordedAt: String
        var customerId: Int64?
        var customerName: String?
        var note: String
        var paymentMethod: String
        var revenue: String
        var tax: String
        var tip: String
        var total: String
        var costOfGoodsSold: String
        var profit: String
        var soldBy: String
        var cashTendered: String?
        var change: String?
        var discount: String
        var taxes: [TaxShare]
        var lines: [Line]

        struct TaxShare: Encodable, Sendable {
            var taxRate: String
            var revenue: String
            var tax: String
        }

        struct Line: Encodable, Sendable {
            var id: Int64
            var productId: Int64
            var productName: String
            var quantity: String
            var unitPrice: String
            var amount: String
            var discount: String
            var taxRate: String
            var tax: String
            var revenue: String
            var costOfGoodsSold: String
            var returnedQuantity: String
        }

        init(_ s: SaleRecord, _ f: Formats) {
            self.id = s.id.rawValue
            self.effectiveAt = f.string(s.effectiveAt)
            self.recordedAt = f.string(s.recordedAt)
            self.customerId = s.customerID?.rawValue
            self.customerName = s.customerName
            self.note = s.note
            self.paymentMethod = s.paymentMethod.rawValue
            self.revenue = f.string(s.revenue)
            self.tax = f.string(s.tax)
            self.tip = f.string(s.tip)
            self.total = f.string(s.total)
            self.costOfGoodsSold = f.string(s.costOfGoodsSold)
            self.profit = f.string(s.revenue - s.costOfGoodsSold)
            self.soldBy = s.soldBy
            self.cashTendered = s.cashTendered.map(f.string)
            self.change = s.change.map(f.string)
            self.discount = f.string(s.discount)
            self.taxes = s.taxShares.map { TaxShare(taxRate: $0.rate.decimalString, revenue: f.string($0.revenue), tax: f.string($0.tax)) }
            self.lines = s.lines.map {
                Line(id: $0.movementID.rawValue, productId: $0.productID.rawValue, productName: $0.productName, quantity: $0.quantity.decimalString,
                     unitPrice: f.string($0.unitPrice), amount: f.string($0.amount), discount: f.string($0.discount), taxRate: $0.taxRate.decimalString, tax: f.string($0.tax),
                     revenue: f.string($0.revenue), costOfGoodsSold: f.string($0.costOfGoodsSold), returnedQuantity: $0.returnedQuantity.decimalString)
            }
        }
    }

    struct SummaryResponse: Encodable, Sendable {
        var id: Int64
        var effectiveAt: String
        var partyName: String?
        var lineCount: Int
        var total: String
        var note: String
    }

    // MARK: Returns and adjustments

    struct CustomerReturnRequest: Decodable, Sendable {
        var effectiveAt: String?
        var saleId: Int64
        var note: String?
        var lines: [Line]

        struct Line: Decodable, Sendable {
            var saleLineId: Int64
            var quantity: String
        }
    }

    struct SupplierReturnRequest: Decodable, Sendable {
        var effectiveAt: String?
        var supplierId: Int64?
        var note: String?
        var lines: [Line]

        struct Line: Decodable, Sendable {
            var productId: Int64
            var quantity: String
        }
    }

    struct AdjustmentRequest: Decodable, Sendable {
        var effectiveAt: String?
        var productId: Int64
        var quantityChange: String
        var reason: String
        var note: String?
        var unitCost: String?
    }

    struct Created: Encodable, Sendable {
        var id: Int64
    }

    func addRoutes(purchases: Routes, sales: Routes, returns: Routes, adjustments: Routes) {
        purchases.get(.permission(.purchase)) { request, _ in
            let limit = try request.queryInt("limit", default: 50, range: 1...500), offset = try request.queryInt("offset", default: 0, range: 0...Int(Int32.max))
            return JSON(try await self.summaries(try await self.repository.purchases(limit: limit, offset: offset)))
        }
        purchases.post(.permission(.purchase)) { request, context in
            let dryRun = try request.dryRunFlag()
            let (body, bytes) = try await request.decodeJSONBody(as: PurchaseRequest.self, context: context)
            let (formats, settings) = try await self.formats()
            let draft = try body.draft(formats, defaultTax: settings.defaultTaxRate)
            if dryRun { return JSON(PurchaseResponse(try await self.repository.previewPurchase(draft, replacing: nil), formats)) }
            let booked = try await self.repository.postPurchase(draft, idempotency: try Self.idempotencyKey(request, context, bytes))
            return Self.created(PurchaseResponse(booked.record, formats), booked)
        }
        purchases.get(":id", .permission(.purchase)) { request, context in
            JSON(PurchaseResponse(try await self.repository.purchase(PurchaseID(try request.id(context))), try await self.formats().0))
        }
        purchases.put(":id", .permission(.purchase)) { request, context in
            let id = PurchaseID(try request.id(context))
            let dryRun = try request.dryRunFlag()
            let body = try await request.decodeJSON(as: PurchaseRequest.self, context: context)
            let (formats, settings) = try await self.formats()
            let draft = try body.draft(formats, defaultTax: settings.defaultTaxRate)
            if dryRun { return JSON(PurchaseResponse(try await self.repository.previewPurchase(draft, replacing: id), formats)) }
            return JSON(PurchaseResponse(try await self.repository.updatePurchase(id, draft), formats))
        }
        purchases.delete(":id", .permission(.deleteTransactions)) { request, context in
            try await self.repository.deletePurchase(PurchaseID(try request.id(context)))
            return Response(status: .noContent)
        }

        sales.get(.permission(.sell)) { request, _ in
            let limit = try request.queryInt("limit", default: 50, range: 1...500), offset = try request.queryInt("offset", default: 0, range: 0...Int(Int32.max))
            return JSON(try await self.summaries(try await self.repository.sales(limit: limit, offset: offset)))
        }
        sales.post(.permission(.sell)) { request, context in
            let dryRun = try request.dryRunFlag()
            let (body, bytes) = try await request.decodeJSONBody(as: SaleRequest.self, context: context)
            let formats = try await self.formats().0
            let draft = try await body.draft(formats, repository: self.repository, allowBelowMinimum: context.identity?.allows(.sellBelowMinimum) ?? false,
                                             soldBy: context.identity?.account.username ?? "")
            if dryRun { return JSON(SaleResponse(try await self.repository.previewSale(draft, replacing: nil), formats)) }
            let booked = try await self.repository.postSale(draft, idempotency: try Self.idempotencyKey(request, context, bytes))
            return Self.created(SaleResponse(booked.record, formats), booked)
        }
        sales.get(":id", .permission(.sell)) { request, context in
            JSON(SaleResponse(try await self.repository.sale(SaleID(try request.id(context))), try await self.formats().0))
        }
        // Editing a sale after the fact is a refund-level change.
        sales.put(":id", .permission(.refund)) { request, context in
            let id = SaleID(try request.id(context))
            let dryRun = try request.dryRunFlag()
            let body = try await request.decodeJSON(as: SaleRequest.self, context: context)
            let formats = try await self.formats().0
            // An edit keeps who rang the sale up.
            let seller = try await self.repository.sale(id).soldBy
            let draft = try await body.draft(formats, repository: self.repository, allowBelowMinimum: context.identity?.allows(.sellBelowMinimum) ?? false,
                                             soldBy: seller)
            if dryRun { return JSON(SaleResponse(try await self.repository.previewSale(draft, replacing: id), formats)) }
            return JSON(SaleResponse(try await self.repository.updateSale(id, draft), formats))
        }
        sales.delete(":id", .permission(.deleteTransactions)) { request, context in
            try await self.repository.deleteSale(SaleID(try request.id(context)))
            return Response(status: .noContent)
        }

        returns.post("customer", .permission(.refund)) { request, context in
            let (body, bytes) = try await request.decodeJSONBody(as: CustomerReturnRequest.self, context: context)
            let formats = try await self.formats().0
            try requireLineLimit(body.lines.count)
            let lines = try body.lines.enumerated().map { index, line in
                CustomerReturnDraft.Line(saleLineID: MovementID(line.saleLineId), quantity: try formats.quantity(line.quantity, field: "lines[\(index)].quantity"))
            }
            let booked = try await self.repository.postCustomerReturn(CustomerReturnDraft(
                effectiveAt: try formats.date(body.effectiveAt, field: "effectiveAt"), saleID: SaleID(body.saleId), note: body.note ?? "", lines: lines),
                idempotency: try Self.idempotencyKey(request, context, bytes))
            return Self.created(Created(id: booked.record.rawValue), booked)
        }
        returns.delete("customer/:id", .permission(.deleteTransactions)) { request, context in
            try await self.repository.deleteCustomerReturn(CustomerReturnID(try request.id(context)))
            return Response(status: .noContent)
        }
        returns.post("supplier", .permission(.purchase)) { request, context in
            let (body, bytes) = try await request.decodeJSONBody(as: SupplierReturnRequest.self, context: context)
            let formats = try await self.formats().0
            try requireLineLimit(body.lines.count)
            let lines = try body.lines.enumerated().map { index, line in
                SupplierReturnDraft.Line(productID: ProductID(line.productId), quantity: try formats.quantity(line.quantity, field: "lines[\(index)].quantity"))
            }
            let booked = try await self.repository.postSupplierReturn(SupplierReturnDraft(
                effectiveAt: try formats.date(body.effectiveAt, field: "effectiveAt"), supplierID: body.supplierId.map(SupplierID.init(rawValue:)),
                note: body.note ?? "", lines: lines), idempotency: try Self.idempotencyKey(request, context, bytes))
            return Self.created(Created(id: booked.record.rawValue), booked)
        }
        returns.delete("supplier/:id", .permission(.deleteTransactions)) { request, context in
            try await self.repository.deleteSupplierReturn(SupplierReturnID(try request.id(context)))
            return Response(status: .noContent)
        }

        adjustments.post(.permission(.adjustStock)) { request, context in
            let (body, bytes) = try await request.decodeJSONBody(as: AdjustmentRequest.self, context: context)
            let formats = try await self.formats().0
            guard let reason = AdjustmentReason(rawValue: body.reason) else {
                throw InventoryError(.invalidValue, field: "reason", "must be one of \(AdjustmentReason.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let booked = try await self.repository.postAdjustment(AdjustmentDraft(
                effectiveAt: try formats.date(body.effectiveAt, field: "effectiveAt"), productID: ProductID(body.productId),
                quantityChange: try formats.quantity(body.quantityChange, field: "quantityChange"), reason: reason, note: body.note ?? "",
                unitCost: try formats.money(body.unitCost, field: "unitCost")), idempotency: try Self.idempotencyKey(request, context, bytes))
            return Self.created(Created(id: booked.record.rawValue), booked)
        }
        adjustments.delete(":id", .permission(.deleteTransactions)) { request, context in
            try await self.repository.deleteAdjustment(AdjustmentID(try request.id(context)))
            return Response(status: .noContent)
        }
    }

    func formats() async throws -> (Formats, ShopSettings) { try await self.repository.formats() }

    /// The `Idempotency-Key` header, if sent, as the domain's key: the caller's, fingerprinted with the method, the
    /// path and the body's bytes (so the same key with another request is refused).
    static func idempotencyKey(_ request: Request, _ context: AppRequestContext, _ body: Data) throws -> IdempotencyKey? {
        guard let name = HTTPField.Name("Idempotency-Key"), let key = request.headers[name] else { return nil }
        guard let user = context.identity?.account.id else { return nil }
        var hash = SHA256()
        hash.update(data: Data("\(request.method.rawValue) \(request.uri.path)\n".utf8))
        hash.update(data: body)
        let fingerprint = hash.finalize().map { String(format: "%02x", $0) }.joined()
        return try IdempotencyKey(userID: user, key: key, fingerprint: fingerprint)
    }

    /// 201 with the record; a replay of an earlier request with the same key says so in `Idempotent-Replayed: true`.
    static func created<Body: Encodable & Sendable, Record>(_ body: Body, _ booked: Idempotent<Record>) -> JSON<Body> {
        var headers: HTTPFields = [:]
        if booked.replayed, let name = HTTPField.Name("Idempotent-Replayed") { headers[name] = "true" }
        return JSON(body, status: .created, headers: headers)
    }

    func summaries(_ list: [DocumentSummary]) async throws -> [SummaryResponse] {
        let formats = try await self.formats().0
        return list.map {
            SummaryResponse(id: $0.id, effectiveAt: formats.string($0.effectiveAt), partyName: $0.partyName, lineCount: $0.lineCount,
                            total: formats.string($0.total), note: $0.note)
        }
    }
}

extension DocumentController.CustomerReturnRequest: KnownFields {
    static var fields: [String] { ["effectiveAt", "saleId", "note", "lines"] }
    static var nested: [String: [String]] { ["lines": ["saleLineId", "quantity"]] }
}

extension DocumentController.SupplierReturnRequest: KnownFields {
    static var fields: [String] { ["effectiveAt", "supplierId", "note", "lines"] }
    static var nested: [String: [String]] { ["lines": ["productId", "quantity"]] }
}

extension DocumentController.AdjustmentRequest: KnownFields {
    static var fields: [String] { ["effectiveAt", "productId", "quantityChange", "reason", "note", "unitCost"] }
}
