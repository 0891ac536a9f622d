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
    @Flag(help: ArgumentHelp("Serve HTTPS (phones give the camera to web pages only over HTTPS).",
                             discussion: "Uses --tls-cert/--tls-key when given, else a self-signed certificate made in <data>/tls/ for this machine's names and addresses."))
    var tls = false
    @Option(help: "TLS certificate chain (PEM); implies --tls.") var tlsCert: String?
    @Option(help: "TLS private key (PEM); implies --tls.") var tlsKey: String?
    @Option(help: ArgumentHelp("How long a browser sign-in lasts, whatever its activity: a number and s, m or h (default 12h).",
                               valueName: "duration"))
    var sessionLifetime: String = "12h"
    @Option(help: ArgumentHelp("The address clients use to reach the server, like https://shop.example (picture links in /api/public/get); default: the listening address.",
                               valueName: "url"))
    var publicURL: String?
    @Option(help: ArgumentHelp("Connections one client address may hold open at once (raise it behind a load balancer or reverse proxy).",
                               valueName: "count"))
    var maxConnectionsPerAddress: Int = ConnectionLimits().maxConnectionsPerAddress
    @Flag(help: ArgumentHelp("Measure requests, the group commit, database time and kept reads, and serve them at /metrics (Prometheus text format).",
                             discussion: "Only a caller on this machine connected directly, or an admin, may read /metrics."))
    var metrics = false
    @Flag(help: "Take no automatic daily backup into <data>/backups (they are on by default; see `stockroom backup`).") var noBackups = false
    @OptionGroup var retention: BackupPolicyOptions
    @Option(help: ArgumentHelp("The most connections to PostgreSQL this instance holds (with --database).", valueName: "count"))
    var databaseConnections: Int = 20

    func validate() throws {
        guard (1...65_535).contains(self.port) else { throw ValidationError("--port must be between 1 and 65535") }
        guard (self.tlsCert == nil) == (self.tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        _ = try Self.milliseconds(self.sessionLifetime)
        guard (1...100_000).contains(self.maxConnectionsPerAddress) else {
            throw ValidationError("--max-connections-per-address must be between 1 and 100000")
        }
        do { _ = try self.publicURL.map(PublicURL.parse) } catch let error as InventoryError { throw ValidationError("--public-url: \(error.userMessage)") }
        _ = try self.retention.policy()
        guard (1...1_000).contains(self.databaseConnections) else { throw ValidationError("--database-connections must be between 1 and 1000") }
    }

    func run() async throws {
        var logger = Logger(label: "stockroom")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        // Before the store opens: its measurements bind to the backend then.
        let metrics = self.metrics ? ServerMetrics.bootstrap() : nil
        try await self.serve(try await self.database.open(connections: self.databaseConnections), logger: logger, metrics: metrics)
    }

    func serve(_ store: some ShopStore, logger: Logger, metrics: ServerMetrics?) async throws {
        if self.demo, try await store.products(ProductQuery(includeArchived: true, limit: 1)).total == 0 {
            let today = ShopCalendar(timeZone: TimeZone(identifier: "UTC") ?? .current).dayNumber(.now)
            let summary = try await DemoShop(endDay: today).fill(store)
            logger.info("demo café created", metadata: ["products": "\(summary.products)", "sales": "\(summary.sales)"])
        }
        var certificate: ShopCertificate?
        if let cert = self.tlsCert, let key = self.tlsKey {
            certificate = ShopCertificate(certificatePath: cert, keyPath: key)
        } else if self.tls {
            certificate = try ShopCertificate.selfSigned(dataFolder: self.database.folder, shopName: try await store.settings().shopName)
            logger.info("self-signed TLS certificate", metadata: ["file": "\(certificate?.certificatePath ?? "")"])
        }
        let scheme = certificate == nil ? "http" : "https"
        let shown = self.host == "0.0.0.0" || self.host == "::" ? "127.0.0.1" : self.host
        let url = "\(scheme)://\(shown.contains(":") ? "[\(shown)]" : shown):\(self.port)"
        if try await store.userCount() == 0 {
            logger.notice("no staff account yet: open \(url)/setup in a browser to create the admin (or POST /api/v1/auth/setup); there is no default password")
        }
        let database = try self.database.describe()
        logger.info("serving", metadata: ["data": "\(self.database.folder)", "database": "\(database)", "url": "\(url)"])
        if certificate != nil, self.host == "0.0.0.0" {
            for address in ShopCertificate.addresses(port: self.port) { logger.info("phones on the shop network: open \(address)") }
        }
        var configuration = ServerConfiguration(host: self.host, port: self.port, dataFolder: self.database.folder, publicAPI: self.publicAPI, tls: certificate)
        configuration.sessionLifetime = try Self.milliseconds(self.sessionLifetime)
        configuration.publicURL = try self.publicURL.map(PublicURL.parse)
        configuration.connectionLimits.maxConnectionsPerAddress = self.maxConnectionsPerAddress
        configuration.metrics = metrics
        configuration.automaticBackups = !self.noBackups
        configuration.expiryAlerts = true
        configuration.backupPolicy = try self.retention.policy()
        if let pictures = store as? any PictureFileRepository {
            // Pictures live in the shared database, so any instance serves any of them.
            configuration.images = ImageStore(database: pictures, dataFolder: self.database.folder)
        }
        let app = try buildApplication(configuration, repository: store, logger: logger)
        try await app.runService()
    }
}

extension ServeCommand {
    /// A duration like `90s`, `30m` or `12h` in milliseconds: at least 10 seconds, at most 30 days.
    static func milliseconds(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1_000, "m": 60_000, "h": 3_600_000]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()), count > 0,
              case let (value, overflow) = count.multipliedReportingOverflow(by: unit), !overflow, (10_000...30 * 86_400_000).contains(value) else {
            throw ValidationError("--session-lifetime must be a number and s, m or h, between 10s and 720h (like 12h or 90m), not '\(text)'")
        }
        return value
    }
}
