import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// Issue 12, point 5: a discount or price below a product's minimum needs a manager — staff at the till get it with a
/// manager's username and PIN on the sale. A wrong PIN, or a colleague without the right, books nothing; the approver
/// is kept on the sale.
@Suite struct ManagerApprovalAPITests {
    @Test func staffSellBelowTheMinimumOnlyWithAManagersPIN() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let manager = try await newAccount(store, role: .manager, username: "maria")
        _ = try await newAccount(store, role: .staff, username: "sam")
        let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: Money(minorUnits: 290), minimumSalePrice: Money(minorUnits: 224),
                                                                 taxRate: Percent(hundredths: 700), tracksStock: false))
        try await app.test(.router) { raw in
            let till = Caller(client: raw, token: staff)
            let line = #"{"productId":\#(latte.id),"quantity":"1","discountPercent":"50"}"#
            let refused = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","lines":[\#(line)]}"#)
            #expect(refused.status == 422 && refused.object["field"] as? String == "lines[0].discountPercent", "\(refused.text)")

            let wrongPIN = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","approval":{"username":"maria","pin":"9999"},"lines":[\#(line)]}"#)
            #expect(wrongPIN.status == 403 && wrongPIN.object["field"] as? String == "approval.pin", "\(wrongPIN.text)")
            let colleague = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","approval":{"username":"sam","pin":"1234"},"lines":[\#(line)]}"#)
            #expect(colleague.status == 403 && colleague.object["field"] as? String == "approval.username", "\(colleague.text)")
            let malformed = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","approval":{"username":"maria","pin":"12"},"lines":[\#(line)]}"#)
            #expect(malformed.status == 422 && malformed.object["field"] as? String == "approval.pin", "\(malformed.text)")
            #expect(try await store.sales(limit: 10, offset: 0).isEmpty, "nothing is booked after a refusal")

            let preview = try await till.call(.post, "/api/v1/sales?dryRun=true", #"{"paymentMethod":"card","approval":{"username":"maria","pin":"1234"},"lines":[\#(line)]}"#)
            #expect(preview.status == 200 && preview.object["total"] as? String == "1.55", "\(preview.text)")   // 1.45 + 7 %
            let approved = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","approval":{"username":"maria","pin":"1234"},"lines":[\#(line)]}"#)
            #expect(approved.status == 201, "\(approved.text)")
            #expect(approved.object["approvedBy"] as? String == manager.username && approved.object["soldBy"] as? String != manager.username)

            // An approval on a sale that needs none is not recorded.
            let plain = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","approval":{"username":"maria","pin":"1234"},"lines":[{"productId":\#(latte.id),"quantity":"1"}]}"#)
            #expect(plain.status == 201 && plain.object["approvedBy"] as? String == "", "\(plain.text)")
        }
    }

    /// Point 5, second half: selling more than the stock on record needs a manager, asked for with `sellBeyondStock`;
    /// the refusal says a manager may approve it, and the line goes on a review list a manager clears.
    @Test func staffSellBeyondTheStockOnRecordOnlyWithAManagersApprovalAndItIsListedForReview() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let managerToken = try await token(store, role: .manager, username: "manager-token")
        _ = try await newAccount(store, role: .manager, username: "maria")
        let beans = try await store.createProduct(ProductDetails(name: "Beans", salePrice: Money(minorUnits: 900)))
        _ = try await store.postPurchase(PurchaseDraft(effectiveAt: Instant(milliseconds: 1_767_225_600_000),
                                                       lines: [.init(productID: beans.id, quantity: Quantity(2), unitCost: Money(minorUnits: 400))]))
        try await app.test(.router) { raw in
            let till = Caller(client: raw, token: staff)
            let line = #"{"productId":\#(beans.id),"quantity":"3"}"#
            let before = try await store.testOnly_dump()
            let refused = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","lines":[\#(line)]}"#)
            #expect(refused.status == 422 && refused.object["field"] as? String == "lines[0].quantity", "\(refused.text)")
            #expect(refused.object["managerMayApprove"] as? Bool == true, "\(refused.text)")
            // Asking without a manager is refused before anything is tried.
            let unapproved = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","sellBeyondStock":true,"lines":[\#(line)]}"#)
            #expect(unapproved.status == 403 && unapproved.object["field"] as? String == "approval", "\(unapproved.text)")
            // A manager's PIN without sellBeyondStock approves prices only: still refused.
            let pricesOnly = try await till.call(.post, "/api/v1/sales", #"{"paymentMethod":"card","approval":{"username":"maria","pin":"1234"},"lines":[\#(line)]}"#)
            #expect(pricesOnly.status == 422, "\(pricesOnly.text)")
            #expect(try await store.testOnly_dump() == before, "nothing is booked after a refusal")

            let body = #"{"paymentMethod":"card","sellBeyondStock":true,"approval":{"username":"maria","pin":"1234"},"lines":[\#(line)]}"#
            let preview = try await till.call(.post, "/api/v1/sales?dryRun=true", body)
            #expect(preview.status == 200, "\(preview.text)")
            #expect(try await store.testOnly_dump() == before, "a dry run books nothing")
            let sold = try await till.call(.post, "/api/v1/sales", body)
            #expect(sold.status == 201 && sold.object["stockApprovedBy"] as? String == "maria", "\(sold.text)")
            let lines = sold.object["lines"] as? [[String: Any]]
            #expect(lines?.first?["soldBeyondStock"] as? String == "1", "\(sold.text)")
            let saleID = try #require(sold.object["id"] as? Int)
            // Its cost of goods is the manager's to see, not the till's.
            #expect(sold.object["costOfGoodsSold"] == nil, "\(sold.text)")
            let booked = try await raw.call(.get, "/api/v1/sales/\(saleID)", token: managerToken)
            #expect(booked.object["costOfGoodsSold"] as? String == "12.00", "\(booked.text)")

            // The review list: staff may not see it or clear it; a manager does both.
            #expect(try await till.call(.get, "/api/v1/reports/sold-beyond-stock").status == 403)
            #expect(try await till.call(.post, "/api/v1/sales/\(saleID)/stock-review").status == 403)
            let office = Caller(client: raw, token: managerToken)
            let listed = try await office.call(.get, "/api/v1/reports/sold-beyond-stock")
            let rows = listed.array
            #expect(listed.status == 200 && rows.count == 1, "\(listed.text)")
            #expect(rows.first?["shortBy"] as? String == "1" && rows.first?["stockNow"] as? String == "-1" && rows.first?["approvedBy"] as? String == "maria",
                    "\(listed.text)")
            #expect(try await office.call(.get, "/api/v1/reports/sold-beyond-stock?all=maybe").status == 400)
            let reviewed = try await office.call(.post, "/api/v1/sales/\(saleID)/stock-review")
            #expect(reviewed.status == 200 && reviewed.array.first?["reviewedBy"] as? String == "manager-token", "\(reviewed.text)")
            #expect(try await office.call(.get, "/api/v1/reports/sold-beyond-stock").array.isEmpty)
            #expect(try await office.call(.get, "/api/v1/reports/sold-beyond-stock?all=true").array.count == 1)
        }
    }
}
