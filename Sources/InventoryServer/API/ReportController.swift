import BarcodeImage
import BarcodeReader
import Foundation
import Hummingbird
import InventoryDomain

/// `/api/v1/reports/…`, CSV export and import, settings and barcode decoding.
struct ReportController<Repository: InventoryRepository> {
    let repository: Repository
    let reader: BarcodeReader

    struct SnapshotResponse: Encodable, Sendable {
        var at: String
        var totalQuantity: String
        var totalValue: String
        var lines: [Line]
        struct Line: Encodable, Sendable {
            var productId: Int64
            var name: String
            var quantity: String
            var value: String
            /// The average cost, value ÷ quantity rounded once (``LedgerBalance/roundedAverageCost``).
            var averageCost: String
            /// The same at full precision.
            var averageCostExact: String
        }
    }

    struct DailyResponse: Encodable, Sendable {
        var date: String
        var grossSales: String
        var discounts: String
        var returns: String
        var revenue: String
        var tax: String
        var tips: String
        var costOfGoodsSold: String
        var profit: String
        var salesCount: Int
        var averageBasket: String
    }

    struct TopResponse: Encodable, Sendable {
        var productId: Int64
        var name: String
        var quantity: String
        var revenue: String
    }

    struct LowStockResponse: Encodable, Sendable {
        var productId: Int64
        var name: String
        var quantity: String
        var threshold: String
        var unit: String
        var status: String
    }

    struct ValuationResponse: Encodable, Sendable {
        var categoryId: Int64?
        var name: String
        var productCount: Int
        var quantity: String
        var value: String
    }

    struct ExpiringResponse: Encodable, Sendable {
        var productId: Int64
        var name: String
        var lotCode: String?
        var expiryDate: String
        var stockQuantity: String
    }

    struct SettingsBody: Codable, Sendable {
        var shopName: String
        var currency: String
        var timeZone: String
        var defaultTaxRate: String
        var lowStockDefault: String
        var lockMinutes: Int
    }

    struct ImportResponse: Encodable, Sendable {
        var dryRun: Bool
        var created: Int
        var updated: Int
        var unchanged: Int
        var newCategories: [String]
        var rows: [Row]
        struct Row: Encodable, Sendable {
            var line: Int
            var action: String
            var productId: Int64?
            var name: String
            var changedFields: [String]
        }
    }

    struct DecodeResponse: Encodable, Sendable {
        var width: Int
        var height: Int
        var milliseconds: Int
        var barcodes: [Code]
        struct Code: Encodable, Sendable {
            var format: String
            var text: String
            var product: ProductController<Repository>.ProductResponse?
        }
    }

    func formats() async throws -> (Formats, ShopSettings) { try await self.repository.formats() }

    func addRoutes(to api: Routes) {
        let reports = api.group("reports")
        reports.get("snapshot", .permission(.viewReports)) { request, _ in JSON(try await self.snapshot(at: request.query("at"))) }
        reports.get("daily", .permission(.viewReports)) { request, _ in
            JSON(try await self.daily(date: request.query("date"), from: request.query("from"), to: request.query("to")))
        }
        reports.get("top", .permission(.viewReports)) { request, _ in
            JSON(try await self.top(from: request.query("from"), to: request.query("to"), limit: try request.queryInt("limit", default: 10, range: 1...1000),
                                    by: request.query("by")))
        }
        reports.get("low-stock", .permission(.viewCatalogue)) { _, _ in JSON(try await self.lowStock()) }
        reports.get("valuation", .permission(.viewReports)) { _, _ in JSON(try await self.valuation()) }
        reports.get("expiring", .permission(.viewCatalogue)) { request, _ in
            let (f, _) = try await self.formats()
            let days = try request.queryInt("days", default: 3, range: 0...3650)
            let through = ShopCalendar.isoDate(f.calendar.addingDays(days, to: f.calendar.dayNumber(.now)))
            return JSON(try await self.repository.expiringLots(through: through).map {
                ExpiringResponse(productId: $0.productID.rawValue, name: $0.name, lotCode: $0.lotCode, expiryDate: $0.expiryDate, stockQuantity: $0.stockQuantity.decimalString)
            })
        }

        api.get("export/:kind", .permission(.viewReports)) { _, context in
            let name = context.parameters.get("kind") ?? ""
            guard let kind = ExportKind(rawValue: name.replacingOccurrences(of: ".csv", with: "")) else {
                throw InventoryError(.notFound, field: "kind", "no export named '\(name)'; try \(ExportKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let text = try await self.repository.exportCSV(kind)
            return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8",
                                                   .contentDisposition: "attachment; filename=\"stockroom-\(kind.rawValue).csv\""],
                            body: .init(byteBuffer: ByteBuffer(string: text)))
        }

        api.post("import/products", .permission(.importData)) { request, _ in
            let dryRun = request.query("dryRun") == "true"
            let buffer = try await request.body.collect(upTo: 20 << 20)
            guard let text = String(bytes: buffer.readableBytesView, encoding: .utf8) else {
                throw InventoryError(.invalidValue, field: "body", "the file is not UTF-8 text")
            }
            let (f, _) = try await self.formats()
            var products: [Product] = []
            var offset = 0
            while true {
                let page = try await self.repository.products(ProductQuery(includeArchived: true, limit: 1000, offset: offset))
                products += page.products
                offset += 1000
                if offset >= page.total { break }
            }
            switch ProductImport.plan(csv: text, currency: f.currency, existing: products, categories: try await self.repository.categories()) {
            case .failure(let failure):
                throw ImportProblem(failure: failure)
            case .success(let plan):
                let imported = dryRun ? nil : try await self.repository.importProducts(plan)
                return JSON(Self.importResponse(plan, imported: imported))
            }
        }

        api.get("settings", .signedIn) { _, _ in JSON(Self.body(try await self.repository.settings())) }
        api.put("settings", .permission(.manageSettings)) { request, context in
            let body = try await request.decodeJSON(as: SettingsBody.self, context: context)
            let settings = ShopSettings(
                shopName: body.shopName, currency: try Currency(isoCode: body.currency), timeZoneIdentifier: body.timeZone,
                defaultTaxRate: try Percent.parse(body.defaultTaxRate, field: "defaultTaxRate"),
                lowStockDefault: try Quantity.parse(body.lowStockDefault, field: "lowStockDefault"), lockMinutes: body.lockMinutes)
            try await self.repository.saveSettings(settings)
            return JSON(Self.body(try await self.repository.settings()))
        }

        api.post("barcodes/decode", .permission(.scan)) { request, _ in
            let buffer = try await request.body.collect(upTo: 8 << 20)
            let bytes = Array(buffer.readableBytesView)
            let frame: GrayscaleImage?
            if let width = request.query("width"), let height = request.query("height") {
                guard let w = Int(width), let h = Int(height), w > 0, h > 0, w <= 8192, h <= 8192,
                      let gray = GrayscaleImage(width: w, height: h, pixels: bytes) else {
                    throw InventoryError(.invalidValue, field: "width", "a raw frame needs width × height bytes (got \(bytes.count))")
                }
                frame = gray
            } else {
                frame = nil
                // The declared size is checked before anything is decoded (ImageLimits.barcode: 12,000 px a side, 40 MP).
                do throws(ImageLoadError) {
                    try ImageHeader.read(bytes).check(.barcode)
                } catch {
                    throw Self.refusal(error)
                }
            }
            // Decoding and reading run behind the process-wide gate (two at a time), off the request threads.
            let reader = self.reader
            let outcome = await ImageDecodeGate.shared.run { () -> Result<(GrayscaleImage, [DecodedBarcode], Duration), ImageLoadError> in
                do throws(ImageLoadError) {
                    let image: GrayscaleImage
                    if let frame { image = frame } else { image = try ImageLoader.decode(bytes, limits: .barcode) }
                    let clock = ContinuousClock()
                    let start = clock.now
                    let found = reader.decode(image)
                    return .success((image, found, clock.now - start))
                } catch {
                    return .failure(error)
                }
            }
            let image: GrayscaleImage, found: [DecodedBarcode], elapsed: Duration
            switch outcome {
            case .success(let result): (image, found, elapsed) = result
            case .failure(let error): throw Self.refusal(error)
            }
            let (f, _) = try await self.formats()
            let thresholds = try await self.repository.stockThresholds()
            var codes: [DecodeResponse.Code] = []
            for code in found {
                let product = try await self.repository.product(barcode: code.text)
                codes.append(.init(format: code.format.rawValue, text: code.text,
                                   product: product.map { ProductController<Repository>.ProductResponse($0, formats: f, thresholds: thresholds) }))
            }
            let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
            return JSON(DecodeResponse(width: image.width, height: image.height, milliseconds: ms, barcodes: codes))
        }
    }

    // MARK: Reports (the routes and the command line's `report … --format json` answer these)

    /// `GET /reports/snapshot?at=`: stock at the end of a day or at an instant, now when `at` is nil.
    func snapshot(at text: String?) async throws -> SnapshotResponse {
        let (f, _) = try await self.formats()
        let at = try text.map { try f.calendar.parseDateTime($0, field: "at", endOfDay: true) } ?? Instant.now
        let snapshot = try await self.repository.snapshot(at: at)
        return SnapshotResponse(
            at: f.string(at), totalQuantity: snapshot.totalQuantity.decimalString, totalValue: f.string(snapshot.totalValue),
            lines: snapshot.lines.map { .init(productId: $0.productID.rawValue, name: $0.name, quantity: $0.quantity.decimalString, value: f.string($0.value),
                                             averageCost: f.string($0.balance.roundedAverageCost), averageCostExact: f.exactString($0.averageCost)) })
    }

    /// `GET /reports/daily?date=|from=&to=`: one row a day, today when no day is given.
    func daily(date: String?, from: String?, to: String?) async throws -> [DailyResponse] {
        let (f, _) = try await self.formats()
        let today = f.calendar.dayNumber(.now)
        let single = try date.map { try f.day($0, field: "date") }
        let from = try single ?? from.map { try f.day($0, field: "from") } ?? today
        let to = try single ?? to.map { try f.day($0, field: "to") } ?? today
        guard f.calendar.days(from: from, through: to).count <= 3660 else {
            throw InventoryError(.invalidValue, field: "to", "a range may span at most ten years")
        }
        return try await self.repository.daily(from: from, to: to).map {
            DailyResponse(date: ShopCalendar.isoDate($0.day), grossSales: f.string($0.grossSales), discounts: f.string($0.discounts), returns: f.string($0.returns),
                          revenue: f.string($0.revenue), tax: f.string($0.tax), tips: f.string($0.tips), costOfGoodsSold: f.string($0.costOfGoodsSold),
                          profit: f.string($0.profit), salesCount: $0.salesCount, averageBasket: f.string($0.averageBasket))
        }
    }

    /// `GET /reports/top?from=&to=&limit=&by=`: best sellers, the last 30 days by default.
    func top(from: String?, to: String?, limit: Int, by: String?) async throws -> [TopResponse] {
        let (f, _) = try await self.formats()
        let to = try to.map { try f.calendar.parseDateTime($0, field: "to", endOfDay: true) } ?? Instant.now
        let from = try from.map { try f.calendar.parseDateTime($0, field: "from") }
            ?? f.calendar.startOfDay(f.calendar.addingDays(-29, to: f.calendar.dayNumber(to)))
        let metric = try by.map { text in
            guard let metric = TopProductMetric(rawValue: text) else { throw InventoryError(.invalidValue, field: "by", "must be quantity or revenue") }
            return metric
        } ?? .quantity
        return try await self.repository.topProducts(from: from, to: to, by: metric, limit: limit).map {
            TopResponse(productId: $0.productID.rawValue, name: $0.name, quantity: $0.quantity.decimalString, revenue: f.string($0.revenue))
        }
    }

    /// `GET /reports/low-stock`.
    func lowStock() async throws -> [LowStockResponse] {
        try await self.repository.lowStock().map {
            LowStockResponse(productId: $0.productID.rawValue, name: $0.name, quantity: $0.quantity.decimalString,
                             threshold: $0.threshold.decimalString, unit: $0.unit, status: $0.status.rawValue)
        }
    }

    /// `GET /reports/valuation`.
    func valuation() async throws -> [ValuationResponse] {
        let (f, _) = try await self.formats()
        return try await self.repository.valuation().map {
            ValuationResponse(categoryId: $0.categoryID?.rawValue, name: $0.name, productCount: $0.productCount,
                              quantity: $0.quantity.decimalString, value: f.string($0.value))
        }
    }

    /// `POST /import/products`'s answer (and the command line's `import products --format json`) for a checked plan:
    /// what was imported, or with `imported` nil (a dry run) what would be.
    static func importResponse(_ plan: ProductImport, imported: (created: Int, updated: Int)?) -> ImportResponse {
        let wouldCreate = plan.rows.filter { $0.productID == nil }.count
        let (created, updated) = imported ?? (wouldCreate, plan.rows.count - wouldCreate)
        return ImportResponse(
            dryRun: imported == nil, created: created, updated: updated, unchanged: plan.unchangedCount, newCategories: plan.newCategories,
            rows: plan.rows.map { .init(line: $0.line, action: $0.productID == nil ? "create" : "update", productId: $0.productID?.rawValue,
                                        name: $0.details.name, changedFields: $0.changedFields) })
    }

    /// A picture sent for decoding that is refused, on the `body` field.
    static func refusal(_ error: ImageLoadError) -> InventoryError {
        error.code == .tooLarge
            ? InventoryError(.invalidValue, field: "body", error.message)
            : InventoryError(.invalidValue, field: "body", "not a readable PNG or JPEG image: \(error.description)")
    }

    static func body(_ s: ShopSettings) -> SettingsBody {
        SettingsBody(shopName: s.shopName, currency: s.currency.code, timeZone: s.timeZoneIdentifier, defaultTaxRate: s.defaultTaxRate.decimalString,
                     lowStockDefault: s.lowStockDefault.decimalString, lockMinutes: s.lockMinutes)
    }
}

/// A refused import: every bad row with its line, as a problem document.
struct ImportProblem: Error, HTTPResponseError {
    var failure: ProductImportFailure
    var status: HTTPResponse.Status { .unprocessableContent }

    struct Body: Encodable {
        var type = "https://stockroom.invalid/problems/\(ProblemCode.invalidImport.rawValue)"
        var title = "Import refused"
        var status = 422
        var detail: String
        var code = ProblemCode.invalidImport
        var errors: [Entry]
        struct Entry: Encodable {
            var line: Int
            var field: String?
            var message: String
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = Body(detail: "\(self.failure.problems.count) problem(s); nothing was written",
                        errors: self.failure.problems.map { .init(line: $0.line, field: $0.field, message: $0.message) })
        let data = try JSONEncoder().encode(body)
        return Response(status: self.status, headers: [.contentType: "application/problem+json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension ReportController.SettingsBody: KnownFields {
    static var fields: [String] { ["shopName", "currency", "timeZone", "defaultTaxRate", "lowStockDefault", "lockMinutes"] }
}
