import Foundation

/// Who did something in the shop: a signed-in staff member, the person at the command line, the iOS client's
/// credential-free add, or the shop itself.
///
/// Every write records its ``ShopActivity`` under ``current``, a task-local value: the server sets it around each
/// route from the caller it admitted, the command line sets ``commandLine(user:)`` once, and anything else is
/// ``system``. A task-local rather than a parameter on every storage method keeps the storage protocols about the
/// shop's data; a store reads it when a write is *submitted* (in the caller's task), never later, because a
/// group-committed write runs in another task.
public struct Agent: Sendable, Hashable, Codable {
    /// The staff account, nil when no account acted.
    public var userID: UserID?
    /// The name shown in the audit log.
    public var username: String

    /// Creates an agent.
    public init(userID: UserID?, username: String) {
        self.userID = userID
        self.username = username
    }

    /// A staff account.
    public init(_ account: StaffAccount) {
        self.init(userID: account.id, username: account.username)
    }

    /// The shop itself: a write made with no one to name.
    public static let system = Agent(userID: nil, username: "system")

    /// The existing iOS client's credential-free `POST /api/public/add`.
    public static let publicAPI = Agent(userID: nil, username: "iOS client")

    /// The person running `stockroom` at a terminal, named by the operating system's user.
    public static func commandLine(user: String = ProcessInfo.processInfo.userName) -> Agent {
        Agent(userID: nil, username: user.isEmpty ? "command line" : "\(user) (command line)")
    }

    /// The agent writes in this task are recorded under (``system`` unless someone set it).
    @TaskLocal public static var current: Agent = .system
}
