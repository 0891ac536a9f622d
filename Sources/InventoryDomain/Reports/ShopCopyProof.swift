import Foundation

/// The proof that a whole-shop copy (`stockroom migrate`, a backup restored on another backend) holds the same shop:
/// every report read through the protocols on both sides and compared value for value — the catalogue, the accounts,
/// every movement, the stock snapshot and valuation at several instants, the daily figures and taxes over the whole
/// history, the top 10 by each metric, low stock, expiring lots and reorder facts.
public enum ShopCopyProof {
    /// What ``compare(_:_:now:)`` found.
    public struct Outcome: Sendable, Hashable {
        /// The names of the reports compared, in order.
        public var compared: [String] = []
        /// One line per report that differs, naming it (empty when the copy is proven).
        public var differences: [String] = []
        /// Products, archived ones included (on the source).
        public var products = 0
        /// Documents with lines in the books (on the source).
        public var documents = 0
        /// Staff accounts (on the source).
        public var users = 0

        /// Whether every report is equal on both sides.
        public var proven: Bool { self.differences.isEmpty }
    }

    /// The shop read through a backend's protocols.
    public typealias Shop = InventoryRepository & StaffRepository

    /// Reads every report from `source` and `target` and lists where they differ.
    /// - Parameter now: the last instant compared (the snapshot "today", the end of the ranges).
    public static func compare(_ source: some Shop, _ target: some Shop, now: Instant = .now) async throws -> Outcome {
        var outcome = Outcome()
        func check<T: Equatable>(_ name: String, _ read: (any Shop) async throws -> T) async throws {
            outcome.compared.append(name)
            let original = try await read(source)
            let copy = try await read(target)
            if original != copy { outcome.differences.append("\(name): \(Self.difference(original, copy))") }
        }

        try await check("settings") { try await $0.settings() }
        let movements = try await source.allMovements()
        let calendar = try await source.settings().calendar
        let first = movements.map(\.position.effectiveAt).min().map(Instant.init(milliseconds:)) ?? now
        let last = movements.map(\.position.effectiveAt).max().map(Instant.init(milliseconds:)) ?? now
        let end = max(now, last)
        let (firstDay, lastDay) = (calendar.dayNumber(first), calendar.dayNumber(end))

        try await check("categories") { try await $0.categories() }
        try await check("suppliers") { try await $0.suppliers(search: nil) }
        try await check("customers") { try await $0.customers(search: nil) }
        try await check("products") { try await Self.allProducts($0) }
        try await check("shelves") { try await $0.shelves() }
        try await check("staff accounts") { try await $0.users() }
        try await check("movements") { try await $0.allMovements() }
        try await check("sale facts") { try await $0.saleFacts() }
        // The first movement, the middle of the history, the last movement, the end of its day, and now.
        let middle = Instant(milliseconds: first.milliseconds / 2 + last.milliseconds / 2)
        for (label, instant) in [("first movement", first), ("middle", middle), ("last movement", last),
                                 ("end of the last day", calendar.endOfDay(calendar.dayNumber(last))), ("now", end)] {
            try await check("snapshot at \(label) (\(instant.iso8601))") { try await $0.snapshot(at: instant) }
        }
        try await check("daily \(firstDay)–\(lastDay)") { try await $0.daily(from: firstDay, to: lastDay) }
        try await check("taxes \(firstDay)–\(lastDay)") { try await $0.taxes(from: firstDay, to: lastDay) }
        for metric in TopProductMetric.allCases {
            try await check("top 10 by \(metric.rawValue)") { try await $0.topProducts(from: first, to: end, by: metric, limit: 10) }
        }
        try await check("valuation") { try await $0.valuation() }
        try await check("low stock") { try await $0.lowStock() }
        try await check("expiring lots") { try await $0.expiringLots(through: "9999-12-31") }
        try await check("reorder facts") { try await $0.reorderFacts(soldWithin: first...end) }

        outcome.products = try await source.products(ProductQuery(includeArchived: true, limit: 1)).total
        outcome.documents = Set(movements.map(\.documentID)).count
        outcome.users = try await source.userCount()
        return outcome
    }

    /// Every product, archived ones included, in id order (read a page at a time).
    static func allProducts(_ shop: any Shop) async throws -> [Product] {
        var products: [Product] = []
        while true {
            let page = try await shop.products(ProductQuery(includeArchived: true, limit: ProductQuery.maximumLimit, offset: products.count))
            products += page.products
            if page.products.isEmpty || products.count >= page.total { break }
        }
        return products.sorted { $0.id.rawValue < $1.id.rawValue }
    }

    /// Where two values differ, briefly: for lists, their lengths and the first entry that differs.
    static func difference<T: Equatable>(_ original: T, _ copy: T) -> String {
        guard let a = original as? any Collection, let b = copy as? any Collection else {
            return "\(Self.brief(original)) on the source, \(Self.brief(copy)) in the copy"
        }
        let (left, right) = (Array(a.map { "\($0)" }), Array(b.map { "\($0)" }))
        let index = (0..<min(left.count, right.count)).first { left[$0] != right[$0] } ?? min(left.count, right.count)
        var text = "\(left.count) entries on the source, \(right.count) in the copy"
        if index < max(left.count, right.count) {
            text += "; entry \(index + 1): \(left.indices.contains(index) ? Self.brief(left[index]) : "none") on the source, "
                + "\(right.indices.contains(index) ? Self.brief(right[index]) : "none") in the copy"
        }
        return text
    }

    static func brief(_ value: Any) -> String {
        let text = "\(value)"
        return text.count > 300 ? text.prefix(300) + "…" : text
    }
}
