import Foundation
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// The receipt's shop details (issue 12, point 8) are settings: saved, answered, and kept by a PUT from a client that
/// does not know them yet — a partial client must not wipe data (the lesson of issue 10's defect 1).
@Suite struct SettingsAPITests {
    @Test func receiptDetailsAreSavedAnsweredAndKeptByAnOlderClientsPut() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let saved = try await client.call(.put, "/api/v1/settings", """
                {"shopName":"Corner Café","currency":"EUR","timeZone":"Europe/Berlin","defaultTaxRate":"7","lowStockDefault":"5","lockMinutes":5,
                 "address":" Hauptstraße 1, 10115 Berlin ","taxId":"DE123456789","receiptFooter":"Open daily 7–19"}
                """)
            #expect(saved.status == 200, "\(saved.text)")
            #expect(saved.object["address"] as? String == "Hauptstraße 1, 10115 Berlin" && saved.object["taxId"] as? String == "DE123456789")
            // A client from before these fields sends the six it knows: the receipt details stay.
            let older = try await client.call(.put, "/api/v1/settings",
                                              #"{"shopName":"Corner Café","currency":"EUR","timeZone":"Europe/Berlin","defaultTaxRate":"7","lowStockDefault":"5","lockMinutes":10}"#)
            #expect(older.status == 200 && older.object["lockMinutes"] as? Int == 10)
            #expect(older.object["receiptFooter"] as? String == "Open daily 7–19" && older.object["taxId"] as? String == "DE123456789")
            // An empty value clears; a too-long one is refused by name and changes nothing.
            let before = try await store.settings()
            let refused = try await client.call(.put, "/api/v1/settings", """
                {"shopName":"Corner Café","currency":"EUR","timeZone":"Europe/Berlin","defaultTaxRate":"7","lowStockDefault":"5","lockMinutes":10,
                 "taxId":"\(String(repeating: "9", count: 21))"}
                """)
            #expect(refused.status == 422 && refused.object["field"] as? String == "taxId", "\(refused.text)")
            #expect(try await store.settings() == before)
            let cleared = try await client.call(.put, "/api/v1/settings", """
                {"shopName":"Corner Café","currency":"EUR","timeZone":"Europe/Berlin","defaultTaxRate":"7","lowStockDefault":"5","lockMinutes":10,"address":""}
                """)
            #expect(cleared.object["address"] as? String == "" && cleared.object["taxId"] as? String == "DE123456789")
            let audit = try await client.call(.get, "/api/v1/audit").array
            #expect(audit.contains { ($0["sentence"] as? String)?.contains("tax ID") == true }, "\(audit.prefix(3))")
        }
    }
}
