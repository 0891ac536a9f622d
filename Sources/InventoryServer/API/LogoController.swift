import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import InventoryDomain

/// The receipt logo: `GET /api/v1/settings/logo` for anyone signed in (the receipt shows it), `PUT` (the picture as the
/// body: JPEG or PNG, at most 512 KB, checked and cleaned as product pictures are) and `DELETE` for who manages settings.
struct LogoController<Store: SettingsRepository> {
    let store: Store
    let images: ImageStore

    func addRoutes(to settings: Routes) {
        settings.get("logo", .signedIn, use: self.get)
        settings.put("logo", .permission(.manageSettings), use: self.set)
        settings.delete("logo", .permission(.manageSettings), use: self.remove)
    }

    @Sendable func get(_ request: Request, context: some RequestContext) async throws -> Response {
        guard let logo = try await self.store.shopLogo() else {
            throw Problem(.notFound, code: .notFound, title: "Not found", detail: "the shop has no logo")
        }
        let etag = "\"logo-\(logo.version)\""
        if request.headers.value(.ifNoneMatch) == etag { return Response(status: .notModified, headers: [.eTag: etag]) }
        return Response(status: .ok, headers: [.contentType: logo.contentType, .eTag: etag, .cacheControl: "private, no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: logo.bytes)))
    }

    @Sendable func set(_ request: Request, context: some RequestContext) async throws -> JSON<LogoResponse> {
        let tooLarge = Problem(.contentTooLarge, code: .tooLarge, title: "Body too large",
                               detail: "a logo is at most \(ShopLogo.maxBytes / 1024) KB", field: "body")
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: ShopLogo.maxBytes + 1)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        }
        guard body.readableBytes <= ShopLogo.maxBytes else { throw tooLarge }
        let prepared = try await self.images.prepare(Array(body.readableBytesView), field: "body")
        let type = ProductPictures.contentType(ofName: prepared.name)
        let logo = try await self.store.setShopLogo(prepared.bytes, contentType: type)
        return JSON(LogoResponse(url: logo.map { LogoResponse.url(version: $0.version) }, width: prepared.width, height: prepared.height))
    }

    @Sendable func remove(_ request: Request, context: some RequestContext) async throws -> Response {
        _ = try await self.store.setShopLogo(nil, contentType: "")
        return Response(status: .noContent)
    }
}

/// `PUT /api/v1/settings/logo`: where the new logo is, and its size in pixels.
struct LogoResponse: Encodable, Sendable {
    var url: String?
    var width: Int
    var height: Int

    /// The logo's address for `version` (a new logo, a new address).
    static func url(version: Int64) -> String { "/api/v1/settings/logo?v=\(version)" }
}
