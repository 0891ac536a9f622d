import ArgumentParser
import Foundation
import InventoryServer

/// `stockroom`: the shop's inventory and point of sale from the command line.
@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
public struct StockroomCommand: AsyncParsableCommand {
    /// The command list.
    public static let configuration = CommandConfiguration(
        commandName: "stockroom",
        abstract: "Inventory and point of sale for small shops, with exact weighted-average books.",
        discussion: "Data lives in one SQLite file in the data folder (--data, or STOCKROOM_DATA, default ./stockroom-data), or in a PostgreSQL database (--database postgres://…, or STOCKROOM_DATABASE).",
        version: StockroomVersion.current,
        subcommands: [
            InitCommand.self, DemoCommand.self, ProductCommand.self, SupplierCommand.self, CustomerCommand.self, PurchaseCommand.self, SaleCommand.self, AdjustCommand.self,
            ReportCommand.self, ExportCommand.self, ImportCommand.self, ScanCommand.self, BenchCommand.self, ServeCommand.self,
            CertCommand.self, BackupCommand.self, StocktakeCommand.self, ReorderCommand.self, MigrateCommand.self,
        ]
    )

    /// Creates the root command.
    public init() {}
}
