import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// `stockroom supplier …`: who the shop buys from (named on purchases with `--supplier`).
struct SupplierCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "supplier", abstract: "Add, list, show and edit suppliers.", subcommands: [Add.self, List.self, Show.self, Edit.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a supplier.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var fields: ContactFields
        @Option(help: "table, or json (what POST /api/v1/suppliers answers).") var format: RecordFormat = .table
        func run() async throws { try await ContactBook.suppliers(try await self.database.open()).add(self.fields, format: self.format) }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List suppliers.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Search name, location, phone or e-mail.") var search: String?
        @Option(help: "table, csv, or json (what GET /api/v1/suppliers answers).") var format: OutputFormat = .table
        func run() async throws { try await ContactBook.suppliers(try await self.database.open()).list(search: self.search, format: self.format) }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a supplier.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Supplier id or name.") var supplier: String
        @Option(help: "table, or json (the supplier as the API answers it).") var format: RecordFormat = .table
        func run() async throws { try await ContactBook.suppliers(try await self.database.open()).show(self.supplier, format: self.format) }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a supplier's fields (only those given; an empty value clears one).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Supplier id or name.") var supplier: String
        @OptionGroup var fields: ContactFields
        @Option(help: "table, or json (what PUT /api/v1/suppliers/{id} answers).") var format: RecordFormat = .table
        func run() async throws { try await ContactBook.suppliers(try await self.database.open()).edit(self.supplier, self.fields, format: self.format) }
    }
}

/// `stockroom customer …`: who the shop sells to (named on sales with `--customer`).
struct CustomerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "customer", abstract: "Add, list, show and edit customers.", subcommands: [Add.self, List.self, Show.self, Edit.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a customer.")
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var fields: ContactFields
        @Option(help: "table, or json (what POST /api/v1/customers answers).") var format: RecordFormat = .table
        func run() async throws { try await ContactBook.customers(try await self.database.open()).add(self.fields, format: self.format) }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List customers.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Search name, location, phone or e-mail.") var search: String?
        @Option(help: "table, csv, or json (what GET /api/v1/customers answers).") var format: OutputFormat = .table
        func run() async throws { try await ContactBook.customers(try await self.database.open()).list(search: self.search, format: self.format) }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a customer.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Customer id or name.") var customer: String
        @Option(help: "table, or json (the customer as the API answers it).") var format: RecordFormat = .table
        func run() async throws { try await ContactBook.customers(try await self.database.open()).show(self.customer, format: self.format) }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a customer's fields (only those given; an empty value clears one).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Customer id or name.") var customer: String
        @OptionGroup var fields: ContactFields
        @Option(help: "table, or json (what PUT /api/v1/customers/{id} answers).") var format: RecordFormat = .table
        func run() async throws { try await ContactBook.customers(try await self.database.open()).edit(self.customer, self.fields, format: self.format) }
    }
}

/// A contact's fields as options; each is optional so `edit` changes only what is given. The rules (a name is
/// required, text limits, phone characters, e-mail shape) are the domain's `Contact.validated()`, as for the API.
struct ContactFields: ParsableArguments {
    @Option(help: "Name (required for add).") var name: String?
    @Option(help: "Where they are: address or town.") var location: String?
    @Option(help: "Phone: digits, spaces and + - ( ) . /") var phone: String?
    @Option(help: "E-mail address.") var email: String?
    @Option(help: "A note.") var note: String?
    @Option(name: .customLong("lead-time"), help: "Suppliers: days from ordering to delivery (0–365; the reorder suggestion uses it).")
    var leadTimeDays: Int?

    func apply<Kind>(to contact: inout Contact<Kind>) {
        if let name { contact.name = name }
        if let location { contact.location = location }
        if let phone { contact.phone = phone }
        if let email { contact.email = email }
        if let note { contact.note = note }
        if let leadTimeDays, Kind.self == Supplier.self { contact.leadTimeDays = leadTimeDays }
    }
}

/// One contact list (suppliers or customers) of the shop, and how the command line shows it.
struct ContactBook<Kind> {
    /// `supplier` or `customer`.
    let kind: String
    let lookup: (String) async throws -> Contact<Kind>
    let all: (String?) async throws -> [Contact<Kind>]
    let create: (Contact<Kind>) async throws -> Contact<Kind>
    let update: (Contact<Kind>) async throws -> Contact<Kind>
    /// The API's JSON for one contact and for a list.
    let json: (Contact<Kind>) throws -> Data
    let jsonList: ([Contact<Kind>]) throws -> Data

    func add(_ fields: ContactFields, format: RecordFormat) async throws {
        var contact = Contact<Kind>(id: ID(0), name: "")
        fields.apply(to: &contact)
        let saved = try await self.create(contact.validated())
        try self.report(saved, verb: "Added", format: format)
    }

    func edit(_ reference: String, _ fields: ContactFields, format: RecordFormat) async throws {
        var contact = try await self.lookup(reference)
        fields.apply(to: &contact)
        let saved = try await self.update(contact.validated())
        try self.report(saved, verb: "Saved", format: format)
    }

    func show(_ reference: String, format: RecordFormat) async throws {
        let contact = try await self.lookup(reference)
        if format == .json { return printJSON(try self.json(contact)) }
        print("\(contact.name)  (\(self.kind) \(contact.id))")
        for (label, value) in [("location", contact.location), ("phone", contact.phone), ("e-mail", contact.email), ("note", contact.note)] where !value.isEmpty {
            print("\(label): \(value)")
        }
        if Kind.self == Supplier.self { print("lead time: \(contact.leadTimeDays) day\(contact.leadTimeDays == 1 ? "" : "s")") }
    }

    func list(search: String?, format: OutputFormat) async throws {
        let contacts = try await self.all(search)
        if format == .json { return printJSON(try self.jsonList(contacts)) }
        let table = Table(columns: ["id", "name", "location", "phone", "email", "note"],
                          rows: contacts.map { [$0.id.description, $0.name, $0.location, $0.phone, $0.email, $0.note] }, numeric: [0])
        print(table.render(format), terminator: "")
        if format == .table { print("\(contacts.count) \(self.kind)\(contacts.count == 1 ? "" : "s")") }
    }

    func report(_ contact: Contact<Kind>, verb: String, format: RecordFormat) throws {
        if format == .json { return printJSON(try self.json(contact)) }
        print("\(verb) \(self.kind) \(contact.id): \(contact.name)")
    }
}

extension ContactBook where Kind == Supplier {
    static func suppliers(_ store: some ShopStore) -> ContactBook {
        ContactBook(kind: "supplier", lookup: { try await Lookup(store: store).supplierContact($0) }, all: { try await store.suppliers(search: $0) },
                    create: { try await store.createSupplier($0) }, update: { try await store.updateSupplier($0) },
                    json: { try store.api.supplier($0) }, jsonList: { try store.api.suppliers($0) })
    }
}

extension ContactBook where Kind == Customer {
    static func customers(_ store: some ShopStore) -> ContactBook {
        ContactBook(kind: "customer", lookup: { try await Lookup(store: store).customerContact($0) }, all: { try await store.customers(search: $0) },
                    create: { try await store.createCustomer($0) }, update: { try await store.updateCustomer($0) },
                    json: { try store.api.customer($0) }, jsonList: { try store.api.customers($0) })
    }
}
