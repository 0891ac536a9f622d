import BarcodeReader
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import InventoryDomain
import Logging
import ServiceLifecycle

/// How to run the server.
public struct ServerConfiguration: Sendable {
    /// Address to listen on; 127.0.0.1 keeps the shop's data on this machine until you choose otherwise.
    public var host: String
    /// Port to listen on.
    public var port: Int
    /// Password and PIN hashing.
    public var secrets: Secrets
    /// Where product pictures are kept (`<data>/images`).
    public var images: ImageStore
    /// Live events fan-out.
    public var events: EventHub
    /// Mount the credential-free endpoints of the existing iOS client (`/api/public/get`, `/api/public/add`).
    public var publicAPI: Bool
    /// HTTPS with this certificate (nil: plain HTTP). Session cookies are then marked Secure.
    public var tls: ShopCertificate?
    /// Where clients reach the server, like `https://shop.example` (`serve --public-url`); nil: the listening
    /// address (see ``resolvedPublicURL``). Picture links in `/api/public/get` start with it.
    public var publicURL: String?
    /// How long a browser session lives from sign-in, in ms, whatever its activity (default 12 hours).
    public var sessionLifetime: Int64 = StaffSession.defaultWebLifetimeMilliseconds
    /// Deadlines for request heads and bodies, the keep-alive idle time and the connections allowed per address.
    public var connectionLimits = ConnectionLimits()
    /// Measure requests and serve `GET /metrics` (`serve --metrics`; nil: neither). Bootstrap it before opening the
    /// store (``ServerMetrics/bootstrap()``).
    public var metrics: ServerMetrics?
    /// The data folder (`<data>/backups` holds the kept backups).
    public var dataFolder: String
    /// Take the daily backup into `<data>/backups` while serving (`serve`; off with `--no-backups`). Off by default,
    /// so an application built in a test takes none unless asked.
    public var automaticBackups = false
    /// Look once a day for lots about to expire and alert the managers who opted in (`serve`). Off by default, so an
    /// application built in a test records none unless asked.
    public var expiryAlerts = false
    /// What the backups folder keeps and when the daily backup is due (`serve --backup-keep-daily …`).
    public var backupPolicy = BackupPolicy.standard
    /// The clock the backups folder names and schedules backups by (a test runs a week of backups on its own).
    public var backupClock: @Sendable () -> Instant = { .now }
    /// What `GET /health` calls this server among several sharing one database (default: host name and port).
    public var instanceName: String
    /// The web app's templates and static files (nil when they cannot be read: then only the API is served).
    var web: WebAssets?

    /// Creates a configuration.
    public init(host: String = "127.0.0.1", port: Int = 8080, secrets: Secrets = Secrets(), dataFolder: String, publicAPI: Bool = false,
                tls: ShopCertificate? = nil) {
        self.host = host
        self.tls = tls
        self.port = port
        self.secrets = secrets
        self.images = ImageStore(dataFolder: dataFolder)
        self.dataFolder = dataFolder
        self.publicAPI = publicAPI
        self.events = EventHub()
        self.web = try? WebAssets()
        self.instanceName = "\(ProcessInfo.processInfo.hostName):\(port)"
    }
}

/// The request context: Hummingbird's, with the caller's identity and address and a 5 MiB upload limit.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who is calling, once the auth middleware has looked.
    public var identity: Identity?
    /// The client's IP address, for sign-in throttling.
    public var clientAddress: String

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    public var maxUploadSize: Int { 5 * 1024 * 1024 }
}

/// Builds the router: the JSON API under `/api/v1` behind staff sign-in and roles, every error as
/// `application/problem+json`.
public func buildRouter<Repository: InventoryRepository & StaffRepository & BackupRepository>(
    repository: Repository, configuration: ServerConfiguration, reader: BarcodeReader = BarcodeReader()
) -> Router<AppRequestContext> {
    buildRoutes(repository: repository, configuration: configuration, reader: reader).router
}

/// The data folder's backups for a repository and configuration.
func backupFolder<Repository: BackupRepository & SettingsRepository & StaffRepository>(_ repository: Repository, _ configuration: ServerConfiguration) -> BackupFolder<Repository> {
    BackupFolder(dataFolder: configuration.dataFolder, store: repository, images: configuration.images, policy: configuration.backupPolicy,
                 clock: configuration.backupClock)
}

/// The router and every route's declared access (``Access``): each route is registered through ``Routes`` with the
/// permission it needs, which the route itself enforces once it has matched.
func buildRoutes<Repository: InventoryRepository & StaffRepository & BackupRepository>(
    repository: Repository, configuration: ServerConfiguration, reader: BarcodeReader = BarcodeReader(), backups: BackupFolder<Repository>? = nil
) -> (router: Router<AppRequestContext>, access: AccessTable) {
    let router = Router(context: AppRequestContext.self)
    let table = AccessTable()
    let gate = RouteGate(staff: repository, lockMinutes: { try await repository.settings().lockMinutes },
                         sessionLifetime: configuration.sessionLifetime, table: table)
    let root = Routes(router: router, gate: gate)
    let secrets = configuration.secrets
    Task { _ = try? await secrets.dummyHash() }  // made now, so the first unknown username answers as slowly as the rest
    router.middlewares.add(LogRequestsMiddleware(.info))
    // First, so that it times every request whole (middleware applies to the routes added after it).
    if configuration.metrics != nil { router.middlewares.add(MetricsMiddleware()) }
    router.middlewares.add(SecurityHeadersMiddleware(tls: configuration.tls != nil))
    router.middlewares.add(ProblemMiddleware())
    let auth = AuthMiddleware(staff: repository, sessionLifetime: configuration.sessionLifetime)
    router.middlewares.add(auth)
    // Live events come from what the store commits, whichever route (or import) wrote it.
    configuration.events.follow(repository)
    HealthController(store: repository, instance: configuration.instanceName).addRoutes(to: root)
    if let metrics = configuration.metrics { MetricsController(metrics: metrics).addRoutes(to: root) }
    let api = root.group("api/v1")
    ProductController(repository: repository, images: configuration.images).addRoutes(to: api.group("products"))
    ModifierController(store: repository).addRoutes(products: api.group("products"), api: api)
    RecipeController(store: repository).addRoutes(to: api.group("products"))
    CategoryController(store: repository).addRoutes(to: api.group("categories"))
    ContactController(suppliers: repository).addRoutes(to: api.group("suppliers"))
    ContactController(customers: repository).addRoutes(to: api.group("customers"))
    CustomerCardController(store: repository).addRoutes(to: api.group("customers"))
    PurchaseController(store: repository).addRoutes(to: api.group("purchases"))
    SaleController(store: repository, secrets: configuration.secrets).addRoutes(to: api.group("sales"))
    BeyondStockController(store: repository).addRoutes(reports: api.group("reports"), sales: api.group("sales"))
    TabController(store: repository).addRoutes(to: api.group("tabs"))
    DrawerController(store: repository).addRoutes(to: api.group("drawer"))
    ReturnController(store: repository).addRoutes(to: api.group("returns"))
    let adjustments = api.group("adjustments")
    AdjustmentController(store: repository).addRoutes(to: adjustments)
    let stocktakes = StocktakeController(store: repository)
    stocktakes.addRoutes(to: api.group("stocktakes"))
    stocktakes.addWriteOff(to: adjustments)
    ReportController(store: repository).addRoutes(to: api.group("reports"))
    ReorderController(store: repository).addRoutes(to: api.group("reorder"))
    SettingsController(store: repository).addRoutes(to: api.group("settings"))
    LogoController(store: repository, images: configuration.images).addRoutes(to: api.group("settings"))
    DataTransferController(store: repository).addRoutes(to: api)
    BarcodeController(store: repository, reader: reader).addRoutes(to: api.group("barcodes"))
    AuthController(staff: repository, secrets: configuration.secrets, secureCookies: configuration.tls != nil,
                   sessionLifetime: configuration.sessionLifetime).addRoutes(to: api)
    AuditController(store: repository).addRoutes(to: api)
    ImageController(repository: repository, images: configuration.images).addRoutes(to: root, api: api)
    EventsController(hub: configuration.events, receivesAlerts: { identity in
        guard ShopAlert.mayReceive(identity.account.role) else { return false }
        return (try? await repository.receivesAlerts(identity.account.id)) ?? false
    }, caller: { request in
        guard let found = try? await auth.identify(request), let locked = try? await gate.isLocked(found.session, at: Instant.now.milliseconds) else {
            return nil
        }
        return (found, locked)
    }).addRoutes(to: api)
    BackupController(store: repository, images: configuration.images, folder: backups ?? backupFolder(repository, configuration),
                     automatic: configuration.automaticBackups).addRoutes(to: api)
    if configuration.publicAPI {
        PublicAPIController(repository: repository, images: configuration.images, publicURL: configuration.resolvedPublicURL).addRoutes(to: root)
    }
    OpenAPIController().addRoutes(to: root)
    if let web = configuration.web {
        WebController(repository: repository, assets: web).addRoutes(to: root)
    }
    return (router, table)
}

/// Builds the application over a repository: HTTP, or HTTPS when the configuration has a certificate.
public func buildApplication<Repository: InventoryRepository & StaffRepository & BackupRepository>(
    _ configuration: ServerConfiguration, repository: Repository, logger: Logger = Logger(label: "stockroom")
) throws -> some ApplicationProtocol {
    let backups = backupFolder(repository, configuration)
    let router = buildRoutes(repository: repository, configuration: configuration, backups: backups).router
    let limits = configuration.connectionLimits
    let counter = ConnectionCounter()
    let http1 = HTTPServerBuilder.http1(configuration: .init(additionalChannelHandlers: [ConnectionGuardHandler(limits: limits, counter: counter)]))
    let server: HTTPServerBuilder = try configuration.tls.map { try .tls(http1, tlsConfiguration: $0.tlsConfiguration()) } ?? http1
    var services: [any Service] = []
    if configuration.automaticBackups { services.append(AutomaticBackupService(folder: backups)) }
    if configuration.expiryAlerts { services.append(ExpiryAlertService(store: repository)) }
    return Application(
        router: router, server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Stockroom"),
        services: services,
        logger: logger)
}
