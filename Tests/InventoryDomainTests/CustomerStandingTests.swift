import InventoryDomain
import Testing

/// A customer's standing at the till (issue 12, point 7): card numbers as scanned, visit milestones.
@Suite struct CustomerStandingTests {
    @Test func cardNumbersAreCheckedAsScanned() throws {
        #expect(try CustomerStanding.checkCardNumber("  LC-0042\n") == "LC-0042")
        #expect(try CustomerStanding.checkCardNumber("04A224B2C31F80") == "04A224B2C31F80")
        for bad in ["", "123", String(repeating: "9", count: 65), "LC 0042", "LC_0042", "ÄÖÜ-1234", "12\u{0}34"] {
            #expect(throws: InventoryError(.invalidValue, field: "cardNumber", ""), "\(bad)") { try CustomerStanding.checkCardNumber(bad) }
        }
    }

    @Test func visitMilestones() {
        var standing = CustomerStanding(customerID: CustomerID(1), name: "Ana", visits: 0)
        #expect(standing.milestonesReached.isEmpty && standing.nextMilestone == 5)
        standing.visits = 27
        #expect(standing.milestonesReached == [5, 10, 25] && standing.nextMilestone == 50)
        standing.visits = 5000
        #expect(standing.nextMilestone == nil && standing.milestonesReached.count == CustomerStanding.visitMilestones.count)
        #expect((1...30).compactMap(CustomerStanding.milestone(atVisit:)) == [5, 10, 25])
    }
}
