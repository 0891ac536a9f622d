import InventoryStore

/// The data folder's private files (0600 from their creation) are the store's concern; the server writes pictures,
/// uploads and the TLS key through the same helper.
typealias PrivateFile = InventoryStore.PrivateFile
