import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// `stockroom export KIND`: CSV downloads.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export CSV (RFC 4180, UTF-8, header row).")
    @OptionGroup var database: DatabaseOptions
    @Argument(help: "products, suppliers, customers, purchases, sales or movements.") var kind: String
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?
    @Option(help: "Purchases, sales and movements from this day (or date-time, shop time) on.") var from: String?
    @Option(help: "Purchases, sales and movements up to the end of this day (or this date-time).") var to: String?

    func run() async throws {
        guard let kind = ExportKind(rawValue: self.kind) else {
            throw InventoryError(.invalidValue, field: "kind", "must be one of \(ExportKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try await self.run(on: try await self.database.open(), kind: kind)
    }

    func run(on store: some ShopStore, kind: ExportKind) async throws {
        let range = try await store.settings().calendar.range(from: self.from, to: self.to)
        let text = try await store.exportCSV(kind, range: range)
        if let output = self.output {
            do {
                try text.write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                throw InventoryError(.invalidValue, field: "output", "cannot write \(output): \(error.localizedDescription)")
            }
            print("Wrote \(output)")
        } else {
            print(text, terminator: "")
        }
    }
}

/// `stockroom import products FILE`.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Import CSV.", subcommands: [Products.self])

    struct Products: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or update products from CSV (matched by SKU, then barcode).",
            discussion: "The whole file is checked first: any bad row is reported with its line number and nothing is written.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "CSV file with a header row; only 'name' is required.") var file: String
        @Flag(help: "Show what would change without writing.") var dryRun = false
        @Option(help: "table, or json (what POST /api/v1/import/products answers).") var format: RecordFormat = .table

        func run() async throws {
            let text: String
            do {
                text = try String(contentsOfFile: self.file, encoding: .utf8)
            } catch {
                throw InventoryError(.invalidValue, field: "file", "cannot read \(self.file) as UTF-8 text")
            }
            try await self.run(on: try await self.database.open(), text: text)
        }

        func run(on store: some ShopStore, text: String) async throws {
            let existing = try await store.products(ProductQuery(includeArchived: true, limit: Int.max))
            var products = existing.products
            var offset = products.count
            while offset < existing.total {
                products += try await store.products(ProductQuery(includeArchived: true, limit: 1000, offset: offset)).products
                offset += 1000
            }
            let plan: ProductImport
            switch ProductImport.plan(csv: text, currency: try await store.settings().currency, existing: products, categories: try await store.categories()) {
            case .success(let value): plan = value
            case .failure(let failure):
                var standardError = FileHandle.standardError
                print("Import refused, nothing was written. \(failure.problems.count) problem(s):", to: &standardError)
                for problem in failure.problems { print("  \(problem)", to: &standardError) }
                throw ExitCode.failure
            }
            if self.format == .json {
                return printJSON(try store.api.importAnswer(plan, imported: self.dryRun ? nil : try await store.importProducts(plan)))
            }
            let creates = plan.rows.filter { $0.productID == nil }
            let updates = plan.rows.filter { $0.productID != nil }
            for row in plan.rows {
                print("line \(row.line): \(row.productID.map { "update product \($0)" } ?? "create") '\(row.details.name)' (\(row.changedFields.joined(separator: ", ")))")
            }
            for name in plan.newCategories { print("new category '\(name)'") }
            if self.dryRun {
                print("Dry run: would create \(creates.count), update \(updates.count), leave \(plan.unchangedCount) unchanged. Nothing written.")
                return
            }
            let result = try await store.importProducts(plan)
            print("Imported: created \(result.created), updated \(result.updated), unchanged \(plan.unchangedCount).")
        }
    }
}

extension FileHandle: @retroactive TextOutputStream {
    public func write(_ string: String) { self.write(Data(string.utf8)) }
}
