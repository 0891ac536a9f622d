import Foundation

/// What a reorder suggestion is asked for: how many days of sales to learn the pace from (the window, ending today in
/// the shop's time zone) and how many days of sales the stock should last beyond the supplier's lead time (the cover).
public struct ReorderTerms: Sendable, Hashable {
    /// Days of sales the pace is learnt from, today included.
    public let windowDays: Int
    /// Days of sales to have in stock once the delivery arrives.
    public let coverDays: Int

    /// The windows that may be asked for: a day to a year.
    public static let windowRange: ClosedRange<Int> = 1...366
    /// The covers that may be asked for: none to a year.
    public static let coverRange: ClosedRange<Int> = 0...366

    /// Checks the terms.
    /// - Throws: ``InventoryError`` naming `window` or `cover` when out of range.
    public init(windowDays: Int, coverDays: Int) throws {
        guard Self.windowRange.contains(windowDays) else {
            throw InventoryError(.invalidValue, field: "window",
                                 "must be a whole number of days from \(Self.windowRange.lowerBound) to \(Self.windowRange.upperBound)")
        }
        guard Self.coverRange.contains(coverDays) else {
            throw InventoryError(.invalidValue, field: "cover",
                                 "must be a whole number of days from \(Self.coverRange.lowerBound) to \(Self.coverRange.upperBound)")
        }
        self.windowDays = windowDays
        self.coverDays = coverDays
    }

    /// The window when none is asked for: four weeks.
    public static let defaultWindowDays = 28
    /// The cover when none is asked for: two weeks.
    public static let defaultCoverDays = 14

    /// The terms as typed (a query string, the command line): whole numbers of days, the defaults when left out.
    /// - Throws: ``InventoryError`` naming `window` or `cover` when one is not a whole number in range.
    public static func parse(window: String?, cover: String?) throws -> ReorderTerms {
        func days(_ text: String?, field: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
            guard let text = text?.trimmingCharacters(in: .whitespaces) else { return value }
            guard let number = Int(text) else {
                throw InventoryError(.invalidValue, field: field, "must be a whole number of days from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        return try ReorderTerms(
            windowDays: days(window, field: "window", default: Self.defaultWindowDays, range: Self.windowRange),
            coverDays: days(cover, field: "cover", default: Self.defaultCoverDays, range: Self.coverRange))
    }

    /// The window's first and last day (`yyyymmdd`): `windowDays` shop days ending with the day `now` falls on.
    public func days(endingAt now: Instant, calendar: ShopCalendar) -> (first: Int, last: Int) {
        let today = calendar.dayNumber(now)
        return (calendar.addingDays(-(self.windowDays - 1), to: today), today)
    }

    /// The window as instants: the first day's first millisecond through the last day's last.
    public func interval(endingAt now: Instant, calendar: ShopCalendar) -> ClosedRange<Instant> {
        let (first, last) = self.days(endingAt: now, calendar: calendar)
        return calendar.startOfDay(first)...calendar.endOfDay(last)
    }
}

/// A product's facts a reorder suggestion starts from, as the store reads them.
public struct ReorderCandidate: Sendable, Hashable {
    public var productID: ProductID
    public var name: String
    public var unit: String
    public var sku: String?
    public var supplierCode: String?
    /// The preferred supplier (nil: none, or it was deleted).
    public var supplierID: SupplierID?
    public var packSize: Quantity
    public var tracksStock: Bool
    public var isArchived: Bool
    /// Stock on record now (may be negative).
    public var stock: Quantity
    /// The effective low-stock threshold (``StockStatus/effectiveThreshold(productThreshold:categoryThreshold:shopDefault:)``).
    public var threshold: Quantity
    /// The ledger's average cost of one unit now.
    public var averageCost: UnitCost
    /// Units sold in the window, net of customer returns: sale lines and the ingredients recipes consumed, less what
    /// customers brought back.
    public var sold: Quantity

    /// Creates a candidate.
    public init(productID: ProductID, name: String, unit: String = "pcs", sku: String? = nil, supplierCode: String? = nil,
                supplierID: SupplierID? = nil, packSize: Quantity = Quantity(1), tracksStock: Bool = true, isArchived: Bool = false,
                stock: Quantity, threshold: Quantity = .zero, averageCost: UnitCost = .zero, sold: Quantity) {
        self.productID = productID
        self.name = name
        self.unit = unit
        self.sku = sku
        self.supplierCode = supplierCode
        self.supplierID = supplierID
        self.packSize = packSize
        self.tracksStock = tracksStock
        self.isArchived = isArchived
        self.stock = stock
        self.threshold = threshold
        self.averageCost = averageCost
        self.sold = sold
    }
}

/// A supplier as a reorder needs it.
public struct ReorderSupplier: Sendable, Hashable {
    public var id: SupplierID
    public var name: String
    public var leadTimeDays: Int

    /// Creates one.
    public init(id: SupplierID, name: String, leadTimeDays: Int) {
        self.id = id
        self.name = name
        self.leadTimeDays = leadTimeDays
    }
}

/// What the store answers for a reorder: the products (tracked, not archived) with their sales in the window, and
/// every supplier with its lead time.
public struct ReorderFacts: Sendable, Hashable {
    public var candidates: [ReorderCandidate]
    public var suppliers: [ReorderSupplier]

    /// Creates the facts.
    public init(candidates: [ReorderCandidate], suppliers: [ReorderSupplier]) {
        self.candidates = candidates
        self.suppliers = suppliers
    }

    /// The suggestions these facts lead to (``ReorderRule/suggest(_:suppliers:terms:)``).
    public func suggestions(_ terms: ReorderTerms) -> [ReorderGroup] {
        ReorderRule.suggest(self.candidates, suppliers: self.suppliers, terms: terms)
    }
}

/// One product's suggestion, with the figures behind it.
public struct ReorderLine: Sendable, Hashable {
    public var candidate: ReorderCandidate
    /// Days from ordering to delivery (the supplier's; 0 without one).
    public var leadTimeDays: Int
    /// Units sold a day over the window (net sold ÷ window days, to the thousandth; shown, not reused).
    public var velocity: Quantity
    /// Units that will sell over lead time + cover: net sold × (lead + cover) ÷ window, rounded up to the thousandth.
    public var need: Quantity
    /// What stock should be once the delivery arrives: the need, at least the low-stock threshold.
    public var target: Quantity
    /// Whole packs to buy.
    public var packs: Int64
    /// Units to buy: packs × pack size.
    public var quantity: Quantity
    /// What the quantity costs at today's average cost, rounded once to the minor unit.
    public var cost: Money
}

/// The suggestions of one supplier (or of the products without a preferred supplier).
public struct ReorderGroup: Sendable, Hashable {
    /// nil: products with no preferred supplier.
    public var supplier: ReorderSupplier?
    public var lines: [ReorderLine]
    /// The lines' costs added up.
    public var cost: Money { self.lines.reduce(.zero) { $0 + $1.cost } }
}

/// What to buy, per supplier, so that stock lasts through the supplier's lead time and the chosen cover.
///
/// For each product that tracks stock and is not archived:
/// - **velocity** = units sold in the window (net of customer returns, never below zero) ÷ window days;
/// - **need** = velocity × (lead time + cover), computed as sold × (lead + cover) ÷ window in one division (so
///   velocity's rounding is not multiplied), rounded up to the thousandth of a unit;
/// - **target** = the larger of need and the product's effective low-stock threshold (the floor);
/// - **shortfall** = target − stock on record (negative stock makes it larger);
/// - when the shortfall is above zero, it is rounded **up** to whole packs: packs = ⌈shortfall ÷ pack size⌉,
///   quantity = packs × pack size; otherwise nothing is suggested.
/// All in exact fixed point (``Quantity`` thousandths, 128-bit intermediates).
public enum ReorderRule {
    /// One product's suggestion, nil when it needs none (or does not track stock, or is archived).
    public static func line(for candidate: ReorderCandidate, leadTimeDays: Int, terms: ReorderTerms) -> ReorderLine? {
        guard candidate.tracksStock, !candidate.isArchived, candidate.packSize > .zero else { return nil }
        let sold = Int128(max(candidate.sold.thousandths, 0))
        let window = Int128(terms.windowDays)
        let velocity = Quantity(thousandths: FixedPoint.clamp(FixedPoint.divideRounded(sold, window)))
        let days = Int128(max(leadTimeDays, 0) + terms.coverDays)
        let need = Quantity(thousandths: FixedPoint.clamp(Self.divideRoundingUp(sold * days, window)))
        let target = max(need, candidate.threshold)
        let shortfall = Int128(target.thousandths) - Int128(candidate.stock.thousandths)
        guard shortfall > 0 else { return nil }
        let pack = Int128(candidate.packSize.thousandths)
        let packs = Self.divideRoundingUp(shortfall, pack)
        let quantity = Quantity(thousandths: FixedPoint.clamp(packs * pack))
        return ReorderLine(candidate: candidate, leadTimeDays: leadTimeDays, velocity: velocity, need: need, target: target,
                           packs: Int64(clamping: packs), quantity: quantity, cost: candidate.averageCost.value(of: quantity))
    }

    /// The suggestions grouped per supplier: suppliers by name, then the products without one; products by name in
    /// each. Groups with nothing to buy are left out. A product whose supplier is not in `suppliers` counts as having none.
    public static func suggest(_ candidates: [ReorderCandidate], suppliers: [ReorderSupplier], terms: ReorderTerms) -> [ReorderGroup] {
        let known = Dictionary(suppliers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var bySupplier: [SupplierID?: [ReorderLine]] = [:]
        for candidate in candidates {
            let supplier = candidate.supplierID.flatMap { known[$0] }
            guard let line = Self.line(for: candidate, leadTimeDays: supplier?.leadTimeDays ?? 0, terms: terms) else { continue }
            bySupplier[supplier?.id, default: []].append(line)
        }
        func byName(_ a: ReorderLine, _ b: ReorderLine) -> Bool {
            let order = a.candidate.name.localizedCaseInsensitiveCompare(b.candidate.name)
            return order == .orderedSame ? a.candidate.productID.rawValue < b.candidate.productID.rawValue : order == .orderedAscending
        }
        var groups = suppliers
            .sorted {
                let order = $0.name.localizedCaseInsensitiveCompare($1.name)
                return order == .orderedSame ? $0.id.rawValue < $1.id.rawValue : order == .orderedAscending
            }
            .compactMap { supplier in bySupplier[supplier.id].map { ReorderGroup(supplier: supplier, lines: $0.sorted(by: byName)) } }
        if let unassigned = bySupplier[nil] { groups.append(ReorderGroup(supplier: nil, lines: unassigned.sorted(by: byName))) }
        return groups
    }

    /// ⌈numerator ÷ denominator⌉ for a positive denominator.
    static func divideRoundingUp(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        let quotient = numerator / denominator
        return numerator % denominator > 0 ? quotient + 1 : quotient
    }
}
