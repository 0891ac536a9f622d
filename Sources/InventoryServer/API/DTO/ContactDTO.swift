import InventoryDomain

/// A supplier or customer as `/api/v1/suppliers` and `/api/v1/customers` show it.
struct ContactResponse: Encodable, Sendable {
    var id: Int64
    var name: String
    var location: String
    var phone: String
    var email: String
    var note: String
    /// Days from ordering to delivery: suppliers only (left out for customers).
    var leadTimeDays: Int?

    init<Kind>(_ contact: Contact<Kind>) {
        self.id = contact.id.rawValue
        self.name = contact.name
        self.location = contact.location
        self.phone = contact.phone
        self.email = contact.email
        self.note = contact.note
        self.leadTimeDays = Kind.self == Supplier.self ? contact.leadTimeDays : nil
    }
}

/// A supplier or customer to create or replace.
struct ContactRequest: Decodable, Sendable, KnownFields {
    var name: String
    var location: String?
    var phone: String?
    var email: String?
    var note: String?
    /// A supplier's lead time in days (0 when left out); customers have none, and it is ignored for them.
    var leadTimeDays: Int?

    enum CodingKeys: String, CodingKey, CaseIterable { case name, location, phone, email, note, leadTimeDays }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }

    func contact<Kind>(id: ID<Kind>) -> Contact<Kind> {
        Contact(id: id, name: self.name, location: self.location ?? "", phone: self.phone ?? "", email: self.email ?? "", note: self.note ?? "",
                leadTimeDays: Kind.self == Supplier.self ? self.leadTimeDays ?? 0 : 0)
    }
}
