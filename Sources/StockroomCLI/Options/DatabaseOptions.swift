import ArgumentParser
import Foundation
import InventoryDomain
import InventoryStore

/// Where the shop's data lives; shared by every command through `@OptionGroup`.
public struct DatabaseOptions: ParsableArguments {
    /// The data folder.
    @Option(name: .long, help: "Data folder holding stockroom.sqlite (default: $STOCKROOM_DATA or ./stockroom-data).")
    public var data: String?

    /// Creates options with defaults.
    public init() {}

    /// The data folder to use.
    public var folder: String {
        self.data ?? ProcessInfo.processInfo.environment["STOCKROOM_DATA"]?.nilIfEmpty ?? "stockroom-data"
    }

    /// Opens (creating when needed) the shop's database.
    /// - Throws: `InventoryError` when it cannot be opened.
    public func open() throws -> InventorySQLiteRepository {
        try InventorySQLiteRepository.open(dataFolder: self.folder)
    }
}

/// How to print a report.
public enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, csv
}
