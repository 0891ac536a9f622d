import Foundation

/// Open tabs: sales parked at a till (``ParkedSale``). They book nothing; charging one is an ordinary sale.
public protocol TabRepository: Sendable {
    /// Parks a sale; answers it with its id. The lines' products must exist.
    /// - Throws: ``InventoryError`` naming the field; nothing is stored then.
    func parkSale(_ sale: ParkedSale) async throws -> ParkedSale
    /// The parked sales, oldest first.
    func parkedSales() async throws -> [ParkedSale]
    /// Takes a parked sale off the list and answers it, in one step, so two tills cannot both pick it up.
    /// - Throws: ``InventoryError`` (`notFound`) when it does not exist (any more).
    func pickUpParkedSale(_ id: ParkedSaleID) async throws -> ParkedSale
}
