import Foundation

/// Count sheets (``Stocktake``): opened for a scope, counted product by product while the till keeps selling, then
/// posted to the books as one adjustment (reason `count`) or cancelled. A posted sheet stays readable as a report.
public protocol StocktakeRepository: Sendable {
    /// Opens a count sheet for `scope`; answers it with every product in scope uncounted.
    /// - Throws: ``InventoryError`` (`notFound`) on `categoryId` for an unknown category, on `note` when too long.
    func openStocktake(scope: StocktakeScope, note: String) async throws -> Stocktake
    /// The count sheets, newest first.
    func stocktakes(limit: Int, offset: Int) async throws -> [StocktakeSummary]
    /// One count sheet with its lines (each product in scope, counted or not).
    /// - Throws: ``InventoryError`` (`notFound`) on `id`.
    func stocktake(_ id: StocktakeID) async throws -> Stocktake
    /// Enters a count for a product (``StocktakeEntry``: a scan adds one, a typed figure replaces the count), dated
    /// now, with the stock and average cost the books hold now; answers the sheet.
    /// - Throws: ``InventoryError`` on `id` for an unknown sheet, on `status` for one no longer open, on `productId`
    ///   for an unknown product or one outside the sheet's scope, on `quantity` for a negative count.
    func countStocktake(_ id: StocktakeID, productID: ProductID, entry: StocktakeEntry) async throws -> Stocktake
    /// Posts the sheet in one transaction: each count's stock and cost re-read at its instant, one adjustment
    /// document with a line per product whose count differs (``Stocktake/countAdjustment()``), the sheet closed.
    /// - Throws: ``InventoryError`` on `status` when not open, on `lines` when nothing was counted; nothing is written.
    func postStocktake(_ id: StocktakeID, by manager: String) async throws -> Stocktake
    /// Cancels an open sheet: it books nothing and stays readable.
    func cancelStocktake(_ id: StocktakeID, by manager: String) async throws -> Stocktake
    /// Writes off what is left of an expired lot (``ExpiringLot``): an adjustment with reason `expired`.
    /// - Throws: ``InventoryError`` on `lotCode` when the product has no such lot or nothing of it is left.
    func writeOffLot(productID: ProductID, lotCode: String, expiryDate: String?) async throws -> AdjustmentID
}
