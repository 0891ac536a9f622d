import Foundation

/// The cash drawer: sessions opened with a float and closed with the counted cash (``DrawerSession``), their cash in
/// and out, and their X and Z reports (``DrawerReport``).
public protocol DrawerRepository: Sendable {
    /// Opens a session with the counted float.
    /// - Throws: ``InventoryError`` (`conflict` on `openingFloat` when a session is already open; `invalidValue` naming
    ///   the field); nothing is stored then.
    func openDrawer(float: Money, note: String, by: String, at: Int64) async throws -> DrawerSession
    /// The open session, if any.
    func currentDrawer() async throws -> DrawerSession?
    /// Records cash put in (positive `amount`) or taken out (negative) of the open session.
    /// - Throws: ``InventoryError`` (`conflict` when no session is open; naming `amount` or `reason`).
    func moveCash(amount: Money, reason: String, by: String, at: Int64) async throws -> DrawerSession
    /// Closes the open session with the counted cash, keeping its Z report.
    /// - Throws: ``InventoryError`` (`conflict` when no session is open; naming `countedCash`).
    func closeDrawer(counted: Money, by: String, at: Int64) async throws -> DrawerSession
    /// Sessions, newest first.
    func drawerSessions(limit: Int, offset: Int) async throws -> [DrawerSession]
    /// One session.
    /// - Throws: ``InventoryError`` (`notFound`).
    func drawerSession(_ id: DrawerSessionID) async throws -> DrawerSession
    /// A session's report: the Z report kept at closing, or for an open session the X report up to `now`.
    func drawerReport(_ id: DrawerSessionID, now: Int64) async throws -> DrawerReport
    /// What each clocked shift's staff member sold while clocked in (``DrawerReport/StaffLine``: sales, revenue, tips,
    /// minutes), an open shift up to `now`; in the order given.
    func shiftSummaries(_ shifts: [Shift], now: Int64) async throws -> [DrawerReport.StaffLine]
}
