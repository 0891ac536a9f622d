import BarcodeReader
import Foundation
import Hummingbird
import InventoryDomain
import InventoryStore
import Logging

/// How to run the server.
public struct ServerConfiguration: Sendable {
    /// Address to listen on; 127.0.0.1 keeps the shop's data on this machine until you choose otherwise.
    public var host: String
    /// Port to listen on.
    public var port: Int

    /// Creates a configuration.
    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }
}

/// The request context: Hummingbird's, with a 5 MiB upload limit.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { 5 * 1024 * 1024 }
}

/// Builds the router: the JSON API under `/api/v1`, every error as `application/problem+json`.
public func buildRouter<Repository: InventoryRepository>(repository: Repository, reader: BarcodeReader = BarcodeReader()) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.middlewares.add(LogRequestsMiddleware(.info))
    router.middlewares.add(ProblemMiddleware())
    router.get("/health") { _, _ in "ok" }
    let api = router.group("api/v1")
    ProductController(repository: repository).addRoutes(to: api.group("products"))
    CategoryController(repository: repository).addRoutes(to: api.group("categories"))
    ContactController(suppliers: repository).addRoutes(to: api.group("suppliers"))
    ContactController(customers: repository).addRoutes(to: api.group("customers"))
    DocumentController(repository: repository).addRoutes(
        purchases: api.group("purchases"), sales: api.group("sales"), returns: api.group("returns"), adjustments: api.group("adjustments"))
    ReportController(repository: repository, reader: reader).addRoutes(to: api)
    return router
}

/// Builds the application over a repository.
public func buildApplication<Repository: InventoryRepository>(
    _ configuration: ServerConfiguration, repository: Repository, logger: Logger = Logger(label: "stockroom")
) -> some ApplicationProtocol {
    let router = buildRouter(repository: repository)
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Stockroom"),
        logger: logger)
}
