import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import Testing

/// `/api/v1/drawer` (issue 12, point 10): staff open with a float, move cash with a reason, see the X report and close
/// with the counted cash; managers read the kept Z report and its CSV. Bad input names the field and stores nothing.
@Suite struct DrawerAPITests {
    @Test func openMoveCashXReportCloseAndExport() async throws {
        let (app, store) = try makeApp()
        let staff = try await token(store, role: .staff)
        let manager = try await token(store, role: .manager)
        let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: Money(minorUnits: 250), tracksStock: false))
        try await app.test(.router) { raw in
            let till = Caller(client: raw, token: staff)
            #expect(try await till.call(.get, "/api/v1/drawer").object["session"] == nil)
            for (body, field) in [(#"{"openingFloat":"-5"}"#, "openingFloat"), (#"{"openingFloat":"abc"}"#, "openingFloat")] {
                let reply = try await till.call(.post, "/api/v1/drawer/open", body)
                #expect(reply.status == 422 && reply.object["field"] as? String == field, "\(reply.text)")
            }
            let noDrawer = try await till.call(.post, "/api/v1/drawer/cash", #"{"direction":"in","amount":"5","reason":"coins"}"#)
            #expect(noDrawer.status == 409, "\(noDrawer.text)")
            let opened = try await till.call(.post, "/api/v1/drawer/open", #"{"openingFloat":"50.00"}"#)
            #expect(opened.status == 201 && opened.object["openingFloat"] as? String == "50.00", "\(opened.text)")
            let id = try #require(opened.object["id"] as? Int)
            #expect(try await till.call(.post, "/api/v1/drawer/open", #"{"openingFloat":"10"}"#).status == 409)

            let sale = try await till.call(.post, "/api/v1/sales", #"{"lines":[{"productId":\#(tea.id),"quantity":"2"}],"paymentMethod":"cash"}"#)
            #expect(sale.status == 201, "\(sale.text)")
            let cashRefusals: [(String, String)] = [
                (#"{"direction":"sideways","amount":"5","reason":"x"}"#, "direction"),
                (#"{"direction":"out","amount":"0","reason":"x"}"#, "amount"),
                (#"{"direction":"out","amount":"100.00","reason":"safe drop"}"#, "amount"),
                (#"{"direction":"in","amount":"5","reason":"  "}"#, "reason"),
            ]
            for (body, field) in cashRefusals {
                let reply = try await till.call(.post, "/api/v1/drawer/cash", body)
                #expect(reply.status == 422 && reply.object["field"] as? String == field, "\(body): \(reply.text)")
            }
            let out = try await till.call(.post, "/api/v1/drawer/cash", #"{"direction":"out","amount":"20.00","reason":"safe drop"}"#)
            #expect(out.status == 200, "\(out.text)")
            let report = try #require(out.object["report"] as? [String: Any])
            #expect(report["kind"] as? String == "X" && report["expectedCash"] as? String == "35.00" && report["cashOut"] as? String == "20.00")

            #expect(try await till.call(.get, "/api/v1/drawer/sessions").status == 403, "past sessions are for managers")
            let closed = try await till.call(.post, "/api/v1/drawer/close", #"{"countedCash":"34.50"}"#)
            let z = try #require(closed.object["report"] as? [String: Any])
            #expect(closed.status == 200 && closed.object["isOpen"] as? Bool == false, "\(closed.text)")
            #expect(z["kind"] as? String == "Z" && z["countedCash"] as? String == "34.50" && z["difference"] as? String == "-0.50")

            let office = Caller(client: raw, token: manager)
            #expect(try await office.call(.get, "/api/v1/drawer/sessions").array.map { $0["id"] as? Int } == [id])
            let csv = try await office.call(.get, "/api/v1/drawer/sessions/\(id)/report.csv")
            #expect(csv.status == 200 && csv.contentType?.hasPrefix("text/csv") == true)
            #expect(csv.text.hasPrefix("section,item,count,amount") && csv.text.contains("cash,difference,,-0.50"), "\(csv.text)")
            #expect(try await office.call(.get, "/api/v1/drawer/sessions/999").status == 404)
        }
    }
}
