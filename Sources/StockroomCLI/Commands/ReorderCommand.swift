import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// `stockroom reorder`: what to buy per supplier (the domain's `ReorderRule`, as `GET /api/v1/reorder` answers it).
struct ReorderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reorder",
        abstract: "Suggest what to buy per supplier from the sales pace, lead time, days of cover and pack sizes.",
        discussion: """
            need = units sold over the window (net of returns) × (supplier's lead time + cover) ÷ window days; the target \
            is at least the low-stock threshold; target − stock is rounded up to whole packs. Nothing is written.
            """)

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Only this supplier (id or name).") var supplier: String?
    @Option(help: "Days of sales to learn the pace from, today included (1–366).") var window: Int = ReorderTerms.defaultWindowDays
    @Option(help: "Days of stock wanted beyond the lead time (0–366).") var cover: Int = ReorderTerms.defaultCoverDays
    @Option(help: "table, csv, or json (exactly what GET /api/v1/reorder answers).") var format: OutputFormat = .table

    func validate() throws {
        do {
            _ = try ReorderTerms(windowDays: self.window, coverDays: self.cover)
        } catch let error as InventoryError {
            throw ValidationError("--\(error.field ?? "window") \(error.userMessage)")
        }
    }

    func run() async throws { try await self.run(on: try await self.database.open()) }


    func run(on store: some ShopStore) async throws {
        var supplier: SupplierID?
        if let reference = self.supplier { supplier = try await Lookup(store: store).supplier(reference) }
        if self.format == .json {
            return printJSON(try await store.api.reorder(window: String(self.window), cover: String(self.cover), supplier: supplier))
        }
        let settings = try await store.settings()
        let terms = try ReorderTerms(windowDays: self.window, coverDays: self.cover)
        let now = Instant.now
        let facts = try await store.reorderFacts(soldWithin: terms.interval(endingAt: now, calendar: settings.calendar))
        let groups = facts.suggestions(terms).filter { supplier == nil || $0.supplier?.id == supplier }
        let currency = settings.currency
        var rows: [[String]] = []
        for group in groups {
            let name = group.supplier?.name ?? "(no supplier)"
            for line in group.lines {
                let c = line.candidate
                rows.append([name, c.productID.description, c.name, c.supplierCode ?? "", c.sold.decimalString, line.velocity.decimalString,
                             c.stock.decimalString, String(line.leadTimeDays), line.target.decimalString, String(line.packs),
                             c.packSize.decimalString, line.quantity.decimalString, line.cost.decimalString(currency)])
            }
            if self.format == .table {
                rows.append(["", "", "TOTAL \(name)", "", "", "", "", "", "", "", "", "", group.cost.decimalString(currency)])
            }
        }
        if self.format == .table {
            let (first, last) = terms.days(endingAt: now, calendar: settings.calendar)
            print("Sales \(ShopCalendar.isoDate(first)) to \(ShopCalendar.isoDate(last)) (\(terms.windowDays) days), cover \(terms.coverDays) days")
        }
        let table = Table(
            columns: ["supplier", "id", "product", "code", "sold", "per day", "stock", "lead", "target", "packs", "pack", "buy", "cost"],
            rows: rows, numeric: [1, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        print(table.render(self.format), terminator: "")
        if self.format == .table && groups.isEmpty { print("Nothing to reorder.") }
    }
}
