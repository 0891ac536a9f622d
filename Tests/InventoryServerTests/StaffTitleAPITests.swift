import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
import InventoryServer
import InventoryStore
import Testing

/// Job titles (barista, kitchen …) on staff accounts and the initials the till shows for whoever is signed in.
@Suite struct StaffTitleAPITests {
    @Test func accountsCarryAJobTitleAndInitials() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { client in
            let created = try await client.call(.post, "/api/v1/users",
                                                #"{"username":"ada","displayName":"Ada Lovelace","password":"long enough","role":"staff","jobTitle":" Barista "}"#,
                                                token: admin)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.object["jobTitle"] as? String == "Barista" && created.object["initials"] as? String == "AL")
            let id = try #require(created.object["id"] as? Int)
            let before = try await store.user(UserID(Int64(id)))
            // A title too long, or of two lines, is refused naming the field; nothing is written.
            for body in [#"{"jobTitle":"\#(String(repeating: "x", count: 41))"}"#, #"{"jobTitle":"Barista\nCook"}"#] {
                let refused = try await client.call(.put, "/api/v1/users/\(id)", body, token: admin)
                #expect(refused.status == 422 && refused.object["field"] as? String == "jobTitle", "\(refused.text)")
                let row = try await store.user(UserID(Int64(id)))
                #expect(row == before)
            }
            let tooLong = try await client.call(.post, "/api/v1/users",
                                                #"{"username":"ben","password":"long enough","jobTitle":"\#(String(repeating: "y", count: 41))"}"#, token: admin)
            #expect(tooLong.status == 422 && tooLong.object["field"] as? String == "jobTitle")
            let nobody = try await store.user(username: "ben")
            #expect(nobody == nil)
            // Changed and audited as a change of the account.
            let changed = try await client.call(.put, "/api/v1/users/\(id)", #"{"jobTitle":"Kitchen"}"#, token: admin)
            #expect(changed.object["jobTitle"] as? String == "Kitchen")
            let log = try await store.auditLog(limit: 3, offset: 0)
            #expect(log.first?.changes.map(\.field) == [.jobTitle], "\(log.map(\.detail))")
            #expect(log.first?.detail.contains("job title") == true, "\(log.map(\.detail))")
            // Who is signed in, on the till: initials and job title in the frame.
            let me = try await client.call(.post, "/api/v1/auth/login", #"{"username":"ada","password":"long enough"}"#)
            let cookie = try #require(sessionCookie(me))
            #expect((me.object["user"] as? [String: Any])?["initials"] as? String == "AL")
            let till = try await client.call(.get, "/app/pos", cookie: cookie)
            #expect(till.status == 200)
            #expect(till.text.contains(#"<span class="initials" aria-hidden="true">AL</span>"#))
            #expect(till.text.contains("Ada Lovelace · Kitchen") && till.text.contains("Kitchen · staff"))
            // Without a title the frame shows the name and role alone.
            let cleared = try await client.call(.put, "/api/v1/users/\(id)", #"{"jobTitle":""}"#, token: admin)
            #expect(cleared.object["jobTitle"] as? String == "")
            let plain = try await client.call(.get, "/app/pos", cookie: cookie)
            #expect(plain.text.contains(">staff</span>") && !plain.text.contains(" · staff"))
        }
    }
}
