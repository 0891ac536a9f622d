import Foundation
import InventoryDomain
import InventoryStore
import Testing

@testable import StockroomCLI

/// `stockroom supplier …` and `stockroom customer …`: the contacts a purchase or a sale names, checked by the domain's
/// `Contact.validated()` as the API's are.
@Suite struct ContactCommandTests {
    @Test func suppliersAndCustomersAreAddedEditedAndNamedOnDocuments() async throws {
        let data = temporaryFolder()
        try await stockroom(["supplier", "add", "--data", data, "--name", "  Roastery Nord ", "--location", "Hamburg", "--email", "orders@roastery-nord.example"])
        try await stockroom(["customer", "add", "--data", data, "--name", "Ada Lovelace", "--phone", "+49 (30) 123-45.67"])
        try await stockroom(["product", "add", "--data", data, "--name", "Espresso beans", "--sku", "BEAN-1", "--price", "12.90"])
        try await stockroom(["purchase", "add", "--data", data, "--supplier", "roastery nord", "--date", "2026-03-01", "--line", "BEAN-1:10@2.00"])
        try await stockroom(["sale", "add", "--data", data, "--customer", "Ada Lovelace", "--date", "2026-03-02", "--line", "BEAN-1:1"])
        try await stockroom(["supplier", "edit", "--data", data, "1", "--phone", "040 123", "--location", ""])
        try await stockroom(["customer", "edit", "--data", data, "Ada Lovelace", "--note", "regular"])
        for arguments in [["supplier", "list"], ["supplier", "list", "--format", "json"], ["supplier", "list", "--format", "csv"], ["supplier", "show", "1"],
                          ["customer", "show", "ada lovelace", "--format", "json"], ["customer", "list", "--search", "ada"]] {
            try await stockroom(arguments + ["--data", data])
        }
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        let supplier = try #require(try await store.suppliers(search: nil).first)
        #expect(supplier.name == "Roastery Nord" && supplier.phone == "040 123" && supplier.location == "" && supplier.email == "orders@roastery-nord.example")
        let customer = try #require(try await store.customers(search: nil).first)
        #expect(customer.name == "Ada Lovelace" && customer.note == "regular" && customer.phone == "+49 (30) 123-45.67")
        #expect(try await store.purchases(limit: 1, offset: 0).first?.partyName == "Roastery Nord")
        #expect(try await store.sales(limit: 1, offset: 0).first?.partyName == "Ada Lovelace")
    }

    @Test func badContactsNameTheFieldAndWriteNothing() async throws {
        let data = temporaryFolder()
        try await stockroom(["supplier", "add", "--data", data, "--name", "Roastery Nord"])
        try await stockroom(["customer", "add", "--data", data, "--name", "Ada Lovelace"])
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        let cases: [([String], String?)] = [
            (["supplier", "add"], "name"),
            (["supplier", "add", "--name", "   "], "name"),
            (["supplier", "add", "--name", "Mill", "--email", "not-an-address"], "email"),
            (["customer", "add", "--name", "Bob", "--phone", "call me"], "phone"),
            (["customer", "add", "--name", String(repeating: "x", count: 5000)], "name"),
            (["supplier", "edit", "Nobody", "--note", "x"], "supplier"),
            (["supplier", "edit", "Roastery Nord", "--name", ""], "name"),
            (["customer", "edit", "1", "--email", "a@b"], "email"),
            (["customer", "show", "42"], "customer"),
        ]
        try await expectRefusals(cases, data: data, store: store)
    }
}
