import Foundation
import InventoryDomain
@testable import InventoryStore
import Testing

/// Searches listed by name are answered from ``ProductSearchIndex`` in memory: the same products, in the same order, with
/// the same count as the SQL that states the rule, and never older than the last change made through the store.
extension SQLiteSpecificTests {
    /// A random catalogue (accents, capitals, LIKE's wildcards, equal names, archived products, categories, SKUs and
    /// barcodes) and random searches (fragments of names, words out of order, SKUs in other cases, barcodes in their
    /// other forms, single letters, wildcards): the index answers exactly what the SQL answers. On a file, a search
    /// that finds the index kept and young reads its page on a point reader, off the calling thread.
    @Test(arguments: [(UInt64(1), false), (2, false), (3, true), (4, true)])
    func theSearchIndexAnswersWhatTheSQLAnswers(seed: UInt64, onFile: Bool) async throws {
        var rng = SeededRandom(seed: seed)
        let store = try Self.searchStore(onFile: onFile)
        var categories: [CategoryID] = []
        for name in ["Dairy", "Bakery", "Drinks"] {
            categories.append(try await store.createCategory(Category(id: CategoryID(0), name: name)).id)
        }
        let brands = ["Alpenhof", "alpenhof", "Café Olé", "CAFE", "Ærø", "Straße", "Bio_Farm", "50% Cacao", "Back\\slash", "Crème", "creme", "Żółw",
                      // Bytes that share a bit of the index's masks with `%`, `_` and `\`: a text holding one must not
                      // be taken for holding the other.
                      "Jo's [Deli]", "$ Store"]
        let items = ["Oat milk", "Crème fraîche", "Rye bread", "Cola", "Espresso beans", "Müsli", "Tea", "Eggs 6", "Jam", "A"]
        let sizes = ["100 g", "250 g", "1 kg", "200 ml", "1 l", "", "6 pcs", "12"]
        let wordSKUs = ["Tea", "jam", "COLA", "Müsli", "a", "Rye"]
        var names: [String] = []
        var skus: [String] = []
        var barcodes: [String] = []
        for index in 0..<240 {
            let name = [brands.randomElement(using: &rng)!, items.randomElement(using: &rng)!, sizes.randomElement(using: &rng)!]
                .filter { !$0.isEmpty }.joined(separator: " ")
            // A few SKUs are words of other products' names, so a search equal to one ranks that product first (rank 0)
            // ahead of names that start with the word.
            let sku = index < wordSKUs.count ? wordSKUs[index]
                : Bool.random(using: &rng) ? "Sk-\(index)\(["a", "B", "c"].randomElement(using: &rng)!)" : nil
            var barcode: String?
            if rng.next() % 3 != 0 {
                // EAN-13s, some starting with 0 (their UPC-A form finds them too).
                var digits = (0..<12).map { _ in Int(rng.next() % 10) }
                if index % 4 == 0 { digits[0] = 0 }
                digits[11] = index % 10
                digits[10] = (index / 10) % 10
                digits[9] = (index / 100) % 10
                barcode = (digits + [Barcode.checkDigit(digits)]).map(String.init).joined()
            }
            let details = ProductDetails(name: name, sku: sku, barcode: barcode,
                                         categoryID: rng.next() % 4 == 0 ? nil : categories.randomElement(using: &rng),
                                         isArchived: rng.next() % 7 == 0)
            _ = try await store.createProduct(details)
            names.append(name)
            if let sku { skus.append(sku) }
            if let barcode { barcodes.append(barcode) }
        }

        var searches: [String] = ["e", "E", "a", "%", "_", "\\", "50%", "bio_", "creme", "CRÈME", "cafe ole", "ole cafe", "ss",
                                  "straße", "aero", "zzz", "  oat   milk  ", "g 1", "1 k", "żółw", "ZOLW", "00", "a a",
                                  "tea", "JAM", "Cola", "müsli", "MÜSLI", "A", "rye", "rye bread", "'", "]", "$",
                                  // Words that fold to nothing (a lone combining accent): empty words match every text.
                                  "\u{301}", "\u{301} \u{301}", "tea \u{301}",
                                  // Words of two bytes, which the index's two-byte pieces answer: alone, with words of
                                  // other lengths, as the rarest word and not, and pieces no text holds.
                                  "ol", "ol ca", "ca ol", "ml 1", "1 ml", "ea ry", "ry ea", "mi 0", "qx", "qx ea", "ea 25",
                                  "é", "öl", "50 %", "_f", "o\\", "ye ea ad"]
        for _ in 0..<60 {
            let name = names.randomElement(using: &rng)!
            let size = min(name.count, Int(rng.next() % 6) + 1)
            let start = Int(rng.next() % UInt64(name.count - size + 1))
            let fragment = String(name.dropFirst(start).prefix(size))
            searches.append(Bool.random(using: &rng) ? fragment : fragment.uppercased())
        }
        for sku in skus.shuffled(using: &rng).prefix(10) { searches.append(Bool.random(using: &rng) ? sku.uppercased() : sku.lowercased()) }
        for barcode in barcodes.shuffled(using: &rng).prefix(10) {
            searches.append(barcode)
            if barcode.hasPrefix("0") { searches.append(String(barcode.dropFirst())) }  // the UPC-A form
        }

        var compared = 0
        var answeredWithoutACheck = 0
        for search in searches {
            var query = ProductQuery(search: search)
            query.includeArchived = rng.next() % 3 == 0
            if rng.next() % 4 == 0 { query.categoryID = categories.randomElement(using: &rng) }
            query.limit = [1, 5, 20, 1000].randomElement(using: &rng)!
            query.offset = [0, 0, 3, 17].randomElement(using: &rng)!
            if store.searchIndex.fresh() != nil { answeredWithoutACheck += 1 }
            let fromIndex = try await store.products(query)
            let fromSQL = try await store.testOnly_productsBySQL(query)
            #expect(fromIndex.products.map(\.id) == fromSQL.products.map(\.id), "search \(search.debugDescription), \(query)")
            #expect(fromIndex.total == fromSQL.total, "search \(search.debugDescription), \(query)")
            #expect(fromIndex.products == fromSQL.products)
            if fromSQL.total > 0 { compared += 1 }
        }
        #expect(compared > searches.count / 2, "most searches find something, so the comparison means something")
        #expect(store.searchIndex.isKept)
        #expect(answeredWithoutACheck > 0, "searches found the index young")
        #expect((store.pointReaders != nil) == onFile)
    }

    /// A store in memory (one connection; every search in a read transaction) or on a file (point readers too).
    static func searchStore(onFile: Bool) throws -> InventorySQLiteRepository {
        guard onFile else { return try InventorySQLiteRepository.inMemory() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-search-\(UUID().uuidString)")
        return try InventorySQLiteRepository.open(dataFolder: folder.path)
    }

    /// The index is handed out without a database only while it is kept, young and not being checked or read.
    /// (No sleeps: a cache whose lifetime is an hour is young throughout, one whose lifetime is zero never is.)
    @Test func anIndexIsFreshOnlyWhileKeptYoungAndNotBeingRead() async throws {
        let store = try InventorySQLiteRepository.inMemory()
        _ = try await store.createProduct(ProductDetails(name: "Oat milk"))
        let cache = ProductSearchIndexCache(lifetime: .seconds(3_600))
        #expect(cache.fresh() == nil, "none read yet")
        try await store.dbWriter.read { db in
            var freshWhileReading = true
            _ = try cache.index(db) { db in
                freshWhileReading = cache.fresh() != nil
                return try ProductSearchIndex.read(db)
            }
            #expect(!freshWhileReading)
        }
        #expect(cache.fresh() != nil)
        cache.invalidate()
        #expect(cache.fresh() == nil, "a catalogue change drops it")

        let aged = ProductSearchIndexCache(lifetime: .zero)
        let (read, freshOnceRead, checked) = try await store.dbWriter.read { db in
            let read = try aged.index(db) != nil
            let freshOnceRead = aged.fresh() != nil
            return (read, freshOnceRead, try aged.index(db) != nil)
        }
        #expect(read && aged.isKept)
        #expect(!freshOnceRead, "kept but older than its lifetime: a search checks it in a transaction")
        #expect(checked, "checked: the fingerprint is the same")
        #expect(aged.fresh() == nil)
    }

    /// A change of a name, SKU, barcode, category or archiving through the store drops the index at commit, so the next
    /// search sees it; a purchase or a sale, which changes only stock, keeps it; a refused write changes nothing.
    @Test(arguments: [false, true])
    func theSearchIndexFollowsEveryCatalogueChangeAndIgnoresStock(onFile: Bool) async throws {
        let store = try Self.searchStore(onFile: onFile)
        let milk = try await store.createProduct(ProductDetails(name: "Oat milk"))
        _ = try await store.createProduct(ProductDetails(name: "Rye bread", sku: "RYE"))
        func names(_ search: String, archived: Bool = false) async throws -> [String] {
            try await store.products(ProductQuery(search: search, includeArchived: archived)).products.map(\.name)
        }
        #expect(try await names("milk") == ["Oat milk"])
        #expect(store.searchIndex.isKept)

        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: at(20260101), lines: [.init(productID: milk.id, quantity: qty(5), unitCost: eur("0.50"))]))
        _ = try await store.postSale(SaleDraft(effectiveAt: at(20260102), lines: [.init(productID: milk.id, quantity: qty(1), unitPrice: eur("1.00"))]))
        #expect(store.searchIndex.isKept, "stock moved; nothing a search reads changed")
        #expect(try await store.products(ProductQuery(search: "milk")).products.first?.stock.quantity == qty(4),
                "the page's rows are read from the database, with their stock as it is now")

        var details = milk.details
        details.name = "Oat drink"
        _ = try await store.updateProduct(milk.id, details)
        #expect(!store.searchIndex.isKept)
        #expect(try await names("milk") == [])
        #expect(try await names("drink") == ["Oat drink"])

        _ = try await store.createProduct(ProductDetails(name: "Milk chocolate", barcode: "4006381333931"))
        #expect(try await names("milk") == ["Milk chocolate"])
        #expect(try await names("4006381333931") == ["Milk chocolate"])
        // A UPC-E scan finds the product stored under its EAN-13, which its search text does not hold as such: found
        // through the barcode, archived or not, as the SQL finds it.
        let stored = try Barcode.normalize("01234565")
        #expect(stored != "01234565")
        _ = try await store.createProduct(ProductDetails(name: "Gum", barcode: stored, isArchived: true))
        for query in [ProductQuery(search: "01234565"), ProductQuery(search: "01234565", includeArchived: true)] {
            #expect(try await store.products(query).products.map(\.name) == ["Gum"])
            #expect(try await store.testOnly_productsBySQL(query).products.map(\.name) == ["Gum"])
        }

        // A refused write (a SKU another product has) leaves the index and the answers as they were.
        _ = try await names("drink")
        details.sku = "RYE"
        await #expect(throws: InventoryError.self) { try await store.updateProduct(milk.id, details) }
        #expect(try await names("rye") == ["Rye bread"])

        details.sku = nil
        details.isArchived = true
        _ = try await store.updateProduct(milk.id, details)
        #expect(try await names("drink") == [])
        #expect(try await names("drink", archived: true) == ["Oat drink"])

        let bread = try #require(try await store.products(ProductQuery(search: "rye")).products.first)
        try await store.deleteProduct(bread.id)
        #expect(try await names("rye") == [])
    }

    /// Another process on the same file (the command line's import, while the server runs) adds a product: the
    /// server's searches find it within the index's lifetime.
    @Test func aProductAddedByAnotherProcessIsFoundWithinTheIndexsLifetime() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-search-\(UUID().uuidString)").path
        let server = try InventorySQLiteRepository.open(dataFolder: folder)
        let commandLine = try InventorySQLiteRepository.open(dataFolder: folder)
        _ = try await server.createProduct(ProductDetails(name: "Oat milk"))
        #expect(try await server.products(ProductQuery(search: "milk")).total == 1)
        let soy = try await commandLine.createProduct(ProductDetails(name: "Soy milk"))
        func eventually(_ search: String, _ expected: Int) async throws -> Int {
            // A search begun after the deadline finds the index older than its lifetime and checks it, whatever the
            // machine's load: the loop ends with one such search rather than failing on a thread that was late to run.
            let deadline = ContinuousClock.now + server.searchIndex.lifetime + .seconds(5)
            var total = try await server.products(ProductQuery(search: search)).total
            while total != expected {
                let late = ContinuousClock.now >= deadline
                try await Task.sleep(for: .milliseconds(50))
                total = try await server.products(ProductQuery(search: search)).total
                if late { break }
            }
            return total
        }
        #expect(try await eventually("milk", 2) == 2)
        // A rename keeps the number of products: the fingerprint's times see it.
        var details = soy.details
        details.name = "Soy drink"
        _ = try await commandLine.updateProduct(soy.id, details)
        #expect(try await eventually("drink", 1) == 1)
        #expect(try await server.products(ProductQuery(search: "milk")).total == 1)
    }

    /// While one search reads the index, another gets none (and answers by SQL) instead of reading a copy of its own;
    /// a read that fails leaves the way open for the next; concurrent searches all answer what the SQL answers.
    @Test func oneSearchReadsTheIndexWhileTheOthersAnswerBySQL() async throws {
        let store = try InventorySQLiteRepository.inMemory()
        for index in 0..<200 { _ = try await store.createProduct(ProductDetails(name: "Oat milk \(index)")) }
        let cache = ProductSearchIndexCache()
        try await store.dbWriter.read { db in
            struct Refused: Error {}
            #expect(throws: Refused.self) { try cache.index(db) { _ in throw Refused() } }
            var innerAsked = false, innerGotOne = true
            let outer = try cache.index(db) { db in
                innerAsked = true
                innerGotOne = try cache.index(db) != nil
                return try ProductSearchIndex.read(db)
            }
            #expect(outer != nil && innerAsked && !innerGotOne, "the search that came while the index was read got none")
            #expect(try cache.index(db) != nil && cache.isKept)
        }

        let query = ProductQuery(search: "milk 1", limit: 20)
        let expected = try await store.testOnly_productsBySQL(query)
        let answers = try await withThrowingTaskGroup(of: [ProductID].self) { group in
            for _ in 0..<16 { group.addTask { try await store.products(query).products.map(\.id) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 16 && answers.allSatisfy { $0 == expected.products.map(\.id) })
    }

    /// The index's substring test against a plain one, on short texts over a three-letter alphabet (needles at either
    /// end, overlapping first bytes, needles longer than the text, empty ones).
    @Test func theIndexsSubstringTestIsASubstringTest() {
        var rng = SeededRandom(seed: 11)
        func text(_ count: Int) -> [UInt8] { (0..<count).map { _ in [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: " ")].randomElement(using: &rng)! } }
        for _ in 0..<5_000 {
            let haystack = text(Int(rng.next() % 9)), needle = text(Int(rng.next() % 4))
            let expected = needle.isEmpty || (haystack.count >= needle.count && (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle })
            let found = haystack.withUnsafeBufferPointer { ProductSearchIndex.contains($0, needle) }
            #expect(found == expected, "\(haystack) \(needle)")
        }
    }
}
