import ChildProcess
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// The built `stockroom` executable, run on a data folder; what it prints on standard output.
struct BuiltCLI {
    let data: String

    static var executable: URL? {
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { folder.deleteLastPathComponent() }
        let candidates = [".build/debug/stockroom", ".build/x86_64-unknown-linux-gnu/debug/stockroom", ".build/aarch64-unknown-linux-gnu/debug/stockroom"]
        return candidates.map { folder.appendingPathComponent($0) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `stockroom ARGS… --data FOLDER`; a non-zero exit is a test failure naming the command and its error.
    func run(_ arguments: [String]) throws -> String {
        let executable = try #require(Self.executable, "build the stockroom executable first (swift build --build-tests)")
        let ran = try ChildProcess.run(executable.path, arguments + ["--data", self.data])
        #expect(ran.status == 0, "stockroom \(arguments.joined(separator: " ")): \(ran.errors)")
        return ran.output
    }
}

/// The command line's `--format json` is the API's JSON: each command's output is byte for byte what the matching
/// route answers on the same shop.
@Suite struct CLIJSONTests {
    @Test func everyJSONCommandPrintsWhatItsRouteAnswers() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-cli-json-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cli = BuiltCLI(data: folder)
        _ = try cli.run(["init", "--shop-name", "Corner Café", "--currency", "EUR", "--time-zone", "Europe/Berlin"])
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        let app = try buildApplication(ServerConfiguration(host: "127.0.0.1", port: 0, secrets: testSecrets, dataFolder: folder), repository: store)
        let admin = try await token(store, role: .admin)

        // Writes print what the write routes answer (read back through the API).
        let supplier = try cli.run(["supplier", "add", "--name", "Roastery Nord", "--email", "orders@roastery-nord.example", "--format", "json"])
        let customer = try cli.run(["customer", "add", "--name", "Ada Lovelace", "--phone", "+49 30 1234567", "--format", "json"])
        let product = try cli.run(["product", "add", "--name", "Espresso beans", "--sku", "BEAN-1", "--barcode", "4006381333931", "--price", "12.90",
                                   "--tax", "7", "--low-stock", "40", "--format", "json"])
        let purchase = try cli.run(["purchase", "add", "--supplier", "Roastery Nord", "--date", "2026-03-01", "--line", "BEAN-1:10@2.00;lot=L7;expiry=2026-12-31",
                                    "--format", "json"])
        _ = try cli.run(["purchase", "add", "--date", "2026-03-02", "--line", "BEAN-1:30@3.00"])
        let sale = try cli.run(["sale", "add", "--date", "2026-03-03T10:00", "--customer", "Ada Lovelace", "--line", "BEAN-1:5", "--payment", "card",
                                "--format", "json"])
        let adjustment = try cli.run(["adjust", "BEAN-1", "--by", "-1", "--reason", "damage", "--date", "2026-03-04", "--format", "json"])
        let edited = try cli.run(["customer", "edit", "ada lovelace", "--email", "ada@example.org", "--format", "json"])

        try await app.test(.router) { client in
            func api(_ uri: String) async throws -> String {
                let reply = try await client.call(.get, uri, token: admin)
                #expect(reply.status == 200, "\(uri): \(reply.text)")
                return reply.text + "\n"
            }
            let suppliers = try await api("/api/v1/suppliers")
            let customers = try await api("/api/v1/customers")
            #expect(suppliers == "[" + supplier.dropLast() + "]\n")
            #expect(customers == "[" + edited.dropLast() + "]\n")
            #expect(customer.contains(#""email":"""#) && customer.contains(#""phone":"+49 30 1234567""#))
            #expect(try await api("/api/v1/products/1").contains(#""quantity":"34""#))

            let pairs: [([String], String)] = [
                (["product", "show", "BEAN-1", "--format", "json"], "/api/v1/products/1"),
                (["product", "show", "4006381333931", "--format", "json"], "/api/v1/products/barcode/4006381333931"),
                (["product", "movements", "BEAN-1", "--format", "json"], "/api/v1/products/1/movements"),
                (["product", "list", "--limit", "50", "--format", "json"], "/api/v1/products?limit=50"),
                (["product", "list", "--search", "espresso", "--status", "low", "--limit", "20", "--format", "json"],
                 "/api/v1/products?search=espresso&status=low&limit=20"),
                (["report", "snapshot", "--at", "2026-03-01", "--format", "json"], "/api/v1/reports/snapshot?at=2026-03-01"),
                (["report", "snapshot", "--at", "2026-03-03T10:00", "--format", "json"], "/api/v1/reports/snapshot?at=2026-03-03T10:00"),
                (["report", "daily", "--from", "2026-03-01", "--to", "2026-03-31", "--format", "json"], "/api/v1/reports/daily?from=2026-03-01&to=2026-03-31"),
                (["report", "daily", "--date", "2026-03-03", "--format", "json"], "/api/v1/reports/daily?date=2026-03-03"),
                (["report", "top", "--from", "2026-03-01", "--to", "2026-03-31", "--by", "revenue", "--limit", "5", "--format", "json"],
                 "/api/v1/reports/top?from=2026-03-01&to=2026-03-31&by=revenue&limit=5"),
                (["report", "low-stock", "--format", "json"], "/api/v1/reports/low-stock"),
                (["report", "valuation", "--format", "json"], "/api/v1/reports/valuation"),
                (["supplier", "list", "--format", "json"], "/api/v1/suppliers"),
                (["customer", "list", "--search", "ada", "--format", "json"], "/api/v1/customers?search=ada"),
            ]
            for (arguments, uri) in pairs {
                let printed = try cli.run(arguments)
                #expect(printed == (try await api(uri)), "stockroom \(arguments.joined(separator: " ")) ≠ GET \(uri)")
            }
            // One record of a list is shown as the list shows it; a write prints what reading it back answers.
            #expect("[" + (try cli.run(["supplier", "show", "Roastery Nord", "--format", "json"])).dropLast() + "]\n" == suppliers)
            func id(_ json: String) -> Int { ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?["id"] as? Int ?? 0 }
            #expect(purchase == (try await api("/api/v1/purchases/\(id(purchase))")))
            #expect(sale == (try await api("/api/v1/sales/\(id(sale))")))
            let created = try JSONSerialization.jsonObject(with: Data(adjustment.utf8)) as? [String: Any]
            #expect(created?.count == 1 && created?["id"] is Int, "\(adjustment)")
            let edit = try cli.run(["product", "edit", "BEAN-1", "--price", "13.00", "--format", "json"])
            let after = try await api("/api/v1/products/1")
            #expect(edit == after && after.contains(#""salePrice":"13.00""#))
            // An import, checked and (dry run) previewed: the same answer as POST /import/products.
            let csv = folder + "/products.csv"
            try "name,sku,sale_price,category\nEspresso beans,BEAN-1,13.50,Coffee\nOat milk,OAT-1,2.20,Milk\n".write(toFile: csv, atomically: true, encoding: .utf8)
            let preview = try await client.call(.post, "/api/v1/import/products?dryRun=true", try String(contentsOfFile: csv, encoding: .utf8), token: admin)
            #expect(preview.status == 200, "\(preview.text)")
            #expect(try cli.run(["import", "products", csv, "--dry-run", "--format", "json"]) == preview.text + "\n")
            let imported = try cli.run(["import", "products", csv, "--format", "json"])
            #expect(imported == preview.text.replacingOccurrences(of: #""dryRun":true"#, with: #""dryRun":false"#) + "\n")
            #expect(try await api("/api/v1/products/1").contains(#""salePrice":"13.50""#))
            // The product as it was added: the same members as the API's product.
            let keys = { (text: String) in Set((try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?.keys.map { $0 } ?? []) }
            #expect(keys(product) == keys(after) && !keys(product).isEmpty)
        }
    }
}
