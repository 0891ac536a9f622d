import ArgumentParser
import Foundation
import InventoryDomain
import InventoryServer
import InventoryStore

/// How to print one record (a product, a contact, a document): a few readable lines, or the API's JSON.
enum RecordFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json
}

/// Prints JSON written by the API's encoder (``APIResponses``), as the matching route answers it, and a newline.
func printJSON(_ data: Data) {
    print(String(decoding: data, as: UTF8.self))
}

extension InventoryRepository {
    /// The API's answers over this shop.
    var api: APIResponses<Self> { APIResponses(self) }
}
