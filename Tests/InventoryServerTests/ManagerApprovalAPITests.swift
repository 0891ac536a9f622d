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
}
