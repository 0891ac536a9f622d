import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// `Client`, its operations (`client.listProducts(...)`, `client.createSale(...)`, …) and every type under
// `Components.Schemas` are generated at build time from openapi.json, the server's own OpenAPI document.

extension Client {
    /// A client of the Stockroom server at `serverURL` (like `https://shop.example:8080`) over URLSession,
    /// signed in with an API token from `POST /api/v1/tokens` when `token` is given.
    ///
    /// ```swift
    /// let client = Client(serverURL: URL(string: "https://shop.example:8080")!, token: token)
    /// let page = try await client.listProducts(query: .init(search: "coffee")).ok.body.json
    /// ```
    public init(serverURL: URL, token: String?, session: URLSession = .shared) {
        self.init(
            serverURL: serverURL,
            transport: URLSessionTransport(configuration: .init(session: session)),
            middlewares: token.map { [BearerTokenMiddleware(token: $0)] } ?? []
        )
    }
}

/// Sends `Authorization: Bearer <token>` with every request.
public struct BearerTokenMiddleware: ClientMiddleware {
    /// The API token's secret.
    public var token: String

    /// A middleware that signs every request with `token`.
    public init(token: String) { self.token = token }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(self.token)"
        return try await next(request, body, baseURL)
    }
}
