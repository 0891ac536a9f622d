import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

/// The two endpoints the existing iOS client calls, without credentials: only mounted with `serve --public-api`.
///
/// `GET /api/public/get` answers a bare array of `{image, price, product_name, product_type, tax}`;
/// `POST /api/public/add` takes `multipart/form-data` with `product_name`, `product_type`, `price`, `tax` and
/// optional `files[]`, and answers `{message, product_details, product_id, success}`. A price with more decimals than
/// the currency has is rounded half away from zero to its minor unit (``Money/Rounding/halfAwayFromZero``).
struct PublicAPIController<Repository: InventoryRepository> {
    let repository: Repository
    let images: ImageStore
    /// Where clients reach the server (`ServerConfiguration.resolvedPublicURL`): picture URLs start with it, never
    /// with the request's Host header.
    let publicURL: String

    struct ProductDetailsBody: Encodable, Sendable {
        var image: String
        var price: Decimal
        var product_name: String
        var product_type: String
        var tax: Decimal
    }

    struct AddResponse: Encodable, Sendable {
        var message: String
        var product_details: ProductDetailsBody?
        var product_id: Int64?
        var success: Bool
    }

    /// Open to anyone: the iOS client sends no credentials (mounted only with `serve --public-api`).
    func addRoutes(to router: Routes) {
        let group = router.group("api/public")
        group.get("get", .open) { _, _ in
            let settings = try await self.repository.settings()
            let categories = Dictionary(try await self.repository.categories().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            var items: [ProductDetailsBody] = []
            var offset = 0
            while true {
                let page = try await self.repository.products(ProductQuery(limit: 1000, offset: offset))
                items += page.products.map { self.body($0, categoryName: $0.details.categoryID.flatMap { categories[$0] } ?? "", currency: settings.currency) }
                offset += 1000
                if offset >= page.total { break }
            }
            return JSON(items)
        }
        group.post("add", .open) { request, _ in
            do {
                return try await self.add(request)
            } catch let error as InventoryError {
                return try JSON(AddResponse(message: error.description, product_details: nil, product_id: nil, success: false), status: .badRequest).makeResponse()
            }
        }
    }

    func add(_ request: Request) async throws -> Response {
        guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType]) else {
            throw InventoryError(.invalidValue, field: "body", "send multipart/form-data with product_name, product_type, price and tax")
        }
        let body = try await request.body.collect(upTo: 12 << 20)
        guard let form = MultipartForm.parse(Array(body.readableBytesView), boundary: boundary) else {
            throw InventoryError(.invalidValue, field: "body", "the multipart body is malformed")
        }
        let settings = try await self.repository.settings()
        let name = form.field("product_name")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !name.isEmpty else { throw InventoryError(.missingValue, field: "product_name", "is required") }
        let type = form.field("product_type")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !type.isEmpty else { throw InventoryError(.missingValue, field: "product_type", "is required") }
        guard let priceText = form.field("price") else { throw InventoryError(.missingValue, field: "price", "is required") }
        // The client sends a Double's description (`1694.91525424`): rounded half away from zero to the minor unit,
        // exactly on its digits (the v1 API refuses such amounts).
        let price = try Money.parse(priceText, currency: settings.currency, field: "price", rounding: .halfAwayFromZero)
        guard let taxText = form.field("tax") else { throw InventoryError(.missingValue, field: "tax", "is required") }
        let tax = try Percent.parse(taxText, field: "tax")
        var details: ProductDetails
        do {
            details = try ProductDetails(name: name, salePrice: price, taxRate: tax).validated()
        } catch let error as InventoryError {
            // Errors name the client's fields, not the product's.
            let fields = ["name": "product_name", "salePrice": "price", "taxRate": "tax", "iconEmoji": "product_name"]
            throw InventoryError(error.code, field: error.field.map { fields[$0] ?? $0 }, error.userMessage)
        }
        let newCategory: Category
        do {
            newCategory = try Category(id: CategoryID(0), name: type).validated()
        } catch let error as InventoryError {
            throw InventoryError(error.code, field: "product_type", error.userMessage)
        }
        // Every picture is checked (size, format, declared dimensions) and the first one cleaned and decoded before
        // anything is written; only the first is kept, as before.
        let files = form.files("files[]") + form.files("files")
        for file in files { _ = try ImageStore.checkHeader(file.data, field: "files[]") }
        var prepared: ImageStore.Prepared?
        if let file = files.first { prepared = try await self.images.prepare(file.data, field: "files[]") }
        let saved = try prepared.map { try self.images.write($0, field: "files[]") }
        var createdCategory: CategoryID?
        let product: Product
        do {
            if let existing = try await self.repository.categories().first(where: { $0.name.lowercased() == newCategory.name.lowercased() }) {
                details.categoryID = existing.id
            } else {
                createdCategory = try await self.repository.createCategory(newCategory).id
                details.categoryID = createdCategory
            }
            details.imageRef = saved?.name
            product = try await self.repository.createProduct(details)
        } catch {
            // Nothing half-written: the picture and a category made for this product go again.
            if let saved { self.images.discard(saved) }
            if let createdCategory { try? await self.repository.deleteCategory(createdCategory) }
            throw error
        }
        let response = AddResponse(
            message: "Product added Successfully!",
            product_details: self.body(product, categoryName: newCategory.name, currency: settings.currency),
            product_id: product.id.rawValue, success: true)
        return try JSON(response).makeResponse()
    }

    func body(_ product: Product, categoryName: String, currency: Currency) -> ProductDetailsBody {
        ProductDetailsBody(
            image: product.details.imageRef.map { "\(self.publicURL)/images/\($0)" } ?? "",
            price: Decimal(string: product.details.salePrice.decimalString(currency)) ?? 0,
            product_name: product.name, product_type: categoryName,
            tax: Decimal(string: product.details.taxRate.decimalString) ?? 0)
    }
}

/// `GET /images/{name}` (content-addressed, cached for a year) and a product's picture upload.
struct ImageController<Repository: InventoryRepository> {
    let repository: Repository
    let images: ImageStore

    struct Uploaded: Encodable, Sendable {
        var imageRef: String
        var url: String
        var width: Int
        var height: Int
        /// Whether the picture was square; a non-square one is shown centre-cropped.
        var square: Bool
    }

    func addRoutes(to router: Routes, api: Routes) {
        router.get("images/:name", .open) { request, context in
            let name = context.parameters.get("name") ?? ""
            guard let (data, type) = self.images.load(name) else {
                throw Problem(.notFound, code: .notFound, title: "Not found", detail: "no picture named \(name)")
            }
            let etag = "\"\(name)\""
            if request.headers[.ifNoneMatch] == etag {
                return Response(status: .notModified, headers: [.eTag: etag])
            }
            return Response(status: .ok, headers: [.contentType: type, .eTag: etag, .cacheControl: "public, max-age=31536000, immutable"],
                            body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        api.put("products/:id/image", .permission(.editCatalogue)) { request, context in
            let id = ProductID(try request.id(context))
            var details = try await self.repository.product(id).details
            let body = try await request.body.collect(upTo: ImageStore.maxBytes + 1)
            let saved = try await self.images.save(Array(body.readableBytesView), field: "body")
            details.imageRef = saved.name
            do {
                _ = try await self.repository.updateProduct(id, details)
            } catch {
                self.images.discard(saved)
                throw error
            }
            return JSON(Uploaded(imageRef: saved.name, url: "/images/\(saved.name)", width: saved.width, height: saved.height, square: saved.isSquare))
        }
        api.delete("products/:id/image", .permission(.editCatalogue)) { request, context in
            let id = ProductID(try request.id(context))
            var details = try await self.repository.product(id).details
            details.imageRef = nil
            _ = try await self.repository.updateProduct(id, details)
            return Response(status: .noContent)
        }
    }
}
