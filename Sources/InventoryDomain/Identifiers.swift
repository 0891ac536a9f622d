/// A typed database identifier: `ID<Product>` and `ID<Sale>` cannot be mixed up.
public struct ID<Entity>: RawRepresentable, Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The integer key in the database.
    public let rawValue: Int64

    /// Wraps a database key.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Wraps a database key.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.rawValue)
    }

    public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(self.rawValue) }
}

public typealias ProductID = ID<Product>
public typealias CategoryID = ID<Category>
public typealias SupplierID = ID<Supplier>
public typealias CustomerID = ID<Customer>
public typealias PurchaseID = ID<Purchase>
public typealias SaleID = ID<Sale>
public typealias AdjustmentID = ID<StockAdjustment>
public typealias CustomerReturnID = ID<CustomerReturn>
public typealias SupplierReturnID = ID<SupplierReturn>
public typealias MovementID = ID<StockMovement>
