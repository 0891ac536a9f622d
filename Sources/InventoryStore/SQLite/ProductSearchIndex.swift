import Foundation
import GRDB
import InventoryDomain
import Synchronization

/// What a search listed by name needs of every product (its folded search text, SKU, barcode, whether archived, its
/// category), in memory, in the order of the list: name (`COLLATE NOCASE`), then id.
///
/// A search by name over SQL ranked every match (`CASE` over three `LIKE`s) and sorted them all before taking a page,
/// and a word of one or two letters ("g 1") cannot use the trigram index, so it read every product: 34 million
/// instructions per search over 10,000 products (BENCHMARKS.md, issue 15 point 2). Here one pass over the entries,
/// already in name order, finds, ranks and counts the matches, and the database reads only the page's rows.
///
/// The rule is the one the SQL states (``InventorySQLiteRepository/products(_:)``; PostgreSQL states the same):
/// - a product matches when its search text contains every word of the search, folded (``SearchText/key(_:)``), as
///   the `LIKE` of each word does (archived products only when the query includes them), or when its barcode is one
///   of the search's barcode candidates (archived or not);
/// - ranks: 0 the exact barcode or the SKU equal to the search (ASCII case folded, as `COLLATE NOCASE`), 1 the search
///   text starting with the folded search, 2 a word of it starting so, 3 the rest; each rank in list order.
///
/// `SQLiteSpecificTests.theSearchIndexAnswersWhatTheSQLAnswers` holds this to the SQL on random catalogues and searches.
struct ProductSearchIndex: Sendable {
    /// Every product's folded search text, one after the other (a product's is `keys[keyStarts[i]..<keyStarts[i + 1]]`):
    /// one pass over contiguous bytes, with no reference counting per product.
    private var keys: [UInt8] = []
    private var keyStarts: [Int] = [0]
    /// Per product, in list order: its id, SKU, whether archived, its category.
    private var ids: [Int64] = []
    private var skus: [[UInt8]?] = []
    /// For each three-byte piece of the search texts, the positions (in list order, ascending) of the products whose
    /// text holds it: a word of three bytes or more can only be in the texts holding all of its pieces.
    private var postings: [UInt32: [Int32]] = [:]
    /// Each barcode's product (its position in list order): barcodes are unique.
    private var byBarcode: [String: Int] = [:]
    private var archived: [Bool] = []
    private var categories: [Int64?] = []
    /// ``fingerprint(_:)`` when the entries were read.
    private(set) var fingerprint = Fingerprint(products: 0, updatedAtSum: 0)

    /// See ``fingerprint(_:)``.
    struct Fingerprint: Equatable {
        var products: Int64
        var updatedAtSum: Int64
    }

    /// How many products there are and the sum of their `updatedAt`: every change a search reads (made by this store or
    /// by another process on the file) changes it, since each sets `updatedAt`, and a sale, which does not, keeps it.
    /// Reading it is one pass over the table (about 2 ms over 10,000 products), reading the index about ten times that.
    static func fingerprint(_ db: Database) throws -> Fingerprint {
        // (Each time's low 32 bits, so the sum cannot overflow.)
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*), COALESCE(SUM(updatedAt % 4294967296), 0) FROM product"))
        return Fingerprint(products: row?[0] ?? 0, updatedAtSum: row?[1] ?? 0)
    }

    /// Reads every product's search facts, ordered as the list is (by SQLite's own `NOCASE`, so the order is the SQL's).
    static func read(_ db: Database) throws -> ProductSearchIndex {
        var index = ProductSearchIndex()
        index.fingerprint = try Self.fingerprint(db)
        let count = Int(index.fingerprint.products)
        index.keys.reserveCapacity(count * 40)
        index.keyStarts.reserveCapacity(count + 1)
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, searchKey, sku, barcode, isArchived, categoryId FROM product ORDER BY name COLLATE NOCASE, id
            """)
        while let row = try rows.next() {
            let key: String = row[1]
            let sku: String? = row[2]
            let start = index.keys.count
            index.keys.append(contentsOf: key.utf8)
            index.keyStarts.append(index.keys.count)
            let position = Int32(index.ids.count)
            if index.keys.count - start >= 3 {
                for offset in start..<(index.keys.count - 2) {
                    let piece = Self.piece(index.keys[offset], index.keys[offset + 1], index.keys[offset + 2])
                    if index.postings[piece, default: []].last != position { index.postings[piece, default: []].append(position) }
                }
            }
            if let barcode: String = row[3] { index.byBarcode[barcode] = index.ids.count }
            index.ids.append(row[0])
            index.skus.append(sku.map { Array($0.utf8) })
            index.archived.append(row[4])
            index.categories.append(row[5])
        }
        return index
    }

    /// The ids of one page of the products matching `search` (split into `words`), best first, and how many match.
    func search(_ search: String, words: [String], includeArchived: Bool, categoryID: Int64?, offset: Int, limit: Int)
        -> (ids: [Int64], total: Int)
    {
        let folded = words.map { Array(SearchText.key($0).utf8) }
        let whole = Array(SearchText.folded(search).utf8)
        let spacedWhole = [UInt8(ascii: " ")] + whole
        let searchBytes = Array(search.utf8)
        let barcodeHits = Barcode.lookupCandidates(search).compactMap { self.byBarcode[$0] }
        let wanted = offset + limit
        var ranks: [[Int64]] = [[], [], [], []]
        var total = 0
        self.keys.withUnsafeBufferPointer { keys in
            func consider(_ product: Int) {
                if let categoryID, self.categories[product] != categoryID { return }
                let key = UnsafeBufferPointer(rebasing: keys[self.keyStarts[product]..<self.keyStarts[product + 1]])
                // The exact barcode finds its product whatever else the list asks, archived too (as the SQL's OR).
                let byBarcode = !barcodeHits.isEmpty && barcodeHits.contains(product)
                guard byBarcode || ((includeArchived || !self.archived[product]) && folded.allSatisfy({ Self.contains(key, $0) }))
                else { return }
                total += 1
                let rank: Int
                if byBarcode || self.skus[product].map({ Self.equalIgnoringASCIICase($0, searchBytes) }) == true {
                    rank = 0
                } else if key.starts(with: whole) {
                    rank = 1
                } else if Self.contains(key, spacedWhole) {
                    rank = 2
                } else {
                    rank = 3
                }
                if ranks[rank].count < wanted { ranks[rank].append(self.ids[product]) }
            }
            // Only the products holding the rarest three-byte piece of a word of three bytes or more can match by their
            // words (with the products the barcode finds); with no such word, every product is looked at.
            guard let rarest = self.rarestPostings(folded) else {
                for product in self.ids.indices { consider(product) }
                return
            }
            var hits = barcodeHits.sorted()[...]
            for position in rarest {
                let product = Int(position)
                while let hit = hits.first, hit <= product {
                    if hit < product { consider(hit) }
                    hits.removeFirst()
                }
                consider(product)
            }
            for hit in hits { consider(hit) }
        }
        var ordered: [Int64] = []
        ordered.reserveCapacity(min(wanted, total))
        for rank in ranks {
            ordered.append(contentsOf: rank.prefix(wanted - ordered.count))
            if ordered.count >= wanted { break }
        }
        return (Array(ordered.dropFirst(offset).prefix(limit)), total)
    }

    private static func piece(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    /// The shortest list of positions among the pieces of the words of three bytes or more (an empty list when one
    /// piece is in no text), or nil when every word is shorter.
    private func rarestPostings(_ words: [[UInt8]]) -> [Int32]? {
        var rarest: [Int32]?
        for word in words where word.count >= 3 {
            for offset in 0..<(word.count - 2) {
                let postings = self.postings[Self.piece(word[offset], word[offset + 1], word[offset + 2])] ?? []
                if postings.count < rarest?.count ?? Int.max { rarest = postings }
            }
        }
        return rarest
    }

    /// Whether `haystack` contains `needle` (an empty needle is in every text, as `LIKE '%%'` matches everything).
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        return needle.withUnsafeBufferPointer { pin in
            // memchr finds each place the needle's first byte is, memcmp compares the rest there.
            let base = haystack.baseAddress!, last = haystack.count - pin.count
            var start = 0
            while start <= last {
                guard let hit = memchr(base + start, Int32(pin[0]), last - start + 1) else { return false }
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if pin.count == 1 || memcmp(base + at + 1, pin.baseAddress! + 1, pin.count - 1) == 0 { return true }
                start = at + 1
            }
            return false
        }
    }

    /// SQLite's `NOCASE` equality: the same bytes once ASCII capitals are lower-cased.
    static func equalIgnoringASCIICase(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where Self.lower(a[index]) != Self.lower(b[index]) { return false }
        return true
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

/// The ``ProductSearchIndex`` as last read. A write through this repository that adds, removes or renames a product (or
/// changes its SKU, barcode, category or archiving, or any category) drops it at commit (``CacheInvalidator``), so the
/// next search reads it again; a sale, which changes only stock, keeps it. A change made by another process on the same
/// file is seen within ``lifetime``: once an index is that old, one search compares its
/// ``ProductSearchIndex/fingerprint(_:)`` with the table's and reads it again only when they differ, while the other
/// searches go on using it.
final class ProductSearchIndexCache: Invalidatable {
    private struct State {
        var index: ProductSearchIndex?
        var readAt = ContinuousClock.now
        var generation = 0
        var refreshing = false
    }
    let lifetime: Duration
    private let state = Mutex(State())

    init(lifetime: Duration = .seconds(1)) {
        self.lifetime = lifetime
    }

    /// The index, read in `db` (the caller's read transaction) when there is none yet or it has aged; nil while
    /// another search is reading it (that caller then answers by SQL, as the index would), so that the first searches
    /// after a catalogue change do not each read their own copy at once.
    func index(_ db: Database, read: (Database) throws -> ProductSearchIndex = ProductSearchIndex.read) throws -> ProductSearchIndex? {
        enum Next { case use(ProductSearchIndex?), check(ProductSearchIndex, Int), read(Int) }
        let next: Next = self.state.withLock { state in
            guard let index = state.index else {
                if state.refreshing { return .use(nil) }
                state.refreshing = true
                return .read(state.generation)
            }
            if ContinuousClock.now - state.readAt < self.lifetime || state.refreshing { return .use(index) }
            state.refreshing = true
            return .check(index, state.generation)
        }
        let generation: Int
        switch next {
        case .use(let index): return index
        case .check(_, let kept): generation = kept
        case .read(let current): generation = current
        }
        // This caller checks or reads; whatever happens, it leaves the way open to the next.
        defer { self.state.withLock { $0.refreshing = false } }
        if case .check(let index, _) = next, try ProductSearchIndex.fingerprint(db) == index.fingerprint {
            self.state.withLock { state in
                if state.generation == generation { state.readAt = ContinuousClock.now }
            }
            return index
        }
        let index = try read(db)
        self.state.withLock { state in
            guard state.generation == generation else { return }
            state.index = index
            state.readAt = ContinuousClock.now
        }
        return index
    }

    func invalidate() {
        self.state.withLock { state in
            state.index = nil
            state.generation += 1
        }
    }

    /// Whether an index is kept, for tests.
    var isKept: Bool { self.state.withLock { $0.index != nil } }
}
