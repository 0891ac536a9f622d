import Foundation

/// Customers at the till: loyalty cards and standing (``CustomerStanding``).
public protocol CustomerCardRepository: Sendable {
    /// Gives a customer a card number (replacing the one they had).
    /// - Throws: ``InventoryError``: `notFound` on `id`; `conflict` on `cardNumber` when another customer has it; nothing changes then.
    func setCustomerCard(_ id: CustomerID, number: String) async throws -> CustomerStanding
    /// Takes a customer's card away.
    func removeCustomerCard(_ id: CustomerID) async throws
    /// The customer whose card this is.
    /// - Throws: ``InventoryError`` (`notFound` on `cardNumber`).
    func customer(cardNumber: String) async throws -> CustomerStanding
    /// A customer's standing: card, visits, spend, last visit.
    func customerStanding(_ id: CustomerID) async throws -> CustomerStanding
}
