import Hummingbird
import InventoryDomain

/// `/api/v1/stocktakes`: count sheets. Managers open, post and cancel them; staff read them and count (a scan adds
/// one, a typed figure replaces the count). Every figure is the domain's (``Stocktake``).
struct StocktakeController<Store: StocktakeRepository & CatalogueRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to stocktakes: Routes) {
        stocktakes.get(.permission(.viewCatalogue), use: self.list)
        stocktakes.post(.permission(.adjustStock), use: self.open)
        stocktakes.get(":id", .permission(.viewCatalogue), use: self.get)
        stocktakes.post(":id/counts", .permission(.scan), use: self.count)
        stocktakes.post(":id/post", .permission(.adjustStock), use: self.post)
        stocktakes.post(":id/cancel", .permission(.adjustStock), use: self.cancel)
    }

    /// `POST /api/v1/adjustments/expired-lot`, beside the adjustments.
    func addWriteOff(to adjustments: Routes) {
        adjustments.post("expired-lot", .permission(.adjustStock), use: self.writeOff)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSON<[StocktakeSummaryResponse]> {
        let (limit, offset) = try request.page()
        let formats = try await self.store.formats().0
        return JSON(try await self.store.stocktakes(limit: limit, offset: offset).map { StocktakeSummaryResponse($0, formats) })
    }

    @Sendable func open(_ request: Request, context: AppRequestContext) async throws -> JSON<StocktakeResponse> {
        let body = try await request.decodeJSON(as: StocktakeOpenRequest.self, context: context)
        let formats = try await self.store.formats().0
        let sheet = try await self.store.openStocktake(scope: try body.scopeValue(), note: body.note ?? "")
        return JSON(StocktakeResponse(sheet, formats), status: .created)
    }

    @Sendable func get(_ request: Request, context: AppRequestContext) async throws -> JSON<StocktakeResponse> {
        let formats = try await self.store.formats().0
        return JSON(StocktakeResponse(try await self.store.stocktake(StocktakeID(try request.id(context))), formats))
    }

    @Sendable func count(_ request: Request, context: AppRequestContext) async throws -> JSON<StocktakeResponse> {
        let id = StocktakeID(try request.id(context))
        let body = try await request.decodeJSON(as: StocktakeCountRequest.self, context: context)
        let entry = try body.entry()
        let productID: ProductID
        switch (body.productId, body.barcode) {
        case (let id?, nil): productID = ProductID(id)
        case (nil, let code?):
            guard let product = try await self.store.product(barcode: code) else {
                throw InventoryError(.notFound, field: "barcode", "no product has the barcode \(code)")
            }
            productID = product.id
        case (nil, nil): throw InventoryError(.missingValue, field: "productId", "give productId or barcode")
        case (.some, .some): throw InventoryError(.invalidValue, field: "barcode", "give either productId or barcode, not both")
        }
        let formats = try await self.store.formats().0
        return JSON(StocktakeResponse(try await self.store.countStocktake(id, productID: productID, entry: entry), formats))
    }

    @Sendable func post(_ request: Request, context: AppRequestContext) async throws -> JSON<StocktakeResponse> {
        let id = StocktakeID(try request.id(context))
        let formats = try await self.store.formats().0
        return JSON(StocktakeResponse(try await self.store.postStocktake(id, by: context.identity?.account.username ?? ""), formats))
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> JSON<StocktakeResponse> {
        let id = StocktakeID(try request.id(context))
        let formats = try await self.store.formats().0
        return JSON(StocktakeResponse(try await self.store.cancelStocktake(id, by: context.identity?.account.username ?? ""), formats))
    }

    @Sendable func writeOff(_ request: Request, context: AppRequestContext) async throws -> JSON<CreatedResponse> {
        let body = try await request.decodeJSON(as: ExpiredLotRequest.self, context: context)
        if let day = body.expiryDate, ShopCalendar.dayNumber(isoDate: day) == nil {
            throw InventoryError(.invalidValue, field: "expiryDate", "'\(day)' is not a date (write YYYY-MM-DD)")
        }
        let id = try await self.store.writeOffLot(productID: ProductID(body.productId), lotCode: body.lotCode ?? "", expiryDate: body.expiryDate)
        return JSON(CreatedResponse(id: id.rawValue), status: .created)
    }
}
