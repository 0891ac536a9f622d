import Foundation

/// A customer as the till greets them: their loyalty card, how often they came and what they spent, and the
/// milestones their visits reached.
public struct CustomerStanding: Sendable, Hashable {
    public var customerID: CustomerID
    public var name: String
    public var cardNumber: String?
    /// Sales to the customer.
    public var visits: Int
    /// What they paid across those sales (totals with tax and tips) less what returns gave back.
    public var spend: Money
    /// Milliseconds since 1970 of their latest sale.
    public var lastVisit: Int64?

    /// Creates a value.
    public init(customerID: CustomerID, name: String, cardNumber: String? = nil, visits: Int = 0, spend: Money = .zero, lastVisit: Int64? = nil) {
        self.customerID = customerID
        self.name = name
        self.cardNumber = cardNumber
        self.visits = visits
        self.spend = spend
        self.lastVisit = lastVisit
    }

    /// The visit counts a café celebrates.
    public static let visitMilestones = [5, 10, 25, 50, 100, 250, 500, 1000]

    /// The milestones reached so far, lowest first.
    public var milestonesReached: [Int] { Self.visitMilestones.filter { $0 <= self.visits } }
    /// The next milestone, if any is left.
    public var nextMilestone: Int? { Self.visitMilestones.first { $0 > self.visits } }
    /// The milestone a sale that is the customer's `visit`-th reaches, if it is one.
    public static func milestone(atVisit visit: Int) -> Int? { self.visitMilestones.contains(visit) ? visit : nil }

    /// A loyalty card's number as printed or encoded (a barcode or QR): trimmed, 4 to 64 characters, letters, digits and
    /// `-` only, so a scan finds it exactly.
    /// - Throws: ``InventoryError`` on `cardNumber`.
    public static func checkCardNumber(_ text: String) throws -> String {
        let number = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (4...64).contains(number.count) else { throw InventoryError(.invalidValue, field: "cardNumber", "must be 4 to 64 characters") }
        guard number.unicodeScalars.allSatisfy({ ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" }) else {
            throw InventoryError(.invalidValue, field: "cardNumber", "may contain only letters, digits and -")
        }
        return number
    }
}
