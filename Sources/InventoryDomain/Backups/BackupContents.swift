/// What a backup holds, as its check found it: enough for a person to tell one backup from another and to see that it
/// is the shop they expect.
public struct BackupContents: Sendable, Hashable {
    /// The last migration of the backup's database (its version), before it was brought up to this one.
    public var version: String
    /// The shop's name in the backup.
    public var shopName: String
    /// How many products, documents (purchases, sales, returns, adjustments) and staff accounts it holds.
    public var products: Int
    public var documents: Int
    public var users: Int
    /// The date of its newest document, if any.
    public var lastDocumentAt: Instant?
    /// How many product pictures it holds (nil for a bare database file).
    public var pictures: Int?

    /// Creates a value.
    public init(version: String, shopName: String, products: Int, documents: Int, users: Int, lastDocumentAt: Instant?, pictures: Int? = nil) {
        self.version = version
        self.shopName = shopName
        self.products = products
        self.documents = documents
        self.users = users
        self.lastDocumentAt = lastDocumentAt
        self.pictures = pictures
    }
}
