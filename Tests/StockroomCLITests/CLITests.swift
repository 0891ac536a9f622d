import ArgumentParser
import ChildProcess
import Foundation
import InventoryDomain
import InventoryStore
import Testing

@testable import StockroomCLI

/// Runs a command line in-process, as `stockroom ARGS…` would.
func stockroom(_ arguments: [String]) async throws {
    var command = try StockroomCommand.parseAsRoot(arguments)
    if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
    } else {
        try command.run()
    }
}

/// Runs a program to its end and answers its exit status and everything it printed (standard output and error).
func runProcess(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                environment: [String: String]? = nil) throws -> (status: Int32, printed: String) {
    let ran = try ChildProcess.run(executable.path, arguments, environment: environment, directory: directory?.path, mergingErrors: true)
    return (ran.status, ran.output)
}

/// Runs each command line against the data folder and expects it refused naming its field, the database unchanged.
func expectRefusals(_ cases: [([String], String?)], data: String, store: InventorySQLiteRepository,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let before = try await store.testOnly_dump()
    for (arguments, field) in cases {
        do {
            try await stockroom(arguments + ["--data", data])
            Issue.record("accepted \(arguments)", sourceLocation: sourceLocation)
        } catch let error as InventoryError {
            #expect(error.field == field, "\(arguments): \(error)", sourceLocation: sourceLocation)
        }
        #expect(try await store.testOnly_dump() == before, "\(arguments) changed the database", sourceLocation: sourceLocation)
    }
}

func temporaryFolder() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-cli-\(UUID().uuidString)").path
}

@Suite struct CLITests {
    @Test func initAsksWhetherPricesIncludeTax() async throws {
        let data = temporaryFolder()
        try await stockroom(["init", "--data", data, "--prices-include-tax", "true"])
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        #expect(try await store.settings().pricesIncludeTax)
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["init", "--prices-include-tax", "yes please"]) }
    }

    @Test func seedScenarioThroughTheCommandLine() async throws {
        let data = temporaryFolder()
        try await stockroom(["init", "--data", data, "--shop-name", "Test café", "--currency", "EUR", "--time-zone", "Europe/Berlin"])
        try await stockroom(["product", "add", "--data", data, "--name", "Espresso beans", "--sku", "BEAN", "--barcode", "4006381333931", "--price", "4.00"])
        try await stockroom(["purchase", "add", "--data", data, "--date", "2026-03-01", "--line", "BEAN:10@2.00;lot=L1;expiry=2026-12-31"])
        try await stockroom(["purchase", "add", "--data", data, "--date", "2026-03-02", "--line", "4006381333931:30@3.00"])
        try await stockroom(["sale", "add", "--data", data, "--date", "2026-03-03T10:00", "--line", "Espresso beans:5", "--payment", "card"])
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        let product = try #require(try await store.product(sku: "BEAN"))
        #expect(product.costPrice == Money(minorUnits: 275))
        #expect(product.stock.quantity == Quantity(35))
        #expect(product.stock.value == Money(minorUnits: 9625))
        #expect(try await store.settings().shopName == "Test café")
        try await stockroom(["adjust", "--data", data, "BEAN", "--by", "-1", "--reason", "damage"])
        #expect(try await store.product(product.id).stock.quantity == Quantity(34))
        // A count: 33 found of the 34 on record books −1, reason count.
        try await stockroom(["adjust", "--data", data, "BEAN", "--counted", "33"])
        #expect(try await store.product(product.id).stock.quantity == Quantity(33))
        #expect(try await store.movements(productID: product.id).last?.reason == .count)
        for report in [["snapshot", "--at", "2026-03-02"], ["daily", "--date", "2026-03-03"], ["daily", "--from", "2026-03-01", "--to", "2026-03-03", "--format", "csv"],
                       ["top", "--from", "2026-03-01", "--to", "2026-03-31", "--format", "json"], ["low-stock"], ["valuation"]] {
            try await stockroom(["report"] + report + ["--data", data])
        }
        try await stockroom(["product", "list", "--data", data, "--search", "espresso"])
        // Finding sales: the CSV of what GET /api/v1/sales finds.
        let found = try ExactCLITests.run(["sale", "list", "--data", data, "--search", "espresso", "--format", "csv"])
        #expect(found.hasPrefix("receipt,id,date,customer,lines,total,note") && found.split(whereSeparator: \.isNewline).count == 2, "\(found)")
        #expect(try ExactCLITests.run(["sale", "list", "--data", data, "--search", "#99", "--format", "csv"]).split(whereSeparator: \.isNewline).count == 1)
        try await stockroom(["product", "show", "--data", data, "BEAN"])
        try await stockroom(["product", "edit", "--data", data, "BEAN", "--price", "4.50"])
        #expect(try await store.product(product.id).details.salePrice == Money(minorUnits: 450))
        try await stockroom(["product", "archive", "--data", data, "BEAN"])
        #expect(try await store.product(product.id).details.isArchived)
        let file = data + "/sales.csv"
        try await stockroom(["export", "sales", "--data", data, "--output", file])
        let rows = try CSV.parse(try String(contentsOfFile: file, encoding: .utf8))
        #expect(rows.count == 2)
        #expect(rows[1].cells[8] == "Espresso beans")
    }

    @Test func badInputNamesTheFieldAndWritesNothing() async throws {
        let data = temporaryFolder()
        try await stockroom(["product", "add", "--data", data, "--name", "Milk", "--price", "1.50"])
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        let cases: [([String], String?)] = [
            (["purchase", "add", "--line", "Milk:0@1.00"], "line[0].quantity"),
            (["purchase", "add", "--line", "Milk:abc@1.00"], "line[0].quantity"),
            (["purchase", "add", "--line", "Milk:2"], "line[0].unitCost"),
            (["purchase", "add", "--line", "Milk:2@1.005"], "line[0].unitCost"),
            (["purchase", "add", "--line", "Milk 2 1.00"], "line[0]"),
            (["purchase", "add", "--line", "Nothing:2@1.00"], "line[0].product"),
            (["purchase", "add", "--line", "Milk:2@1.00", "--date", "yesterday"], "date"),
            (["purchase", "add", "--line", "Milk:2@1.00", "--supplier", "Nobody"], "supplier"),
            (["sale", "add", "--line", "Milk:1"], "lines[0].quantity"),
            (["sale", "add", "--line", "Milk:1", "--payment", "iou"], "payment"),
            (["product", "add", "--name", "X", "--barcode", "4006381333932"], "barcode"),
            (["product", "add", "--name", "X", "--price", "1,2,3"], "price"),
            (["adjust", "Milk", "--by", "-1", "--reason", "lost"], "reason"),
            (["adjust", "Milk", "--by", "-1", "--reason", "damage"], "quantityChange"),
            (["adjust", "Milk", "--counted", "0"], "countedQuantity"),
            (["report", "daily", "--date", "2026-02-30"], "date"),
            (["report", "top", "--by", "profit"], "by"),
            (["report", "top", "--from", "2026-03-02", "--to", "2026-03-01"], "to"),
            (["sale", "list", "--from", "2026-03-02", "--to", "2026-03-01"], "to"),
            (["sale", "list", "--customer", "Nobody"], "customer"),
            (["export", "everything"], "kind"),
        ]
        try await expectRefusals(cases, data: data, store: store)
    }

    @Test func parsingAndValidationErrors() {
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["product", "add"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["purchase", "add"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["sale", "add"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["adjust", "Milk"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["adjust", "Milk", "--by", "1"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["adjust", "Milk", "--by", "1", "--counted", "2", "--reason", "count"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["adjust", "Milk", "--counted", "2", "--reason", "damage"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["demo", "--days", "0"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["bench", "--products", "1"]) }
        #expect(throws: (any Error).self) { try StockroomCommand.parseAsRoot(["no-such-command"]) }
        #expect(StockroomCommand.helpMessage(for: ReportCommand.Top.self).contains("--by"))
    }

    @Test func importDryRunWritesNothingAndBadFilesAreRefusedWhole() async throws {
        let data = temporaryFolder()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let good = data + "/good.csv", bad = data + "/bad.csv"
        try "name,sku,category,sale_price\nTea,T1,Drinks,2.50\nCake,C1,Bakery,3.00\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "name,sku,sale_price\nTea,T1,2.50\n,C1,3.00\nPie,P1,abc\n".write(toFile: bad, atomically: true, encoding: .utf8)
        try await stockroom(["import", "products", good, "--dry-run", "--data", data])
        let store = try InventorySQLiteRepository.open(dataFolder: data)
        #expect(try await store.products(ProductQuery()).total == 0)
        await #expect(throws: ExitCode.failure) { try await stockroom(["import", "products", bad, "--data", data]) }
        #expect(try await store.products(ProductQuery()).total == 0)
        try await stockroom(["import", "products", good, "--data", data])
        #expect(try await store.products(ProductQuery()).total == 2)
        #expect(try await store.categories().map(\.name) == ["Bakery", "Drinks"])
        await #expect(throws: InventoryError(.invalidValue, field: "file", "")) {
            try await stockroom(["import", "products", data + "/missing.csv", "--data", data])
        }
    }

    @Test func demoIsDeterministicAndRefusesAFullDatabase() async throws {
        let first = temporaryFolder(), second = temporaryFolder()
        try await stockroom(["demo", "--data", first, "--today", "2026-06-30", "--days", "12", "--seed", "3"])
        try await stockroom(["demo", "--data", second, "--today", "2026-06-30", "--days", "12", "--seed", "3"])
        let a = try InventorySQLiteRepository.open(dataFolder: first), b = try InventorySQLiteRepository.open(dataFolder: second)
        let snapshotA = try await a.snapshot(at: Instant(milliseconds: 1_800_000_000_000))
        #expect(snapshotA.lines.count == 60)
        #expect(snapshotA == (try await b.snapshot(at: Instant(milliseconds: 1_800_000_000_000))))
        #expect(try await a.daily(from: 20260619, to: 20260630) == (try await b.daily(from: 20260619, to: 20260630)))
        await #expect(throws: InventoryError(.conflict, field: "data", "")) {
            try await stockroom(["demo", "--data", first, "--days", "3"])
        }
    }

    @Test func benchRunsAtSmallScale() async throws {
        try await stockroom(["bench", "--products", "20", "--sale-lines", "400", "--purchase-lines", "60", "--days", "400", "--busy", "30"])
    }

    @Test func tableFormats() {
        let table = Table(columns: ["name", "value"], rows: [["a \"b\"", "=1"], ["c", "2"]], numeric: [1])
        #expect(table.render(.csv) == "name,value\r\n\"a \"\"b\"\"\",'=1\r\nc,2\r\n")
        #expect(table.render(.json) == "[\n  {\"name\": \"a \\\"b\\\"\", \"value\": \"=1\"},\n  {\"name\": \"c\", \"value\": \"2\"}\n]\n")
        #expect(table.render(.table) == "name   value\n-----  -----\na \"b\"     =1\nc          2\n")
    }
}
