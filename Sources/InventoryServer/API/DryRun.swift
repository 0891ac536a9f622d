import Hummingbird

extension Request {
    /// Whether the request asks for a dry run (`?dryRun=true`): the answer says what the change would do, and nothing
    /// is stored — so no live event is published and no audit entry written for it.
    var isDryRun: Bool { self.query("dryRun") == "true" }

    /// ``isDryRun``, refusing a `dryRun` value other than `true` or `false` (a misspelt value must not book for real).
    func dryRunFlag() throws -> Bool { try self.queryFlag("dryRun") }

    /// A yes/no query parameter: `true`, or `false` (the default when it is absent); anything else is refused naming it.
    func queryFlag(_ name: String) throws -> Bool {
        switch self.query(name) {
        case nil, "false": return false
        case "true": return true
        case let other?:
            throw Problem(.badRequest, code: .invalidValue, title: "Invalid value", detail: "\(name) must be true or false, not '\(other.prefix(20))'",
                          field: name)
        }
    }
}
