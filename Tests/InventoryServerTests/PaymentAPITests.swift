import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// Split payments over HTTP (issue 12, point 4): a sale paid part cash, part card; a return previewed with the money
/// per payment, then booked as shown; a pending card payment settled; bad payments refused naming the field, nothing
/// booked.
@Suite struct PaymentAPITests {
    @Test func splitPayRefundToTheMethodsAndSettle() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let manager = try await token(store, role: .manager)
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: Money(minorUnits: 250), tracksStock: false))
        try await app.test(.router) { raw in
            let till = Caller(client: raw, token: staff)
            let line = #"{"productId":\#(tea.id),"quantity":"4"}"#   // 10.00

            let refusals: [(String, Int, String)] = [
                (#"{"lines":[\#(line)],"payments":[{"method":"cash","amount":"4.00"},{"method":"card","amount":"5.00"}]}"#, 422, "payments"),
                (#"{"lines":[\#(line)],"payments":[{"method":"card","amount":"10.00","tendered":"20.00"}]}"#, 422, "payments[0].tendered"),
                (#"{"lines":[\#(line)],"payments":[{"method":"cheque","amount":"10.00"}]}"#, 422, "payments[0].method"),
                (#"{"lines":[\#(line)],"payments":[{"method":"card","amount":"0"},{"method":"cash","amount":"10.00"}]}"#, 422, "payments[0].amount"),
                (#"{"lines":[\#(line)],"payments":[{"method":"card","amount":"10.00","status":"refunded"}]}"#, 422, "payments[0].status"),
                (#"{"lines":[\#(line)],"paymentMethod":"card","payments":[{"method":"card","amount":"10.00"}]}"#, 422, "paymentMethod"),
                (#"{"lines":[\#(line)],"payments":[]}"#, 422, "payments"),
                (#"{"lines":[\#(line)],"payments":[{"method":"card","amount":"10.00"},{"method":"cash"}]}"#, 422, "payments[1].amount"),
                (#"{"lines":[\#(line)],"payments":[{"method":"card"},{"method":"cash","amount":null}]}"#, 422, "payments[1].amount"),
            ]
            for (body, status, field) in refusals {
                let reply = try await till.call(.post, "/api/v1/sales", body)
                #expect(reply.status == status && reply.object["field"] as? String == field, "\(body): \(reply.text)")
            }
            let unknown = try await till.call(.post, "/api/v1/sales", #"{"lines":[\#(line)],"payments":[{"method":"card","amount":"10.00","tip":"1"}]}"#)
            #expect(unknown.status == 400, "\(unknown.text)")
            #expect(try await store.sales(limit: 10, offset: 0).isEmpty, "no refused sale was booked")

            // A payment without an amount takes the rest: the dry run says how much, and books nothing.
            let rest = try await till.call(.post, "/api/v1/sales?dryRun=true",
                                           #"{"lines":[\#(line)],"payments":[{"method":"cash","amount":"4.00","tendered":"5.00"},{"method":"card"}]}"#)
            #expect(rest.status == 200, "\(rest.text)")
            #expect((rest.object["payments"] as? [[String: Any]])?.map { $0["amount"] as? String } == ["4.00", "6.00"], "\(rest.text)")
            #expect(try await store.sales(limit: 10, offset: 0).isEmpty, "a dry run books nothing")

            let sold = try await till.call(.post, "/api/v1/sales", #"""
                {"lines":[\#(line)],"payments":[{"method":"cash","amount":"4.00","tendered":"5.00"},{"method":"card","amount":"6.00","reference":"T-19"}]}
                """#)
            #expect(sold.status == 201, "\(sold.text)")
            let payments = try #require(sold.object["payments"] as? [[String: Any]])
            #expect(payments.map { $0["method"] as? String } == ["cash", "card"])
            #expect(payments.map { $0["status"] as? String } == ["completed", "completed"])
            #expect(payments[0]["change"] as? String == "1.00" && sold.object["change"] as? String == "1.00")
            #expect(sold.object["amountDue"] as? String == "0.00")
            let saleID = try #require(sold.object["id"] as? Int)
            let saleLine = try #require((sold.object["lines"] as? [[String: Any]])?.first?["id"] as? Int)
            let cashID = try #require(payments[0]["id"] as? Int), cardID = try #require(payments[1]["id"] as? Int)

            // The cashier sees where the money goes before confirming: 7.50 back, the card's 6.00 first, then 1.50 cash.
            let returnBody = #"{"saleId":\#(saleID),"lines":[{"saleLineId":\#(saleLine),"quantity":"3"}]}"#
            let manage = Caller(client: raw, token: manager)
            let preview = try await manage.call(.post, "/api/v1/returns/customer?dryRun=true", returnBody)
            #expect(preview.status == 200, "\(preview.text)")
            #expect(preview.object["refund"] as? String == "7.50")
            let shown = try #require(preview.object["refunds"] as? [[String: Any]])
            #expect(shown.map { $0["method"] as? String } == ["card", "cash"])
            #expect(shown.map { $0["amount"] as? String } == ["6.00", "1.50"])
            #expect(try await manage.call(.get, "/api/v1/sales/\(saleID)").object["refunded"] as? String == "0.00", "a preview books nothing")

            let tooMuch = try await manage.call(.post, "/api/v1/returns/customer", #"""
                {"saleId":\#(saleID),"lines":[{"saleLineId":\#(saleLine),"quantity":"3"}],"refunds":[{"paymentId":\#(cashID),"amount":"7.50"}]}
                """#)
            #expect(tooMuch.status == 422 && tooMuch.object["field"] as? String == "refunds[0].amount", "\(tooMuch.text)")
            let booked = try await manage.call(.post, "/api/v1/returns/customer", #"""
                {"saleId":\#(saleID),"lines":[{"saleLineId":\#(saleLine),"quantity":"3"}],"refunds":[{"paymentId":\#(cardID),"amount":"6.00"},{"paymentId":\#(cashID),"amount":"1.50"}]}
                """#)
            #expect(booked.status == 201, "\(booked.text)")
            let after = try await manage.call(.get, "/api/v1/sales/\(saleID)")
            #expect((after.object["payments"] as? [[String: Any]])?.map { $0["status"] as? String } == ["partlyRefunded", "refunded"])
            #expect(after.object["refunded"] as? String == "7.50")

            // A pending card payment, then settled as failed: the sale has 6.00 due; it cannot be settled twice.
            let pending = try await till.call(.post, "/api/v1/sales", #"""
                {"lines":[\#(line)],"payments":[{"method":"cash","amount":"4.00"},{"method":"card","amount":"6.00","status":"pending"}]}
                """#)
            let pendingID = try #require(pending.object["id"] as? Int)
            let pendingCard = try #require((pending.object["payments"] as? [[String: Any]])?.last?["id"] as? Int)
            let bad = try await till.call(.put, "/api/v1/sales/\(pendingID)/payments/\(pendingCard)", #"{"status":"refunded"}"#)
            #expect(bad.status == 422 && bad.object["field"] as? String == "status", "\(bad.text)")
            let failed = try await till.call(.put, "/api/v1/sales/\(pendingID)/payments/\(pendingCard)", #"{"status":"failed"}"#)
            #expect(failed.status == 200 && failed.object["amountDue"] as? String == "6.00", "\(failed.text)")
            let again = try await till.call(.put, "/api/v1/sales/\(pendingID)/payments/\(pendingCard)", #"{"status":"completed"}"#)
            #expect(again.status == 409 && again.object["field"] as? String == "status", "\(again.text)")
            let elsewhere = try await till.call(.put, "/api/v1/sales/\(saleID)/payments/\(pendingCard)", #"{"status":"completed"}"#)
            #expect(elsewhere.status == 404 && elsewhere.object["field"] as? String == "paymentId", "\(elsewhere.text)")
        }
    }
}
