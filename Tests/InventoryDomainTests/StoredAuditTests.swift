import Foundation
@testable import InventoryDomain
import Testing

/// An audit row's facts write their own JSON (``SortedJSONWritable``): the bytes `JSONEncoder` writes for the same
/// facts, with every kind of changed value, figures, a related record and the sentence's names, present and absent;
/// and what is written reads back as the same activity.
@Suite struct StoredAuditTests {
    let ada = Agent(userID: UserID(1), username: "ada")

    func agrees(_ facts: StoredAudit.Facts, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try APIJSON.foundationEncode(facts)
        let written = try #require(SortedJSONEncoder.encode(facts), sourceLocation: sourceLocation)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self), sourceLocation: sourceLocation)
    }

    @Test func factsWriteWhatJSONEncoderWrites() throws {
        let values: [StoredAudit.Value?] = [
            nil, StoredAudit.Value(.text("Crème \"fraîche\" / 200 ml")), StoredAudit.Value(.money(Money(minorUnits: -250))),
            StoredAudit.Value(.percent(Percent(hundredths: 700))), StoredAudit.Value(.quantity(Quantity(thousandths: 1_500))),
            StoredAudit.Value(.number(-3)), StoredAudit.Value(.flag(false)), StoredAudit.Value(.hidden("secret")),
        ]
        try self.agrees(StoredAudit.Facts())
        try self.agrees(StoredAudit.Facts(
            figures: ["total": 940, "lines": 2, "costOfGoodsSold": 270, "tax": 60, "items": 3_000],
            changes: values.map { StoredAudit.Change(field: "salePrice", from: $0, to: values.last ?? nil) } + [StoredAudit.Change(field: "name")],
            related: ShopActivity.Record(.sale, 12), subject: "Oat milk", party: "Zoë", reason: "damaged"))
        try self.agrees(StoredAudit.Facts(figures: [:], changes: [], subject: "tab\there"))
    }

    @Test func writtenFactsReadBackAsTheActivity() throws {
        let activity = ShopActivity(
            .productChanged, by: self.ada, at: Instant(milliseconds: 1_700_000_000_000), record: ShopActivity.Record(.product, 7),
            related: ShopActivity.Record(.category, 3), productIDs: [ProductID(7)], subject: "Oat milk",
            figures: ShopActivity.Figures(total: Money(minorUnits: 199)),
            changes: [ShopActivity.Change(.salePrice, from: .money(Money(minorUnits: 189)), to: .money(Money(minorUnits: 199))),
                      ShopActivity.Change(.tracksStock, from: .flag(true), to: .flag(false)),
                      ShopActivity.Change(.taxRate, from: .none, to: .percent(Percent(hundredths: 700))),
                      ShopActivity.Change(.password, from: .hidden("old"), to: .hidden("new"))],
            currency: .eur)
        let stored = try StoredAudit(activity)
        #expect(stored.productIDs == "[7]")
        let read = try #require(StoredAudit.activity(
            at: activity.at, userID: 1, username: "ada", action: activity.kind.rawValue, detail: activity.sentence, recordKind: "product", recordID: 7,
            productIDs: stored.productIDs, facts: stored.facts))
        #expect(read.figures == activity.figures && read.related == activity.related && read.subject == activity.subject)
        #expect(read.changes.map(\.field) == activity.changes.map(\.field))
        #expect(read.changes[0].new == .money(Money(minorUnits: 199)) && read.changes[1].old == .flag(true) && read.changes[2].old == .none)
    }
}
