import Hummingbird
import InventoryDomain

/// Sale lines sold beyond the stock on record with a manager's approval (``SoldBeyondStock``): the review list
/// (`GET /api/v1/reports/sold-beyond-stock`) and marking a sale reviewed (`POST /api/v1/sales/{id}/stock-review`).
struct BeyondStockController<Store: LedgerRepository & SettingsRepository> {
    let store: Store

    func addRoutes(reports: Routes, sales: Routes) {
        reports.get("sold-beyond-stock", .permission(.viewReports), use: self.list)
        // Whoever may approve selling beyond stock may say it has been looked into.
        sales.post(":id/stock-review", .permission(.sellBelowMinimum), use: self.review)
    }

    /// `?all=true` includes the lines already reviewed.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> JSON<[SoldBeyondStockResponse]> {
        let all = try request.queryFlag("all")
        let formats = try await self.store.formats().0
        return JSON(try await self.store.soldBeyondStock(includeReviewed: all).map { SoldBeyondStockResponse($0, formats) })
    }

    @Sendable func review(_ request: Request, context: AppRequestContext) async throws -> JSON<[SoldBeyondStockResponse]> {
        let id = SaleID(try request.id(context))
        let manager = context.identity?.account.username ?? ""
        let formats = try await self.store.formats().0
        return JSON(try await self.store.markBeyondStockReviewed(id, by: manager).map { SoldBeyondStockResponse($0, formats) })
    }
}

/// A sale line sold beyond the stock on record.
struct SoldBeyondStockResponse: Encodable, Sendable {
    var saleId: Int64
    var receiptNumber: Int64
    var effectiveAt: String
    /// The shop day it was sold on (YYYY-MM-DD in the shop's time zone).
    var day: String
    var lineId: Int64
    var productId: Int64
    var productName: String
    var quantity: String
    /// How far below zero the line took the stock on record.
    var shortBy: String
    /// The product's stock on record now.
    var stockNow: String
    var soldBy: String
    var approvedBy: String
    /// Who marked the sale reviewed (empty while it waits).
    var reviewedBy: String
    var reviewedAt: String?

    init(_ s: SoldBeyondStock, _ f: Formats) {
        self.saleId = s.saleID.rawValue
        self.receiptNumber = s.receiptNumber
        self.effectiveAt = f.string(s.effectiveAt)
        self.day = ShopCalendar.isoDate(f.calendar.dayNumber(s.effectiveAt))
        self.lineId = s.movementID.rawValue
        self.productId = s.productID.rawValue
        self.productName = s.productName
        self.quantity = s.quantity.decimalString
        self.shortBy = s.shortBy.decimalString
        self.stockNow = s.stockNow.decimalString
        self.soldBy = s.soldBy
        self.approvedBy = s.approvedBy
        self.reviewedBy = s.reviewedBy
        self.reviewedAt = s.reviewedAt.map(f.string)
    }
}
