/// Whether the shop's database answers now: what a server's readiness check (`GET /health`) reports, so a load
/// balancer sends requests only to servers that can serve them.
public protocol DatabaseHealth: Sendable {
    /// The database's kind as people name it: `sqlite`, `postgresql`.
    var databaseKind: String { get }
    /// Whether a trivial query answers within a couple of seconds.
    func databaseReachable() async -> Bool
}
