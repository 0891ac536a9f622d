import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// Finds products, suppliers and customers by what a user types.
struct Lookup<Store: InventoryRepository> {
    let store: Store

    /// A product by id, SKU, barcode or exact name (case-insensitive).
    func product(_ reference: String, field: String) async throws -> Product {
        let text = reference.trimmingCharacters(in: .whitespaces)
        if let sku = try await self.store.product(sku: text) { return sku }
        if let scanned = try await self.store.product(barcode: text) { return scanned }
        if let id = Int64(text), let product = try? await self.store.product(ProductID(id)) { return product }
        let named = try await self.store.products(ProductQuery(search: text, includeArchived: true, limit: 50)).products
            .filter { $0.name.lowercased() == text.lowercased() }
        if named.count == 1, let product = named.first { return product }
        if named.count > 1 {
            throw InventoryError(.conflict, field: field, "\(named.count) products are named '\(text)'; use the id or SKU")
        }
        throw InventoryError(.notFound, field: field, "no product with id, SKU, barcode or name '\(text)'")
    }

    func supplier(_ reference: String) async throws -> SupplierID { try await self.supplierContact(reference).id }

    func customer(_ reference: String) async throws -> CustomerID { try await self.customerContact(reference).id }

    /// A supplier by id or exact name (case-insensitive).
    func supplierContact(_ reference: String, field: String = "supplier") async throws -> Contact<Supplier> {
        try Self.contact(reference, in: try await self.store.suppliers(search: nil), kind: "supplier", field: field)
    }

    /// A customer by id or exact name (case-insensitive).
    func customerContact(_ reference: String, field: String = "customer") async throws -> Contact<Customer> {
        try Self.contact(reference, in: try await self.store.customers(search: nil), kind: "customer", field: field)
    }

    static func contact<Kind>(_ reference: String, in all: [Contact<Kind>], kind: String, field: String) throws -> Contact<Kind> {
        let text = reference.trimmingCharacters(in: .whitespaces)
        if let id = Int64(text), let match = all.first(where: { $0.id.rawValue == id }) { return match }
        let named = all.filter { $0.name.lowercased() == text.lowercased() }
        if named.count == 1, let match = named.first { return match }
        if named.count > 1 { throw InventoryError(.conflict, field: field, "\(named.count) \(kind)s are named '\(text)'; use the id") }
        throw InventoryError(.notFound, field: field, "no \(kind) with id or name '\(text)'")
    }

    func category(_ reference: String) async throws -> CategoryID {
        let all = try await self.store.categories()
        if let id = Int64(reference), let match = all.first(where: { $0.id.rawValue == id }) { return match.id }
        if let match = all.first(where: { $0.name.lowercased() == reference.lowercased() }) { return match.id }
        throw InventoryError(.notFound, field: "category", "no category with id or name '\(reference)'")
    }
}

/// A document line typed as `PRODUCT:QUANTITY@AMOUNT;key=value…`.
struct LineSpec {
    var product: String
    var quantity: Quantity
    var amount: String?
    var options: [String: String]

    /// Parses a line; `index` names it in errors (`line[2]`).
    static func parse(_ text: String, index: Int, amountRequired: Bool) throws -> LineSpec {
        let field = "line[\(index)]"
        var parts = text.split(separator: ";", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty else { throw InventoryError(.missingValue, field: field, "is empty; write PRODUCT:QUANTITY@PRICE") }
        let main = parts.removeFirst()
        guard let colon = main.lastIndex(of: ":") else {
            throw InventoryError(.invalidValue, field: field, "'\(text)' has no quantity; write PRODUCT:QUANTITY@PRICE")
        }
        let product = String(main[..<colon]).trimmingCharacters(in: .whitespaces)
        guard !product.isEmpty else { throw InventoryError(.missingValue, field: "\(field).product", "is empty") }
        let rest = main[main.index(after: colon)...]
        let pieces = rest.split(separator: "@", maxSplits: 1).map(String.init)
        let quantity = try Quantity.parsePositive(pieces.first ?? "", field: "\(field).quantity")
        let amount = pieces.count > 1 ? pieces[1] : nil
        if amountRequired && amount == nil {
            throw InventoryError(.missingValue, field: "\(field).unitCost", "is missing; write PRODUCT:QUANTITY@COST")
        }
        var options: [String: String] = [:]
        for part in parts {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw InventoryError(.invalidValue, field: field, "'\(part)' is not key=value") }
            options[pair[0].lowercased()] = pair[1]
        }
        return LineSpec(product: product, quantity: quantity, amount: amount, options: options)
    }
}

/// Parses a date option in the shop's calendar; now when absent.
func parseDate(_ text: String?, calendar: ShopCalendar, field: String) throws -> Instant {
    guard let text else { return .now }
    return try calendar.parseDateTime(text, field: field)
}

extension ShopCalendar {
    /// An instant as the shop reads it, in its own time with the offset and to the millisecond
    /// (`2026-11-22T14:30:00.000+01:00`), so a time copied from the output into `--date` is the same instant.
    func display(_ instant: Instant) -> String {
        self.localISO8601(instant)
    }
}
