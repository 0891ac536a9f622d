import Foundation
import GRDB
import InventoryDomain

// MARK: - CustomerCardRepository

extension InventorySQLiteRepository {
    public func setCustomerCard(_ id: CustomerID, number: String) async throws -> CustomerStanding {
        let number = try CustomerStanding.checkCardNumber(number)
        return try await self.write { db, _ in
            try Self.requireRow(db, table: "customer", id: id.rawValue, field: "id", label: "customer")
            if let owner = try Row.fetchOne(db.cachedStatement(sql: "SELECT c.id, c.name FROM customerCard k JOIN customer c ON c.id = k.customerId WHERE k.number = ?"),
                                            arguments: [number]), (owner[0] as Int64) != id.rawValue {
                throw InventoryError(.conflict, field: "cardNumber", "card \(number) belongs to \(owner[1] as String)")
            }
            try db.execute(sql: "INSERT INTO customerCard (customerId, number) VALUES (?, ?) ON CONFLICT (customerId) DO UPDATE SET number = excluded.number",
                           arguments: [id.rawValue, number])
            return try Self.standing(db, id)
        }
    }

    public func removeCustomerCard(_ id: CustomerID) async throws {
        try await self.write { db, _ in
            try Self.requireRow(db, table: "customer", id: id.rawValue, field: "id", label: "customer")
            try db.execute(sql: "DELETE FROM customerCard WHERE customerId = ?", arguments: [id.rawValue])
        }
    }

    public func customer(cardNumber: String) async throws -> CustomerStanding {
        let number = cardNumber.trimmingCharacters(in: .whitespacesAndNewlines)
        return try await self.read { db in
            guard let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT customerId FROM customerCard WHERE number = ?"), arguments: [number]) else {
                throw InventoryError(.notFound, field: "cardNumber", "no customer has card \(number.prefix(64))")
            }
            return try Self.standing(db, CustomerID(id))
        }
    }

    public func customerStanding(_ id: CustomerID) async throws -> CustomerStanding {
        try await self.read { db in try Self.standing(db, id) }
    }

    /// Visits are the customer's sales; spend is what those sales charged with tax and tips, less what their returns
    /// gave back.
    static func standing(_ db: Database, _ id: CustomerID) throws -> CustomerStanding {
        guard let customer = try Row.fetchOne(db.cachedStatement(sql: "SELECT c.name, k.number FROM customer c LEFT JOIN customerCard k ON k.customerId = c.id WHERE c.id = ?"),
                                              arguments: [id.rawValue]) else {
            throw InventoryError(.notFound, field: "id", "customer \(id) does not exist")
        }
        let sales = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*), COALESCE(SUM(tip), 0), MAX(effectiveAt) FROM document WHERE customerId = ? AND kind = 'sale'
            """), arguments: [id.rawValue])
        let charged = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT COALESCE(SUM(m.revenue + m.tax), 0) FROM document d JOIN movement m ON m.documentId = d.id
            WHERE d.customerId = ? AND d.kind IN ('sale', 'customerReturn')
            """), arguments: [id.rawValue]) ?? 0
        return CustomerStanding(customerID: id, name: customer[0], cardNumber: customer[1], visits: sales?[0] ?? 0,
                                spend: Money(minorUnits: charged + (sales?[1] ?? 0)), lastVisit: sales?[2])
    }

    /// Which of its customer's visits a sale is (1 for the first), in booking order.
    static func visitNumber(_ db: Database, sale id: SaleID, customer: CustomerID) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM document WHERE customerId = ? AND kind = 'sale' AND id <= ?"),
                         arguments: [customer.rawValue, id.rawValue]) ?? 0
    }
}
