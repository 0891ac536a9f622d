import Foundation

/// The one place that words an activity: `ada sold 3 items for €9.40 (sale #12)`, `ada received 24 × Flat white
/// beans from Roastery Nord for €66.00 (purchase #4)`, `ada changed the sale price of Flat white from €2.90 to €3.10`.
struct ActivitySentence {
    var kind: ShopActivity.Kind
    var agent: Agent
    var record: ShopActivity.Record?
    var related: ShopActivity.Record?
    var subject: String?
    var party: String?
    var reason: AdjustmentReason?
    var figures: ShopActivity.Figures
    var changes: [ShopActivity.Change]
    var currency: Currency

    var text: String {
        let who = self.agent.username
        let ref = self.record.map { " (\($0.label))" } ?? ""
        let number = self.record.map(\.label) ?? "?"
        let name = self.subject ?? "?"
        let total = self.money(self.figures.total)
        switch self.kind {
        case .saleRecorded:
            return "\(who) sold \(self.goods)\(self.to) for \(total)\(ref)"
        case .saleChanged:
            return "\(who) changed \(number): now \(self.goods)\(self.to) for \(total)"
        case .saleDeleted:
            return "\(who) deleted \(number) (\(self.goods)\(self.to) for \(total))"
        case .purchaseRecorded:
            return "\(who) received \(self.goods)\(self.from) for \(total)\(ref)"
        case .purchaseChanged:
            return "\(who) changed \(number): now \(self.goods)\(self.from) for \(total)"
        case .purchaseDeleted:
            return "\(who) deleted \(number) (\(self.goods)\(self.from) for \(total))"
        case .salesImported, .purchasesImported:
            let count = self.figures.count ?? 0
            let noun = self.kind == .salesImported ? "sale" : "purchase"
            return "\(who) imported \(self.counted(count, noun)) for \(total)"
        case .adjustmentRecorded where (self.figures.lines ?? 1) > 1:
            // A stocktake's adjustment: one line per product whose count differed.
            return "\(who) adjusted the stock of \(self.figures.lines ?? 0) products\(self.because)\(ref)"
        case .adjustmentRecorded:
            return "\(who) adjusted the stock of \(name) by \(self.signed(self.figures.quantityChange))\(self.because)\(ref)"
        case .adjustmentDeleted where (self.figures.lines ?? 1) > 1:
            return "\(who) deleted \(number) (\(self.figures.lines ?? 0) products\(self.because))"
        case .adjustmentDeleted:
            return "\(who) deleted \(number) (\(name) \(self.signed(self.figures.quantityChange))\(self.because))"
        case .customerReturnRecorded:
            return "\(who) took back \(self.goods)\(self.againstSale), refunding \(total)\(ref)"
        case .customerReturnDeleted:
            return "\(who) deleted \(number) (\(self.goods)\(self.againstSale), \(total) refunded)"
        case .supplierReturnRecorded:
            return "\(who) sent \(self.goods) back\(self.to) worth \(total)\(ref)"
        case .supplierReturnDeleted:
            return "\(who) deleted \(number) (\(self.goods) sent back\(self.to) worth \(total))"
        case .productCreated:
            return "\(who) added the product \(name)\(self.figures.price.map { " at \(self.money($0))" } ?? "")"
        case .productDeleted:
            return "\(who) deleted the product \(name)"
        case .productsImported:
            return "\(who) imported products: \(self.figures.created ?? 0) added, \(self.figures.updated ?? 0) updated"
        case .categoryCreated, .supplierCreated, .customerCreated:
            return "\(who) added the \(self.record?.kind.label ?? "record") \(name)"
        case .categoryDeleted, .supplierDeleted, .customerDeleted:
            return "\(who) deleted the \(self.record?.kind.label ?? "record") \(name)"
        case .productChanged:
            return self.changed(of: name, whole: name)
        case .categoryChanged, .supplierChanged, .customerChanged:
            let whole = "the \(self.record?.kind.label ?? "record") \(name)"
            return self.changed(of: whole, whole: whole)
        case .settingsChanged:
            return self.changed(of: nil, whole: "the settings")
        case .userChanged:
            return self.changed(of: name, whole: name)
        case .backupRestored:
            return "\(who) restored a backup"
        case .firstAdminCreated:
            return "\(who) set up the shop as its first admin"
        case .userCreated:
            let role = self.changes.first { $0.field == .role }.map { " as \(self.shown($0.new))" } ?? ""
            return "\(who) added the account \(name)\(role)"
        case .tokenCreated:
            return "\(who) created \(number) '\(name)'\(self.party.map { " for \($0)" } ?? "")"
        case .tokenRevoked:
            return "\(who) revoked \(number) '\(name)'\(self.party.map { " of \($0)" } ?? "")"
        case .tillUnlocked:
            return self.party.map { "\(who) took over the till from \($0)" } ?? "\(who) unlocked the till"
        case .sessionsEnded:
            let count = self.figures.count ?? 0
            return "\(who) ended \(self.counted(count, "session or token", plural: "sessions and tokens")) of \(name) after a new password or PIN"
        case .clockedIn:
            return "\(who) clocked in"
        case .clockedOut:
            return "\(who) clocked out"
        case .stockWentLow:
            let stock = (self.figures.stock ?? .zero)
            let threshold = (self.figures.threshold ?? .zero).decimalString
            if stock.thousandths <= 0 { return "\(name) ran out: \(stock.decimalString) left, threshold \(threshold)" }
            return "\(name) went low: \(stock.decimalString) left, threshold \(threshold)"
        case .drawerClosed:
            let difference = self.figures.difference ?? .zero
            let verdict = difference == .zero ? "no difference"
                : difference < .zero ? "\(self.money(-difference)) short" : "\(self.money(difference)) over"
            return "\(who) closed the drawer\(ref): counted \(total), expected \(self.money(self.figures.expected)), \(verdict)"
        case .lotsExpiring:
            let count = self.figures.count ?? 0
            let days = ShopAlert.expiryWindowDays
            return "\(self.counted(count, "lot")) \(count == 1 ? "expires" : "expire") within \(days) days\(self.subject.map { ": \($0)" } ?? "")"
        case .restoreRefused:
            return "\(who)'s restore was refused: \(self.subject ?? "not a backup")"
        case .backupFailed:
            return "A backup failed: \(self.subject ?? "no reason was given")"
        }
    }

    // MARK: - Pieces

    /// `3 × Flat white` for one line, else `5 items`.
    var goods: String {
        let items = self.figures.items ?? .zero
        if self.figures.lines == 1, let subject { return "\(items.decimalString) × \(subject)" }
        return "\(items.decimalString) \(items == Quantity(1) ? "item" : "items")"
    }

    var to: String { self.party.map { " to \($0)" } ?? "" }
    var from: String { self.party.map { " from \($0)" } ?? "" }
    var againstSale: String { self.related.map { " from \($0.label)" } ?? "" }

    var because: String {
        guard let reason else { return "" }
        switch reason {
        case .initial: return " as opening stock"
        case .count: return " after a count"
        case .damage: return " for damage"
        case .expired: return " for expiry"
        case .return: return " for a return"
        case .correction: return " as a correction"
        case .transfer: return " for a transfer"
        }
    }

    func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    func money(_ money: Money?) -> String { (money ?? .zero).formatted(self.currency) }

    func signed(_ quantity: Quantity?) -> String {
        let quantity = quantity ?? .zero
        return quantity.thousandths > 0 ? "+\(quantity.decimalString)" : quantity.decimalString
    }

    func shown(_ value: ShopActivity.Change.Value) -> String {
        switch value {
        case .none: "nothing"
        case .text(let text): text
        case .money(let money): money.formatted(self.currency)
        case .percent(let percent): "\(percent.decimalString)%"
        case .quantity(let quantity): quantity.decimalString
        case .number(let number): String(number)
        case .flag(let flag): flag ? "on" : "off"
        case .hidden: "a hidden value"
        }
    }

    /// An edit: one change as a whole sentence (`ada changed the sale price of Flat white from €2.90 to €3.10`),
    /// several as a list (`ada changed Flat white: sale price €2.90 → €3.10, barcode cleared`).
    /// - Parameters:
    ///   - of: the thing in a one-change sentence (`the sale price of …`); nil for the shop's settings.
    ///   - whole: the thing in a list sentence.
    func changed(of thing: String?, whole: String) -> String {
        let who = self.agent.username
        guard self.changes.count == 1, let change = self.changes.first else {
            guard !self.changes.isEmpty else { return "\(who) saved \(whole) without changes" }
            return "\(who) changed \(whole): \(self.changes.map(self.part).joined(separator: ", "))"
        }
        let label = change.field.label
        let of = thing.map { " of \($0)" } ?? ""
        let `for` = thing.map { " for \($0)" } ?? ""
        switch (change.field, change.old, change.new) {
        case (.archived, _, .flag(let on)):
            return "\(who) \(on ? "archived" : "restored") \(thing ?? whole)"
        case (.active, _, .flag(let on)):
            return "\(who) \(on ? "reactivated" : "deactivated") \(thing ?? whole)"
        case (.picture, .none, _):
            return "\(who) added a picture\(thing.map { " to \($0)" } ?? "")"
        case (.picture, _, .none):
            return "\(who) removed the picture\(of)"
        case (.picture, _, _):
            return "\(who) replaced the picture\(of)"
        case (.password, _, _), (.pin, _, .hidden):
            return "\(who) set a new \(label)\(`for`)"
        case (.pin, _, _):
            return "\(who) removed the \(label)\(of)"
        case (_, _, .flag(let on)):
            return "\(who) turned \(label) \(on ? "on" : "off")\(`for`)"
        case (_, .none, let new):
            return "\(who) set the \(label)\(of) to \(self.shown(new))"
        case (_, _, .none):
            return "\(who) cleared the \(label)\(of)"
        case (_, let old, let new):
            return "\(who) changed the \(label)\(of) from \(self.shown(old)) to \(self.shown(new))"
        }
    }

    /// One change in a list: `sale price €2.90 → €3.10`, `barcode cleared`, `archived`.
    func part(_ change: ShopActivity.Change) -> String {
        let label = change.field.label
        switch (change.field, change.old, change.new) {
        case (.archived, _, .flag(let on)): return on ? "archived" : "restored"
        case (.active, _, .flag(let on)): return on ? "reactivated" : "deactivated"
        case (.picture, .none, _): return "picture added"
        case (.picture, _, .none): return "picture removed"
        case (.picture, _, _): return "picture replaced"
        case (.password, _, _), (.pin, _, .hidden): return "new \(label)"
        case (.pin, _, _): return "\(label) removed"
        case (_, _, .flag(let on)): return "\(label) \(on ? "on" : "off")"
        case (_, .none, let new): return "\(label) set to \(self.shown(new))"
        case (_, _, .none): return "\(label) cleared"
        case (_, let old, let new): return "\(label) \(self.shown(old)) → \(self.shown(new))"
        }
    }
}

extension Money {
    /// The amount as a person reads it in the shop's currency: the symbol where English writes one (`€9.40`,
    /// `$1,250.00`, `¥300`), else the code (`CHF 9.40`); thousands grouped, the currency's decimals, a leading minus.
    public func formatted(_ currency: Currency) -> String {
        let digits = FixedPoint.format(self.minorUnits.magnitude <= UInt64(Int64.max) ? abs(self.minorUnits) : Int64.max,
                                       scale: currency.minorUnits)
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var whole = String(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole = String(whole.dropLast(3))
        }
        grouped = whole + grouped
        let number = parts.count > 1 ? "\(grouped).\(parts[1])" : grouped
        let sign = self.minorUnits < 0 ? "-" : ""
        if let symbol = Self.symbols[currency.code] { return "\(sign)\(symbol)\(number)" }
        return "\(sign)\(currency.code) \(number)"
    }

    /// Symbols as English writes them (the web app's `Intl.NumberFormat("en")` agrees).
    static let symbols: [String: String] = [
        "EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩", "ILS": "₪", "VND": "₫", "NGN": "₦", "PHP": "₱",
        "CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "HKD": "HK$", "MXN": "MX$", "BRL": "R$", "TWD": "NT$", "CNY": "CN¥",
    ]
}
