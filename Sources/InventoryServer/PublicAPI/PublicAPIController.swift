import Foundation
import HTTPTypes
import Hummingbird
import InventoryDomain

/// The two endpoints the existing iOS client calls, without credentials: only mounted with `serve --public-api`.
///
/// `GET /api/public/get` answers a bare array of `{image, price, product_name, product_type, tax}`;
/// `POST /api/public/add` takes `multipart/form-data` with `product_name`, `product_type`, `price`, `tax` and
/// optional `files[]` (every picture is kept, the first as the main one, whose URL `image` is), and answers
/// `{message, product_details, product_id, success}`. A price with more decimals than the currency has is rounded half
/// away from zero to its minor unit (``Money/Rounding/halfAwayFromZero``).
struct PublicAPIController<Repository: CatalogueRepository & SettingsRepository> {
    let repository: Repository
    let images: ImageStore
    /// Where clients reach the server (`ServerConfiguration.resolvedPublicURL`): picture URLs start with it, never
    /// with the request's Host header.
    let publicURL: String

    /// Open to anyone: the iOS client sends no credentials (mounted only with `serve --public-api`).
    func addRoutes(to router: Routes) {
        let group = router.group("api/public")
        group.get("get", .open) { _, _ in
            let settings = try await self.repository.settings()
            let categories = Dictionary(try await self.repository.categories().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            var items: [PublicProductResponse] = []
            var offset = 0
            while true {
                let page = try await self.repository.products(ProductQuery(limit: 1000, offset: offset))
                items += page.products.map { self.body($0, categoryName: $0.details.categoryID.flatMap { categories[$0] } ?? "", settings: settings) }
                offset += 1000
                if offset >= page.total { break }
            }
            return JSON(items)
        }
        group.post("add", .open) { request, _ in
            do {
                // The iOS client sends no credentials: its adds are audited as its own.
                return try await Agent.$current.withValue(.publicAPI) { try await self.add(request) }
            } catch let error as InventoryError {
                return try JSON(PublicAddResponse(message: error.description, product_details: nil, product_id: nil, success: false), status: .badRequest).makeResponse()
            }
        }
    }

    func add(_ request: Request) async throws -> Response {
        guard let boundary = MultipartForm.boundary(contentType: request.headers.value(.contentType)) else {
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
            // The client's price is before tax; the shop's may include it.
            let shopPrice = TaxInclusion.shopPrice(beforeTax: price, rate: tax, pricesIncludeTax: settings.pricesIncludeTax)
            details = try ProductDetails(name: name, salePrice: shopPrice, taxRate: tax).validated()
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
        // Every picture is kept, the first as the main one. All of them are checked (size, format, declared
        // dimensions), then cleaned and decoded, before anything is written: one refused picture refuses the product.
        let files = form.files("files[]") + form.files("files")
        guard files.count <= ProductPictures.maximumCount else {
            throw InventoryError(.invalidValue, field: "files[]", "at most \(ProductPictures.maximumCount) pictures per product (\(files.count) sent)")
        }
        for file in files { _ = try ImageStore.checkHeader(file.data, field: "files[]") }
        var prepared: [ImageStore.Prepared] = []
        for file in files { prepared.append(try await self.images.prepare(file.data, field: "files[]")) }
        var createdCategory: CategoryID?
        let product: Product
        do {
            if let existing = try await self.repository.categories().first(where: { $0.name.lowercased() == newCategory.name.lowercased() }) {
                details.categoryID = existing.id
            } else {
                createdCategory = try await self.repository.createCategory(newCategory).id
                details.categoryID = createdCategory
            }
            let (repository, ready, names) = (self.repository, details, prepared.map(\.name))
            product = try await self.images.commit(prepared, field: "files[]") {
                (try await repository.createProduct(ready, pictures: names), released: [])
            }
        } catch {
            // Nothing half-written: the pictures (by commit) and a category made for this product go again.
            if let createdCategory { try? await self.repository.deleteCategory(createdCategory) }
            throw error
        }
        let response = PublicAddResponse(
            message: "Product added Successfully!",
            product_details: self.body(product, categoryName: newCategory.name, settings: settings),
            product_id: product.id.rawValue, success: true)
        return try JSON(response).makeResponse()
    }

    /// A product as the iOS client knows it: its price is always before tax, whatever the shop's prices mean.
    func body(_ product: Product, categoryName: String, settings: ShopSettings) -> PublicProductResponse {
        let price = TaxInclusion.priceBeforeTax(product.details.salePrice, rate: product.details.taxRate, pricesIncludeTax: settings.pricesIncludeTax)
        return PublicProductResponse(
            image: product.imageRef.map { "\(self.publicURL)/images/\($0)" } ?? "",
            price: Decimal(string: price.decimalString(settings.currency)) ?? 0,
            product_name: product.name, product_type: categoryName,
            tax: Decimal(string: product.details.taxRate.decimalString) ?? 0)
    }
}
