import ArgumentParser
import Foundation
import Hummingbird
import InventoryDomain
import InventoryServer
import InventoryStore
import Logging

/// `stockroom serve`: the JSON API over the shop's database.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the shop over HTTP (JSON API under /api/v1).",
        discussion: "Stops gracefully on SIGINT or SIGTERM: requests in flight finish and every acknowledged write is on disk.")
    @OptionGroup var database: DatabaseOptions
    @Option(help: "Address to listen on (0.0.0.0 for every network interface).") var host: String = "127.0.0.1"
    @Option(help: "Port.") var port: Int = 8080
    @Flag(help: "Fill an empty database with the demo café first.") var demo = false
    @Flag(help: "Serve the existing iOS client's credential-free /api/public/get and /api/public/add (trusted shop networks only).") var publicAPI = false

    func validate() throws {
        guard (1...65_535).contains(self.port) else { throw ValidationError("--port must be between 1 and 65535") }
    }

    func run() async throws {
        var logger = Logger(label: "stockroom")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let store = try self.database.open()
        if self.demo, try await store.products(ProductQuery(includeArchived: true, limit: 1)).total == 0 {
            let today = ShopCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current).dayNumber(Date())
            let summary = try await DemoShop(endDay: today).fill(store)
            logger.info("demo café created", metadata: ["products": "\(summary.products)", "sales": "\(summary.sales)"])
        }
        if try await store.userCount() == 0 {
            logger.notice("no staff account yet: create the admin first (POST /api/v1/auth/setup with username, password and an optional PIN); there is no default password")
        }
        logger.info("serving", metadata: ["data": "\(self.database.folder)", "url": "http://\(self.host):\(self.port)"])
        let app = buildApplication(ServerConfiguration(host: self.host, port: self.port, dataFolder: self.database.folder, publicAPI: self.publicAPI), repository: store, logger: logger)
        try await app.runService()
    }
}
