import ArgumentParser
import Foundation
import InventoryDomain
import InventoryPostgres
import InventoryStore

/// `stockroom bench`: builds a large synthetic shop and times posting, reports and re-costing.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Benchmark the books on a synthetic shop (use a release build).",
        discussion: "Defaults: 10,000 products, 1,000,000 sale lines and 100,000 purchase lines over two years, in a new database under --data (default: a temporary folder, removed afterwards), or on the PostgreSQL database --database names (a schema with no shop in it: postgres://…?schema=bench).")
    @Option(help: "Products.") var products: Int = 10_000
    @Option(help: "Sale lines.") var saleLines: Int = 1_000_000
    @Option(help: "Purchase lines.") var purchaseLines: Int = 100_000
    @Option(help: "Days of history.") var days: Int = 730
    @Option(help: "Sale lines of the busy product in the last year (re-costing benchmark).") var busy: Int = 5_000
    @Option(help: "Folder for the benchmark database (must not exist).") var data: String?
    @Option(help: ArgumentHelp("Run it on this PostgreSQL database instead (postgres://user@host/db?schema=NAME; the schema must hold no shop); the password as for serve.",
                               valueName: "url"))
    var database: String?
    @Option(help: ArgumentHelp("A file holding the PostgreSQL password (when the URL has none).", valueName: "file")) var databasePasswordFile: String?
    @Option(help: "Random seed.") var seed: UInt64 = 7
    @Flag(help: "Only time the raw SQLite ceiling (the three statements of a one-line sale, per commit and in batches) in --data, and print it: for scripts/bench-wrk.sh.")
    var ceilingOnly = false

    /// A realistic product name for the benchmark shop (brand, item, size; some with accents), so that search is
    /// measured on text like a shop's: 20 brands × 50 items × 10 sizes = 10,000 different names, then numbered rounds.
    static func productName(_ index: Int) -> String {
        let brands = ["Alpenhof", "Brindle & Co", "Café Olé", "Dunmore", "Elmstead", "Fjällmejeri", "Greenacre", "Hartley's", "Île Verte",
                      "Jansen", "Kerry Farms", "Lindqvist", "Maison Crème", "Northwind", "Old Mill", "Périgord", "Quayside", "Riverside",
                      "Søndergaard", "Tamworth"]
        let items = ["Oat milk", "Whole milk", "Crème fraîche", "Greek yoghurt", "Butter croissant", "Sourdough loaf", "Espresso beans",
                     "Earl Grey tea", "Dark chocolate", "Müsli", "Granola", "Apple juice", "Orange juice", "Sparkling water", "Cheddar",
                     "Brie de Meaux", "Pâté", "Smoked salmon", "Free-range eggs", "Honey", "Strawberry jam", "Peanut butter", "Olive oil",
                     "Balsamic vinegar", "Basmati rice", "Penne pasta", "Tomato passata", "Chickpeas", "Lentils", "Porridge oats",
                     "Cornflakes", "Digestive biscuits", "Shortbread", "Salted crisps", "Tortilla chips", "Hummus", "Feta", "Mozzarella",
                     "Parmesan", "Ground coffee", "Green tea", "Chamomile tea", "Hot chocolate", "Vanilla ice cream", "Frozen peas",
                     "Oven chips", "Fish fingers", "Chicken stock", "Tomato soup", "Baked beans"]
        let sizes = ["100 g", "250 g", "500 g", "1 kg", "200 ml", "330 ml", "500 ml", "1 l", "6 pack", "12 pack"]
        let name = "\(brands[(index / 500) % brands.count]) \(items[(index / 10) % items.count]) \(sizes[index % sizes.count])"
        let round = index / (brands.count * items.count * sizes.count)
        return round == 0 ? name : "\(name) #\(round + 1)"
    }

    func validate() throws {
        guard self.products >= 10, self.saleLines >= 100, self.purchaseLines >= self.products, self.days >= 31, self.busy >= 10 else {
            throw ValidationError("need --products ≥ 10, --sale-lines ≥ 100, --purchase-lines ≥ --products, --days ≥ 31 (the 30-day report needs a day to start on), --busy ≥ 10")
        }
        guard self.busy < self.saleLines / 2 else { throw ValidationError("--busy must be less than half of --sale-lines") }
        if self.database != nil, self.ceilingOnly || self.data != nil { throw ValidationError("--database runs on PostgreSQL: leave out --data and --ceiling-only") }
        _ = try self.postgres()
    }

    /// The PostgreSQL database named, if any.
    func postgres() throws -> PostgresLocation? {
        try DatabaseOptions.postgres(url: self.database, passwordFile: self.databasePasswordFile)
    }

    /// What the benchmark runs on: the store, its raw ceiling (sales per second for `sales` one-line sales,
    /// `perTransaction` to a transaction) and the targets that hold there.
    struct Backend {
        var name: String
        var ceiling: (_ sales: Int, _ perTransaction: Int) async throws -> Double
        /// Median report time, and re-costing time, in milliseconds (issue 13 asks 100 and 200 of PostgreSQL; SQLite
        /// keeps its own 50 and 100).
        var reportTarget: Double
        var recostTarget: Double
        /// Batch posting in lines per second, if an absolute target applies.
        var batchTarget: Double?
        var size: () async -> String
    }

    struct Measure {
        var name: String
        var result: String
        var target: String
        var met: Bool?
    }

    /// Sales the per-commit ceiling times (each waits for its own disk flush).
    static let ceilingCommits = 300

    func run() async throws {
        let folder = self.data ?? FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-bench-\(UUID().uuidString)").path
        guard !FileManager.default.fileExists(atPath: folder) else {
            throw InventoryError(.conflict, field: "data", "\(folder) already exists; the benchmark needs a new folder")
        }
        if let location = try self.postgres() {
            let store = try await InventoryPostgresRepository.open(location, maximumConnections: 4)
            guard try await store.products(ProductQuery(limit: 1)).total == 0 else {
                throw InventoryError(.conflict, field: "database", "\(location) already holds a shop; the benchmark needs an empty schema (?schema=NAME)")
            }
            try await self.run(on: store, Backend(
                name: "PostgreSQL", ceiling: { sales, perTransaction in
                    Double(sales) / (try await PostgresRawLedgerCeiling.time(location: location, sales: sales, perTransaction: perTransaction)).seconds
                }, reportTarget: 100, recostTarget: 200, batchTarget: nil,
                size: { "PostgreSQL \(location)" }))
            return
        }
        defer { if self.data == nil { try? FileManager.default.removeItem(atPath: folder) } }
        if self.ceilingOnly {
            let perCommit = try Self.ceilingRate(folder: folder, sales: Self.ceilingCommits, perTransaction: 1)
            let batch = try Self.ceilingRate(folder: folder, sales: 100_000, perTransaction: 1_000)
            print("ceiling per-commit \(Int(perCommit)) sales/s")
            print("ceiling batch \(Int(batch)) lines/s")
            return
        }
        let store = try InventorySQLiteRepository.open(dataFolder: folder)
        try await self.run(on: store, Backend(
            name: "SQLite", ceiling: { sales, perTransaction in try Self.ceilingRate(folder: folder + "-ceiling", sales: sales, perTransaction: perTransaction) },
            reportTarget: 50, recostTarget: 100, batchTarget: 20_000,
            size: { "\(((try? FileManager.default.attributesOfItem(atPath: folder + "/stockroom.sqlite")[.size] as? Int) ?? 0) / 1_048_576) MiB" }))
    }

    /// The benchmark itself, written once for every store.
    func run(on store: some InventoryRepository, _ backend: Backend) async throws {
        var random = SeededRandom(seed: self.seed)
        let calendar = ShopCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current)
        let firstDay = 20240101
        let lastDay = calendar.addingDays(self.days - 1, to: firstDay)
        var measures: [Measure] = []
        let clock = ContinuousClock()
        print("Building on \(backend.name): \(self.products) products, \(self.saleLines) sale lines, \(self.purchaseLines) purchase lines over \(self.days) days")

        // Products, through the CSV importer in one transaction.
        var csv = "name,sku,barcode,sale_price,low_stock_threshold\n"
        for index in 0..<self.products {
            let body = [2, 1] + String(format: "%010d", index).compactMap(\.wholeNumberValue)
            csv += "\(Self.productName(index)),SKU-\(index),\(body.map(String.init).joined())\(Barcode.checkDigit(body)),\(Int.random(in: 1...50, using: &random)).99,\(Int.random(in: 0...40, using: &random))\n"
        }
        let plan = try ProductImport.plan(csv: csv, currency: .eur, existing: [], categories: []).get()
        _ = try await store.importProducts(plan)
        let ids = try await store.products(ProductQuery(sort: .updated, limit: 1)).total
        guard ids == self.products else { throw InventoryError(.conflict, "expected \(self.products) products, found \(ids)") }
        let busyID = ProductID(1)

        // The timeline, posted day by day in batches (one transaction per day for sales, one for purchases).
        var stock = [Int64](repeating: 0, count: self.products + 1)
        let regularSaleLines = self.saleLines - self.busy
        let busyStart = self.days - 365
        var postedSales = 0, postedPurchases = 0
        var batchTime = Duration.zero
        for offset in 0..<self.days {
            let day = calendar.addingDays(offset, to: firstDay)
            let opening = calendar.startOfDay(day)
            var purchaseDrafts: [PurchaseDraft] = []
            var lines: [PurchaseDraft.Line] = []
            if offset == 0 {
                for id in 1...self.products {
                    let quantity: Int64 = id == 1 ? 10_000 : Int64.random(in: 100...300, using: &random)
                    stock[id] += quantity
                    lines.append(.init(productID: ProductID(Int64(id)), quantity: Quantity(quantity), unitCost: Money(minorUnits: Int64.random(in: 50...2_000, using: &random))))
                }
            } else {
                let target = (self.purchaseLines - self.products) * offset / (self.days - 1) - (self.purchaseLines - self.products) * (offset - 1) / (self.days - 1)
                for _ in 0..<target {
                    let id = Int.random(in: 1...self.products, using: &random)
                    let quantity = Int64.random(in: 20...200, using: &random)
                    stock[id] += quantity
                    lines.append(.init(productID: ProductID(Int64(id)), quantity: Quantity(quantity), unitCost: Money(minorUnits: Int64.random(in: 50...2_000, using: &random))))
                }
            }
            for chunk in stride(from: 0, to: lines.count, by: 20) {
                purchaseDrafts.append(PurchaseDraft(effectiveAt: opening.adding(seconds: 6 * 3600), lines: Array(lines[chunk..<min(lines.count, chunk + 20)])))
            }
            var saleDrafts: [SaleDraft] = []
            var target = regularSaleLines * (offset + 1) / self.days - regularSaleLines * offset / self.days
            if offset >= busyStart { target += self.busy * (offset - busyStart + 1) / 365 - self.busy * (offset - busyStart) / 365 }
            var busyToday = offset >= busyStart ? self.busy * (offset - busyStart + 1) / 365 - self.busy * (offset - busyStart) / 365 : 0
            var made = 0, attempts = 0
            while made < target && attempts < target * 20 {
                attempts += 1
                var saleLines: [SaleDraft.Line] = []
                for _ in 0..<min(target - made, Int.random(in: 1...4, using: &random)) {
                    var id = Int.random(in: 2...self.products, using: &random)
                    if busyToday > 0 {
                        id = 1
                        busyToday -= 1
                    }
                    let quantity = Int64.random(in: 1...2, using: &random)
                    guard stock[id] >= quantity else { continue }
                    stock[id] -= quantity
                    saleLines.append(.init(productID: ProductID(Int64(id)), quantity: Quantity(quantity), unitPrice: Money(minorUnits: Int64.random(in: 100...6_000, using: &random))))
                }
                made += saleLines.count
                guard !saleLines.isEmpty else { continue }
                let minute = Double(saleDrafts.count) * (10 * 60 / Double(max(1, target)))
                saleDrafts.append(SaleDraft(effectiveAt: opening.adding(seconds: Int64(8 * 3600 + minute * 60)), lines: saleLines, allowBelowMinimum: true))
            }
            let start = clock.now
            try await store.postPurchases(purchaseDrafts)
            try await store.postSales(saleDrafts)
            batchTime += clock.now - start
            postedPurchases += lines.count
            postedSales += saleDrafts.reduce(0) { $0 + $1.lines.count }
            if offset % 73 == 72 { print("  day \(offset + 1)/\(self.days): \(postedSales) sale lines, \(postedPurchases) purchase lines") }
        }
        let batchLines = postedSales + postedPurchases
        let batchRate = Double(batchLines) / batchTime.seconds
        measures.append(Measure(name: "batch posting (\(batchLines) lines, one transaction per day)", result: "\(Int(batchRate)) lines/s",
                                target: backend.batchTarget.map { "≥ \(Int($0)) lines/s" } ?? "—", met: backend.batchTarget.map { batchRate >= $0 }))
        // The ceiling in the same run: the same three statements per line, raw, in transactions of a day's lines.
        let dayLines = max(1, batchLines / self.days)
        let rawBatch = try await backend.ceiling(min(200_000, batchLines), dayLines)
        measures.append(Measure(name: "  raw \(backend.name), the same three statements per line, \(dayLines) lines per transaction", result: "\(Int(rawBatch)) lines/s",
                                target: "—", met: nil))
        measures.append(Measure(name: "  batch posting as a share of it", result: "\(Int(100 * batchRate / rawBatch)) %", target: "≥ 50 %",
                                met: batchRate >= rawBatch / 2))

        // One sale per transaction, synchronous=FULL.
        let singles = 300
        var singleTimes: [Duration] = []
        let now = calendar.startOfDay(lastDay).adding(seconds: 20 * 3600)
        for index in 0..<singles {
            let id = Int.random(in: 2...self.products, using: &random)
            guard stock[id] >= 1 else { continue }
            stock[id] -= 1
            let start = clock.now
            _ = try await store.postSale(SaleDraft(effectiveAt: now.adding(seconds: Int64(index)), lines: [
                .init(productID: ProductID(Int64(id)), quantity: Quantity(1), unitPrice: Money(minorUnits: 500))
            ], allowBelowMinimum: true))
            singleTimes.append(clock.now - start)
        }
        let singleMedian = Self.median(singleTimes)
        measures.append(Measure(name: "one sale per transaction (durable commit, \(singleTimes.count) sales)",
                                result: "\(Int(1 / singleMedian.seconds)) sales/s (median \(Self.ms(singleMedian)))", target: "—", met: nil))
        let rawCommits = try await backend.ceiling(Self.ceilingCommits, 1)
        let singleRate = Double(singleTimes.count) / singleTimes.reduce(Duration.zero, +).seconds
        measures.append(Measure(name: "  raw \(backend.name), the same three statements, one sale per commit", result: "\(Int(rawCommits)) sales/s",
                                target: "—", met: nil))
        measures.append(Measure(name: "  one sale per transaction as a share of it (mean rate)", result: "\(Int(100 * singleRate / rawCommits)) %",
                                target: "—", met: nil))

        // Reports.
        func time(_ name: String, runs: Int, target: Double, _ body: (inout SeededRandom) async throws -> Void) async throws {
            var times: [Duration] = []
            for _ in 0..<runs {
                let start = clock.now
                try await body(&random)
                times.append(clock.now - start)
            }
            let median = Self.median(times)
            let worst = times.max() ?? .zero
            measures.append(Measure(name: name, result: "median \(Self.ms(median)), max \(Self.ms(worst))", target: "≤ \(Int(target)) ms",
                                    met: median.seconds * 1000 <= target))
        }
        try await time("snapshot at a random past date-time (\(self.products) products)", runs: 20, target: backend.reportTarget) { random in
            let day = calendar.addingDays(Int.random(in: 0..<self.days, using: &random), to: firstDay)
            _ = try await store.snapshot(at: calendar.startOfDay(day).adding(seconds: Int64.random(in: 0..<86_400, using: &random)))
        }
        try await time("daily performance for a random day", runs: 20, target: backend.reportTarget) { random in
            let day = calendar.addingDays(Int.random(in: 0..<self.days, using: &random), to: firstDay)
            _ = try await store.daily(from: day, to: day)
        }
        try await time("daily performance, 30 days", runs: 10, target: backend.reportTarget) { random in
            let day = calendar.addingDays(Int.random(in: 0..<(self.days - 30), using: &random), to: firstDay)
            _ = try await store.daily(from: day, to: calendar.addingDays(29, to: day))
        }
        try await time("top 10 over one year, by quantity", runs: 5, target: backend.reportTarget) { _ in
            _ = try await store.topProducts(from: calendar.startOfDay(calendar.addingDays(-364, to: lastDay)), to: now.adding(seconds: 86_400), by: .quantity, limit: 10)
        }
        try await time("top 10 over one year, by revenue", runs: 5, target: backend.reportTarget) { _ in
            _ = try await store.topProducts(from: calendar.startOfDay(calendar.addingDays(-364, to: lastDay)), to: now.adding(seconds: 86_400), by: .revenue, limit: 10)
        }
        try await time("low-stock list", runs: 20, target: backend.reportTarget) { _ in _ = try await store.lowStock() }
        try await time("valuation by category", runs: 20, target: backend.reportTarget) { _ in _ = try await store.valuation() }

        // Re-costing: a purchase of the busy product back-dated one year.
        var recost: [Duration] = []
        var replayed = 0
        for attempt in 0..<5 {
            let date = calendar.startOfDay(calendar.addingDays(-365 + attempt, to: lastDay)).adding(seconds: 3600)
            replayed = try await store.movements(productID: busyID).filter { $0.position.effectiveAt > date.milliseconds }.count
            let start = clock.now
            _ = try await store.postPurchase(PurchaseDraft(effectiveAt: date, lines: [.init(productID: busyID, quantity: Quantity(10), unitCost: Money(minorUnits: 777))]))
            recost.append(clock.now - start)
        }
        let recostMedian = Self.median(recost)
        measures.append(Measure(name: "re-cost after a purchase back-dated one year (\(replayed) later movements)",
                                result: "median \(Self.ms(recostMedian)), max \(Self.ms(recost.max() ?? .zero))", target: "≤ \(Int(backend.recostTarget)) ms",
                                met: recostMedian.seconds * 1000 <= backend.recostTarget))

        let size = await backend.size()
        print("")
        print(Table(
            columns: ["measure", "result", "target", "met"],
            rows: measures.map { [$0.name, $0.result, $0.target, $0.met.map { $0 ? "yes" : "NO" } ?? ""] }).render(.table), terminator: "")
        print("database: \(size), \(postedSales + singleTimes.count) sale lines, \(postedPurchases + 5) purchase lines, \(self.products) products")
    }

    /// The raw SQLite ceiling (``RawLedgerCeiling``) in sales per second.
    static func ceilingRate(folder: String, sales: Int, perTransaction: Int) throws -> Double {
        Double(sales) / (try RawLedgerCeiling.time(folder: folder, sales: sales, perTransaction: perTransaction)).seconds
    }

    static func median(_ values: [Duration]) -> Duration {
        let sorted = values.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }

    static func ms(_ duration: Duration) -> String { String(format: "%.1f ms", duration.seconds * 1000) }
}

extension Duration {
    var seconds: Double {
        let parts = self.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
