import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

extension Request {
    /// The `Idempotency-Key` header, if sent, as the domain's key: the caller's, fingerprinted with the method, the
    /// path and the body's bytes (so the same key with another request is refused).
    func idempotencyKey(_ context: AppRequestContext, body: Data) throws -> IdempotencyKey? {
        guard let name = HTTPField.Name("Idempotency-Key"), let key = self.headers.value(name) else { return nil }
        guard let user = context.identity?.account.id else { return nil }
        var hash = SHA256()
        hash.update(data: Data("\(self.method.rawValue) \(self.uri.path)\n".utf8))
        hash.update(data: body)
        let fingerprint = hash.finalize().lowercaseHex
        return try IdempotencyKey(userID: user, key: key, fingerprint: fingerprint)
    }
}

extension JSON {
    /// 201 with the record; a replay of an earlier request with the same key says so in `Idempotent-Replayed: true`.
    static func created<Record>(_ value: Value, _ booked: Idempotent<Record>) -> JSON<Value> {
        var headers: HTTPFields = [:]
        if booked.replayed, let name = HTTPField.Name("Idempotent-Replayed") { headers[name] = "true" }
        return JSON(value, status: .created, headers: headers)
    }
}

extension Request {
    /// The `limit` and `offset` of a list of documents (50 and 0 by default).
    func page() throws -> (limit: Int, offset: Int) {
        (try self.queryInt("limit", default: 50, range: 1...500), try self.queryInt("offset", default: 0, range: 0...Int(Int32.max)))
    }
}
