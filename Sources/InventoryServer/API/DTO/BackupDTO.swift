/// `POST /api/v1/restore`: the shop as restored.
struct RestoreResponse: Encodable, Sendable {
    var restored: Bool
    var products: Int
    /// Pictures the backup brought (absent for a bare database, which leaves the pictures as they were).
    var pictures: Int?
}
