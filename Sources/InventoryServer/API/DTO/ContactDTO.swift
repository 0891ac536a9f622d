import InventoryDomain

/// A supplier or customer as `/api/v1/suppliers` and `/api/v1/customers` show it.
struct ContactResponse: Encodable, Sendable {
    var id: Int64
    var name: String
    var location: String
    var phone: String
    var email: String
    var note: String

    init<Kind>(_ contact: Contact<Kind>) {
        self.id = contact.id.rawValue
        self.name = contact.name
        self.location = contact.location
        self.phone = contact.phone
        self.email = contact.email
        self.note = contact.note
    }
}

/// A supplier or customer to create or replace.
struct ContactRequest: Decodable, Sendable, KnownFields {
    var name: String
    var location: String?
    var phone: String?
    var email: String?
    var note: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case name, location, phone, email, note }
    static var fields: [String] { CodingKeys.allCases.map(\.stringValue) }

    func contact<Kind>(id: ID<Kind>) -> Contact<Kind> {
        Contact(id: id, name: self.name, location: self.location ?? "", phone: self.phone ?? "", email: self.email ?? "", note: self.note ?? "")
    }
}
