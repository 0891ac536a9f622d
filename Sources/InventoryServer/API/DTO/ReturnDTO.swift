import InventoryDomain

/// `POST /api/v1/returns/customer`: goods a customer brings back, by the sale lines they were sold on.
struct CustomerReturnRequest: Decodable, Sendable, KnownFields {
    var effectiveAt: String?
    var saleId: Int64
    var note: String?
    var lines: [Line]
    static var fields: [String] { ["effectiveAt", "saleId", "note", "lines"] }
    static var nested: [String: any KnownFields.Type] { ["lines": Line.self] }

    struct Line: Decodable, Sendable, KnownFields {
        var saleLineId: Int64
        var quantity: String
        static var fields: [String] { ["saleLineId", "quantity"] }
    }
}

/// `POST /api/v1/returns/supplier`: goods sent back to a supplier.
struct SupplierReturnRequest: Decodable, Sendable, KnownFields {
    var effectiveAt: String?
    var supplierId: Int64?
    var note: String?
    var lines: [Line]
    static var fields: [String] { ["effectiveAt", "supplierId", "note", "lines"] }
    static var nested: [String: any KnownFields.Type] { ["lines": Line.self] }

    struct Line: Decodable, Sendable, KnownFields {
        var productId: Int64
        var quantity: String
        static var fields: [String] { ["productId", "quantity"] }
    }
}
