import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

/// `GET /images/{name}` (content-addressed, cached for a year) and a product's pictures: `PUT`/`DELETE
/// /products/{id}/image` set or remove the main one, `POST /products/{id}/pictures` adds one,
/// `DELETE /products/{id}/pictures/{name}` removes one and `PUT /products/{id}/pictures/{name}/main` makes one the
/// main picture. Each change is one transaction in the catalogue (``CatalogueRepository/changePictures(of:_:)``);
/// files are written before it and the files it leaves unused are deleted after it (``ImageStore/commit(_:field:_:)``).
/// The JSON shapes are in `API/DTO/PictureDTO.swift`.
struct ImageController<Repository: CatalogueRepository> {
    let repository: Repository
    let images: ImageStore

    func addRoutes(to router: Routes, api: Routes) {
        router.get("images/:name", .open, use: self.image)
        api.put("products/:id/image", .permission(.editCatalogue), use: self.setMain)
        api.delete("products/:id/image", .permission(.editCatalogue), use: self.removeMain)
        api.post("products/:id/pictures", .permission(.editCatalogue), use: self.add)
        api.delete("products/:id/pictures/:name", .permission(.editCatalogue), use: self.remove)
        api.put("products/:id/pictures/:name/main", .permission(.editCatalogue), use: self.makeMain)
    }

    @Sendable func image(_ request: Request, context: some RequestContext) async throws -> Response {
        let name = context.parameters.get("name") ?? ""
        guard let (data, type) = try await self.images.load(name) else {
            throw Problem(.notFound, code: .notFound, title: "Not found", detail: "no picture named \(name)")
        }
        let etag = "\"\(name)\""
        if request.headers.value(.ifNoneMatch) == etag {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        return Response(status: .ok, headers: [.contentType: type, .eTag: etag, .cacheControl: "public, max-age=31536000, immutable"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The request body checked, cleaned and decoded as a picture (nothing written yet), for an existing product.
    func upload(_ request: Request, _ id: ProductID) async throws -> ImageStore.Prepared {
        _ = try await self.repository.product(id)  // an unknown product is refused before any decoding
        let body = try await request.body.collect(upTo: ImageStore.maxBytes + 1)
        return try await self.images.prepare(Array(body.readableBytesView), field: "body")
    }

    /// Runs a picture command, writing `prepared` first and deleting what it leaves unused afterwards.
    func change(_ id: ProductID, _ command: PictureCommand, writing prepared: [ImageStore.Prepared] = []) async throws -> PictureOutcome {
        let repository = self.repository
        return try await self.images.commit(prepared, field: "body") {
            let outcome = try await repository.changePictures(of: id, command)
            return (outcome, outcome.released)
        }
    }

    /// `PUT /products/{id}/image`: the upload becomes the main picture in place of the old main one.
    @Sendable func setMain(_ request: Request, context: some RequestContext) async throws -> JSON<UploadedPicture> {
        let id = ProductID(try request.id(context))
        let prepared = try await self.upload(request, id)
        _ = try await self.change(id, .replaceMain(prepared.name), writing: [prepared])
        return JSON(UploadedPicture(prepared))
    }

    /// `DELETE /products/{id}/image`: the main picture goes; the next one, if any, becomes main.
    @Sendable func removeMain(_ request: Request, context: some RequestContext) async throws -> Response {
        _ = try await self.change(ProductID(try request.id(context)), .removeMain)
        return Response(status: .noContent)
    }

    /// `POST /products/{id}/pictures[?main=true]`: adds the upload last (first with `main=true`).
    @Sendable func add(_ request: Request, context: some RequestContext) async throws -> JSON<PictureList> {
        let id = ProductID(try request.id(context))
        let makeMain: Bool
        switch request.query("main") {
        case nil, "false": makeMain = false
        case "true": makeMain = true
        default: throw InventoryError(.invalidValue, field: "main", "must be true or false")
        }
        let prepared = try await self.upload(request, id)
        let outcome = try await self.change(id, .add(prepared.name, makeMain: makeMain), writing: [prepared])
        return JSON(PictureList(outcome.product, added: UploadedPicture(prepared)), status: outcome.changed ? .created : .ok)
    }

    /// `DELETE /products/{id}/pictures/{name}`.
    @Sendable func remove(_ request: Request, context: some RequestContext) async throws -> JSON<PictureList> {
        let id = ProductID(try request.id(context))
        return JSON(PictureList(try await self.change(id, .remove(context.parameters.get("name") ?? "")).product))
    }

    /// `PUT /products/{id}/pictures/{name}/main`.
    @Sendable func makeMain(_ request: Request, context: some RequestContext) async throws -> JSON<PictureList> {
        let id = ProductID(try request.id(context))
        return JSON(PictureList(try await self.change(id, .makeMain(context.parameters.get("name") ?? "")).product))
    }
}
