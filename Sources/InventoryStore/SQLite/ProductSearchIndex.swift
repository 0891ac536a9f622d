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
    /// Every product's SKU with its ASCII capitals lower-cased (none: empty), one after the other as the keys are.
    private var skus: [UInt8] = []
    private var skuStarts: [Int] = [0]
    /// For each three-byte piece of the search texts (``piece(_:_:_:)``), the positions (in list order, ascending) of
    /// the products whose text holds it: a word of three bytes or more can only be in the texts holding all of its
    /// pieces, and a word of three bytes, one piece, is in exactly those.
    private var postings: [UInt32: [Int32]] = [:]
    /// The same for each two-byte piece, at `first << 8 | second` (65,536 lists, most of them empty, so no hashing).
    private var pairs = [[Int32]](repeating: [], count: 1 << 16)
    /// Each barcode's product (its position in list order): barcodes are unique.
    private var byBarcode: [String: Int] = [:]
    private var archived: [Bool] = []
    /// Per product, which bytes its search text holds (``bit(_:)``): a word can only be in a text holding all of its.
    private var masks: [UInt64] = []
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
        index.skuStarts.reserveCapacity(count + 1)
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
            for offset in start..<max(start, index.keys.count - 1) {
                // (One look-up of the piece's list each, changed in place.)
                index.pairs[Self.pair(index.keys[offset], index.keys[offset + 1])].appendOnce(position)
                guard offset + 2 < index.keys.count else { continue }
                index.postings[Self.piece(index.keys[offset], index.keys[offset + 1], index.keys[offset + 2]), default: []]
                    .appendOnce(position)
            }
            if let barcode: String = row[3] { index.byBarcode[barcode] = index.ids.count }
            index.ids.append(row[0])
            index.skus.append(contentsOf: (sku ?? "").utf8.lazy.map(Self.lower))
            index.skuStarts.append(index.skus.count)
            index.archived.append(row[4])
            index.masks.append(Self.mask(index.keys[start...]))
            index.categories.append(row[5])
        }
        return index
    }

    /// The ids of one page of the products matching `search` (split into `words`), best first, and how many match.
    ///
    /// One pass over the candidates (every product, or those holding the rarest piece of a word, and those the barcode
    /// finds), in list order. Whether a candidate holds each word is known without reading its text where the index
    /// knows it exactly (``WordTest``); a one-word search, the usual, finds its word and ranks it in one scan of each
    /// text (``wordRank(_:_:)``) while the page can still take products of its rank.
    func search(_ search: String, words: [String], includeArchived: Bool, categoryID: Int64?, offset: Int, limit: Int)
        -> (ids: [Int64], total: Int)
    {
        let folded = words.map { Array(SearchText.key($0).utf8) }
        let whole = Array(SearchText.folded(search).utf8)
        let oneWord = folded.count == 1 && folded[0] == whole
        let searchSKU = search.utf8.map(Self.lower)
        // (Distinct products, in list order: two candidates of one code may name the same product.)
        let barcodeHits = Set(Barcode.lookupCandidates(search).compactMap { self.byBarcode[$0] }).sorted()
        let plan = self.plan(folded)
        let wanted = offset + limit
        // Every byte of every word must be in a text (a word of one letter or digit is in every text whose mask has it).
        let wordsMask = folded.reduce(0) { $0 | Self.mask($1[...]) }
        var ranks: [[Int64]] = [[], [], [], []]
        var total = 0
        // How many products ranks 0, 0 and 1, and 0 to 2 hold (kept here, not counted from `ranks` per candidate).
        var kept0 = 0, kept01 = 0, kept012 = 0
        // Where each word known by its list stands in that list (the candidates come in list order, so it only moves on).
        var cursors = [Int](repeating: 0, count: plan.lists.count)
        // Ranks 1 and 2 put the whole search at the start of the text or of a word of it, so its first two bytes (its only
        // byte) start the text, or follow a space: the products listed for that piece. Any other candidate that holds
        // the words ranks 3, known without looking for the whole search in its text (about a third of the candidates of
        // a search such as "s 1" or "ms f" once walked every text for it).
        let wordStarts: [Int32] = switch whole.count {
        case 0: []
        case 1: self.pairs[Self.pair(UInt8(ascii: " "), whole[0])]
        default: self.postings[Self.piece(UInt8(ascii: " "), whole[0], whole[1])] ?? []
        }
        var wordStartCursor = 0
        let listed = plan.candidates ?? []
        self.keys.withUnsafeBufferPointer { keys in
            self.skus.withUnsafeBufferPointer { skus in
                whole.withUnsafeBufferPointer { whole in
                    let candidates = plan.candidates == nil ? self.ids.count : listed.count
                    let everyProduct = plan.candidates == nil
                    var next = 0, nextHit = 0
                    candidates: while true {
                        // The next candidate in list order, from the list or from the barcode's products.
                        let fromList = next < candidates ? (everyProduct ? next : Int(listed[next])) : Int.max
                        let hit = nextHit < barcodeHits.count ? barcodeHits[nextHit] : Int.max
                        let product = min(fromList, hit)
                        if product == Int.max { break }
                        if fromList == product { next += 1 }
                        // The exact barcode finds its product whatever else the list asks, archived too (as the SQL's OR).
                        let byBarcode = hit == product
                        if byBarcode { nextHit += 1 }
                        if let categoryID, self.categories[product] != categoryID { continue }
                        let rank: Int
                        if byBarcode {
                            rank = 0
                        } else {
                            guard self.masks[product] & wordsMask == wordsMask, includeArchived || !self.archived[product] else { continue }
                            // A word of two or three bytes is in the texts its list names, and only there.
                            for (index, list) in plan.lists.enumerated() {
                                var cursor = cursors[index]
                                while cursor < list.count && Int(list[cursor]) < product { cursor += 1 }
                                cursors[index] = cursor
                                guard cursor < list.count && Int(list[cursor]) == product else { continue candidates }
                            }
                            let key = UnsafeBufferPointer(rebasing: keys[self.keyStarts[product]..<self.keyStarts[product + 1]])
                            // A rank matters only while the page can still take products of it: once ranks 0 to 2 hold
                            // a page, a product of rank 2 or 3 is only counted, and once ranks 0 and 1 do, one of rank 1.
                            let rankStart = kept01 < wanted, rankWord = kept012 < wanted
                            let textRank: Int?
                            while wordStartCursor < wordStarts.count && Int(wordStarts[wordStartCursor]) < product { wordStartCursor += 1 }
                            // (An empty search starts every text.)
                            let mayStartAWord = Self.starts(key, with: UnsafeBufferPointer(rebasing: whole.prefix(2)))
                                || (wordStartCursor < wordStarts.count && Int(wordStarts[wordStartCursor]) == product)
                            if mayStartAWord && oneWord && rankWord {
                                textRank = Self.wordRank(key, whole)
                            } else if plan.read.allSatisfy({ Self.contains(key, folded[$0]) }) {
                                if !mayStartAWord {
                                    textRank = 3
                                } else if rankWord {
                                    textRank = Self.wordRank(key, whole) ?? 3
                                } else {
                                    textRank = rankStart && Self.starts(key, with: whole) ? 1 : 3
                                }
                            } else {
                                textRank = nil
                            }
                            guard let textRank else { continue }
                            if kept0 < wanted {
                                let sku = UnsafeBufferPointer(rebasing: skus[self.skuStarts[product]..<self.skuStarts[product + 1]])
                                rank = sku.count == searchSKU.count && sku.elementsEqual(searchSKU) ? 0 : textRank
                            } else {
                                rank = textRank
                            }
                        }
                        total += 1
                        if ranks[rank].count < wanted {
                            ranks[rank].append(self.ids[product])
                            if rank == 0 { kept0 += 1 }
                            if rank <= 1 { kept01 += 1 }
                            if rank <= 2 { kept012 += 1 }
                        }
                    }
                }
            }
        }
        var ordered: [Int64] = []
        ordered.reserveCapacity(min(wanted, total))
        for rank in ranks {
            ordered.append(contentsOf: rank.prefix(wanted - ordered.count))
            if ordered.count >= wanted { break }
        }
        return (Array(ordered.dropFirst(offset).prefix(limit)), total)
    }

    /// How a search's words are tested on a candidate (a text its mask does not rule out).
    struct WordTest {
        /// The products to walk, in list order: the shortest list among the pieces of the words of two bytes or more
        /// (empty when a piece is in no text), or nil for every product (no word has two bytes).
        var candidates: [Int32]?
        /// The lists of the words of two or three bytes (one piece each, so a text holds the word exactly when its
        /// product is listed), but for the candidates' own list: each is checked by its cursor.
        var lists: [[Int32]] = []
        /// The words (their positions) to look for in the text: of four bytes or more, and a lone byte that shares its
        /// mask bit with others (an empty word, or a letter or digit, which the mask answers, is not read).
        var read: [Int] = []
    }

    /// What ``search(_:words:includeArchived:categoryID:offset:limit:)`` reads for these folded words.
    func plan(_ words: [[UInt8]]) -> WordTest {
        var plan = WordTest()
        var exactLists: [[Int32]] = []
        // Which of `exactLists` the candidates are, when they are one.
        var candidatesList: Int?
        func consider(_ list: [Int32], exact: Int?) {
            guard list.count < plan.candidates?.count ?? Int.max else { return }
            plan.candidates = list
            candidatesList = exact
        }
        for (position, word) in words.enumerated() {
            switch word.count {
            case 0: continue
            case 1: if !Self.isExact(word[0]) { plan.read.append(position) }
            case 2: exactLists.append(self.pairs[Self.pair(word[0], word[1])])
            case 3: exactLists.append(self.postings[Self.piece(word[0], word[1], word[2])] ?? [])
            default: plan.read.append(position)
            }
            let exact = word.count == 2 || word.count == 3 ? exactLists.count - 1 : nil
            if word.count == 2 { consider(exactLists[exactLists.count - 1], exact: exact) }
            for offset in 0..<max(0, word.count - 2) {
                consider(self.postings[Self.piece(word[offset], word[offset + 1], word[offset + 2])] ?? [], exact: exact)
            }
        }
        // The candidates' own list is not checked again; the shortest lists first (they rule out the most).
        if let candidatesList { exactLists.remove(at: candidatesList) }
        plan.lists = exactLists.sorted { $0.count < $1.count }
        return plan
    }

    /// Whether `haystack` starts with `prefix` (every text starts with an empty one).
    static func starts(_ haystack: UnsafeBufferPointer<UInt8>, with prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = prefix.baseAddress, !prefix.isEmpty else { return true }
        guard prefix.count <= haystack.count, let base = haystack.baseAddress else { return false }
        return memcmp(base, start, prefix.count) == 0
    }

    /// Where `needle` is in `haystack`, as the ranks count it: nil when nowhere, 1 when `haystack` starts with it, 2 when
    /// it starts a word of it (just after a space), else 3. An empty needle starts every text.
    static func wordRank(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !needle.isEmpty else { return 1 }
        guard var at = Self.occurrence(of: needle, in: haystack, from: 0) else { return nil }
        if at == 0 { return 1 }
        while true {
            if haystack[at - 1] == UInt8(ascii: " ") { return 2 }
            guard let next = Self.occurrence(of: needle, in: haystack, from: at + 1) else { return 3 }
            at = next
        }
    }

    /// The bit of byte `byte` in a text's mask: one of its own for each ASCII letter and digit (``isExact(_:)``), one
    /// shared by several for the other bytes.
    private static func bit(_ byte: UInt8) -> UInt64 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): 1 << UInt64(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): 1 << UInt64(26 + byte - UInt8(ascii: "0"))
        default: 1 << UInt64(36 + byte % 28)
        }
    }

    /// Whether byte `byte` has a bit of its own, so a mask holding that bit holds that byte.
    private static func isExact(_ byte: UInt8) -> Bool {
        Self.bit(byte) < 1 << 36
    }

    /// The bits of every byte of `text`.
    private static func mask(_ text: ArraySlice<UInt8>) -> UInt64 {
        text.reduce(0) { $0 | Self.bit($1) }
    }

    /// A three-byte piece's key in ``postings``.
    private static func piece(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    /// A two-byte piece's place in ``pairs``.
    private static func pair(_ a: UInt8, _ b: UInt8) -> Int {
        Int(a) << 8 | Int(b)
    }

    /// Whether `haystack` contains `needle` (an empty needle is in every text, as `LIKE '%%'` matches everything).
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        needle.withUnsafeBufferPointer { Self.contains(haystack, $0) }
    }

    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        needle.isEmpty || Self.occurrence(of: needle, in: haystack, from: 0) != nil
    }

    /// Where the first `needle` (not empty) at or after `start` in `haystack` begins, or nil when there is none.
    private static func occurrence(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard needle.count <= haystack.count, let base = haystack.baseAddress, let pin = needle.baseAddress else { return nil }
        // memchr finds each place the needle's first byte is, memcmp compares the rest there.
        let last = haystack.count - needle.count
        var start = start
        while start <= last, let hit = memchr(base + start, Int32(pin[0]), last - start + 1) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if needle.count == 1 || memcmp(base + at + 1, pin + 1, needle.count - 1) == 0 { return at }
            start = at + 1
        }
        return nil
    }

    /// SQLite's `NOCASE` folding: ASCII capitals lower-cased, every other byte kept (so equal SKUs are equal bytes).
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

    /// The index when one is kept and younger than ``lifetime``, without a database (nil otherwise: ``index(_:read:)``
    /// then checks or reads it in a read transaction).
    func fresh() -> ProductSearchIndex? {
        self.state.withLock { state in
            guard let index = state.index, !state.refreshing, ContinuousClock.now - state.readAt < self.lifetime else {
                return nil
            }
            return index
        }
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

extension Array where Element == Int32 {
    /// Appends `position` unless it is already the last (a text holding a piece twice is listed once).
    fileprivate mutating func appendOnce(_ position: Int32) {
        if self.last != position { self.append(position) }
    }
}
