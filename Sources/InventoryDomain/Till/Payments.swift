import Foundation

/// Marker for payment ids.
public enum Payment: Sendable {}
public typealias PaymentID = ID<Payment>

/// Where a payment stands, as a POS's payment model keeps it. A payment is taken as pending, completed or failed; it
/// becomes refunded or partly refunded as customer returns give money back to it.
public enum PaymentStatus: String, Sendable, Codable, CaseIterable {
    /// Started but not settled (a card terminal that has not answered): counts towards the sale, cannot be refunded.
    case pending
    case completed
    /// Declined or abandoned: kept for the record, counts for nothing.
    case failed
    case refunded
    case partlyRefunded

    /// The statuses a payment may be taken with; refunded ones come only from returns.
    public static let takenStatuses: [PaymentStatus] = [.pending, .completed, .failed]
}

/// Most payments one sale may have.
public let maximumSalePayments = 20

/// One payment towards a sale as the till asks for it: part cash, part card, or all of either.
public struct PaymentDraft: Sendable, Hashable {
    public var method: PaymentMethod
    /// What this payment pays of the sale (a cash payment's change is not in it). Ignored while ``takesTheRest``:
    /// ``PricedSale/checkedPayments(currency:)`` sets it.
    public var amount: Money
    /// Whether this payment pays whatever the sale's total leaves after the other payments that count ("the rest" at
    /// the till): the domain works the amount out, so a client never subtracts money itself. At most one per sale.
    public var takesTheRest: Bool
    /// Cash handed over for this payment (cash only); the change is what exceeds ``amount``.
    public var tendered: Money?
    public var status: PaymentStatus
    /// A reference from outside: a card terminal's approval code, a voucher number.
    public var reference: String

    /// Creates a payment draft.
    public init(method: PaymentMethod, amount: Money, tendered: Money? = nil, status: PaymentStatus = .completed, reference: String = "") {
        self.method = method
        self.amount = amount
        self.takesTheRest = false
        self.tendered = tendered
        self.status = status
        self.reference = reference
    }

    /// A payment of whatever the total leaves after the other payments (``takesTheRest``).
    public static func rest(method: PaymentMethod, tendered: Money? = nil, status: PaymentStatus = .completed,
                            reference: String = "") -> PaymentDraft {
        var payment = PaymentDraft(method: method, amount: .zero, tendered: tendered, status: status, reference: reference)
        payment.takesTheRest = true
        return payment
    }

    /// Whether the payment pays part of the sale: pending and completed ones do, failed ones do not.
    public var counts: Bool { self.status != .failed }

    /// The payment as it was just booked under `id` (its amount worked out, ``PricedSale/checkedPayments(currency:)``):
    /// nothing refunded yet, for no return can be booked against a sale in the transaction that books it. A store
    /// answers a sale it just wrote with these rather than reading its payments back.
    public func booked(as id: PaymentID) -> PaymentRecord {
        PaymentRecord(id: id, method: self.method, amount: self.amount, tendered: self.tendered, takenStatus: self.status,
                      reference: self.reference, refunded: .zero)
    }
}

/// A payment as booked on a sale, with what returns have given back of it.
public struct PaymentRecord: Sendable, Hashable, Identifiable {
    public var id: PaymentID
    public var method: PaymentMethod
    public var amount: Money
    public var tendered: Money?
    /// The status it was taken with, or settled to (pending, completed or failed).
    public var takenStatus: PaymentStatus
    public var reference: String
    /// What customer returns have refunded to this payment so far.
    public var refunded: Money

    /// Creates a value.
    public init(id: PaymentID, method: PaymentMethod, amount: Money, tendered: Money? = nil, takenStatus: PaymentStatus = .completed,
                reference: String = "", refunded: Money = .zero) {
        self.id = id
        self.method = method
        self.amount = amount
        self.tendered = tendered
        self.takenStatus = takenStatus
        self.reference = reference
        self.refunded = refunded
    }

    /// The status: a completed payment is refunded when returns gave all of it back, partly refunded when some.
    public var status: PaymentStatus {
        guard self.takenStatus == .completed, self.refunded > .zero else { return self.takenStatus }
        return self.refunded >= self.amount ? .refunded : .partlyRefunded
    }

    /// What may still be refunded to it: what is left of a completed payment; nothing of a pending or failed one.
    public var refundable: Money { self.takenStatus == .completed ? max(self.amount - self.refunded, .zero) : .zero }

    /// Change given back: tendered − amount (nil when no cash amount was recorded).
    public var change: Money? { self.tendered.map { $0 - self.amount } }

    /// Whether the payment pays part of the sale (pending or completed).
    public var counts: Bool { self.takenStatus != .failed }

    /// How it is named in messages: "payment 3 (card)".
    var label: String { "payment \(self.id) (\(self.method.rawValue))" }

    /// Settles a pending payment: to completed, or to failed (then the sale has an amount due).
    /// - Throws: ``InventoryError`` on `status` for any other change.
    public func settled(to status: PaymentStatus) throws -> PaymentRecord {
        guard status == .completed || status == .failed else {
            throw InventoryError(.invalidValue, field: "status", "a payment is settled to completed or failed")
        }
        guard self.takenStatus == .pending else {
            throw InventoryError(.conflict, field: "status", "\(self.label) is \(self.status.rawValue); only a pending payment can be settled")
        }
        var copy = self
        copy.takenStatus = status
        return copy
    }
}

extension PricedSale {
    /// The sale's payments, checked against its total: one payment of the whole total by ``SaleDraft/paymentMethod``
    /// (with ``SaleDraft/cashTendered``) when none are given; else each payment's amount positive and within the
    /// limits, taken as pending, completed or failed, tendered cash only on a cash payment and not less than its amount,
    /// and the amounts of the payments that count (pending and completed) adding up to the total exactly.
    /// - Throws: ``InventoryError`` naming the field, e.g. `payments[1].amount`, or `payments` for the sum.
    public func checkedPayments(currency: Currency) throws -> [PaymentDraft] {
        let total = self.total
        guard !self.draft.payments.isEmpty else {
            if let tendered = self.draft.cashTendered {
                guard self.draft.paymentMethod == .cash else {
                    throw InventoryError(.invalidValue, field: "cashTendered", "only a cash sale has cash tendered")
                }
                try tendered.requireWithinLimit(field: "cashTendered", currency: currency)
                guard tendered >= total else {
                    throw InventoryError(.invalidValue, field: "cashTendered", "is less than the total \(total.decimalString(currency))")
                }
            }
            return [PaymentDraft(method: self.draft.paymentMethod, amount: total, tendered: self.draft.cashTendered)]
        }
        guard self.draft.cashTendered == nil else {
            throw InventoryError(.invalidValue, field: "cashTendered", "give the cash tendered on the cash payment (payments[].tendered)")
        }
        guard self.draft.payments.count <= maximumSalePayments else {
            throw InventoryError(.invalidValue, field: "payments", "a sale may have at most \(maximumSalePayments) payments")
        }
        var payments = self.draft.payments
        // The payment that takes the rest gets its amount first, from the others' (each checked as given).
        let rests = payments.indices.filter { payments[$0].takesTheRest }
        if let rest = rests.first {
            guard rests.count == 1 else {
                throw InventoryError(.invalidValue, field: "payments[\(rests[1])].amount", "only one payment may take the rest of the total")
            }
            guard payments[rest].counts else {
                throw InventoryError(.invalidValue, field: "payments[\(rest)].amount", "a failed payment needs its amount")
            }
            var others = Money.zero
            for index in payments.indices where index != rest && payments[index].counts {
                try Self.checkAmount(payments[index].amount, field: "payments[\(index)].amount", currency: currency)
                others += payments[index].amount
            }
            guard others < total else {
                throw InventoryError(.invalidValue, field: "payments[\(rest)].amount",
                                     "nothing is left to pay: the other payments add up to \(others.decimalString(currency)) of the total \(total.decimalString(currency))")
            }
            payments[rest].amount = total - others
            payments[rest].takesTheRest = false
        }
        var paid = Money.zero
        for index in payments.indices {
            let field = "payments[\(index)]"
            try Self.checkAmount(payments[index].amount, field: "\(field).amount", currency: currency)
            let payment = payments[index]
            guard PaymentStatus.takenStatuses.contains(payment.status) else {
                throw InventoryError(.invalidValue, field: "\(field).status", "a payment is taken as pending, completed or failed")
            }
            if let tendered = payment.tendered {
                guard payment.method == .cash else {
                    throw InventoryError(.invalidValue, field: "\(field).tendered", "only a cash payment has cash tendered")
                }
                try tendered.requireWithinLimit(field: "\(field).tendered", currency: currency)
                guard tendered >= payment.amount else {
                    throw InventoryError(.invalidValue, field: "\(field).tendered", "is less than the payment's amount \(payment.amount.decimalString(currency))")
                }
            }
            payments[index].reference = payment.reference.trimmingCharacters(in: .whitespacesAndNewlines)
            try TextLimit.line.check(payments[index].reference, field: "\(field).reference")
            if payment.counts { paid += payment.amount }
        }
        guard paid == total else {
            let difference = paid < total ? "\((total - paid).decimalString(currency)) is left to pay" : "\((paid - total).decimalString(currency)) too much"
            throw InventoryError(.invalidValue, field: "payments",
                                 "the payments add up to \(paid.decimalString(currency)) but the sale's total is \(total.decimalString(currency)) (\(difference))")
        }
        return payments
    }

    /// A payment's amount: more than zero and within the limits.
    private static func checkAmount(_ amount: Money, field: String, currency: Currency) throws {
        guard amount > .zero else { throw InventoryError(.invalidValue, field: field, "must be more than zero") }
        try amount.requireWithinLimit(field: field, currency: currency)
    }
}

/// Money a customer return gives back to one of its sale's payments.
public struct RefundDraft: Sendable, Hashable {
    public var paymentID: PaymentID
    public var amount: Money

    /// Creates a value.
    public init(paymentID: PaymentID, amount: Money) {
        self.paymentID = paymentID
        self.amount = amount
    }
}

/// How a customer return's money goes back to the payments it came from.
public enum RefundAllocation {
    /// The refunds of `refund` over a sale's `payments`.
    ///
    /// Asked refunds are checked: each to a payment of the sale, positive, no more than is left to refund of that
    /// payment (after earlier returns and the earlier refunds asked), and together exactly `refund`. Without asked
    /// refunds the money goes back to the completed payments from the last one taken to the first, each up to what is
    /// left of it — so a sale paid part cash, then the rest by card, refunds the card first.
    /// - Throws: ``InventoryError`` naming the field, e.g. `refunds[0].amount`; `refunds` for the sum; `lines` when the
    ///   sale's completed payments cannot give back that much (a payment is still pending).
    public static func refunds(of refund: Money, over payments: [PaymentRecord], asked: [RefundDraft]?, currency: Currency) throws -> [RefundDraft] {
        var left = Dictionary(uniqueKeysWithValues: payments.map { ($0.id, $0.refundable) })
        guard let asked else {
            let available = payments.reduce(Money.zero) { $0 + $1.refundable }
            guard refund <= available else {
                throw InventoryError(.invalidValue, field: "lines",
                                     "the refund \(refund.decimalString(currency)) is more than the sale's completed payments can give back (\(available.decimalString(currency)))")
            }
            var remaining = refund
            var refunds: [RefundDraft] = []
            for payment in payments.reversed() where remaining > .zero && payment.refundable > .zero {
                let amount = min(payment.refundable, remaining)
                refunds.append(RefundDraft(paymentID: payment.id, amount: amount))
                remaining -= amount
            }
            return refunds
        }
        guard asked.count <= maximumSalePayments else {
            throw InventoryError(.invalidValue, field: "refunds", "a return may have at most \(maximumSalePayments) refunds")
        }
        var total = Money.zero
        for (index, refund) in asked.enumerated() {
            let field = "refunds[\(index)]"
            guard let payment = payments.first(where: { $0.id == refund.paymentID }) else {
                throw InventoryError(.notFound, field: "\(field).paymentId", "payment \(refund.paymentID) is not a payment of this sale")
            }
            guard !asked[..<index].contains(where: { $0.paymentID == refund.paymentID }) else {
                throw InventoryError(.invalidValue, field: "\(field).paymentId", "payment \(refund.paymentID) is named twice; give it one refund")
            }
            guard refund.amount > .zero else { throw InventoryError(.invalidValue, field: "\(field).amount", "must be more than zero") }
            let available = left[payment.id] ?? .zero
            guard refund.amount <= available else {
                throw InventoryError(.invalidValue, field: "\(field).amount",
                                     "is more than the \(available.decimalString(currency)) left to refund on \(payment.label)")
            }
            left[payment.id] = available - refund.amount
            total += refund.amount
        }
        guard total == refund else {
            throw InventoryError(.invalidValue, field: "refunds",
                                 "the refunds add up to \(total.decimalString(currency)) but the return gives back \(refund.decimalString(currency))")
        }
        return asked
    }
}
