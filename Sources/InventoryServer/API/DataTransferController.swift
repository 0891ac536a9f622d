import Hummingbird
import InventoryDomain

/// `GET /api/v1/export/{kind}?from=&to=` (a CSV file; the range for dated exports) and `POST /api/v1/import/products` (a products CSV, or a dry run of it).
struct DataTransferController<Store: DataTransferRepository & CatalogueRepository & SettingsRepository> {
    let store: Store

    func addRoutes(to api: Routes) {
        api.get("export/:kind", .permission(.viewReports), use: self.export)
        api.post("import/products", .permission(.importData), use: self.importProducts)
    }

    @Sendable func export(_ request: Request, context: some RequestContext) async throws -> Response {
        let name = context.parameters.get("kind") ?? ""
        guard let kind = ExportKind(rawValue: name.replacingOccurrences(of: ".csv", with: "")) else {
            throw InventoryError(.notFound, field: "kind", "no export named '\(name)'; try \(ExportKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let range = try await self.store.settings().calendar.range(from: request.query("from"), to: request.query("to"))
        return try CSVFile(text: try await self.store.exportCSV(kind, range: range), name: kind.rawValue).response(from: request, context: context)
    }

    /// Checks the whole file first: any bad row refuses the import (``ImportProblem``) and nothing is written.
    @Sendable func importProducts(_ request: Request, context: some RequestContext) async throws -> JSON<ImportResponse> {
        let dryRun = request.query("dryRun") == "true"
        let buffer = try await request.body.collect(upTo: 20 << 20)
        guard let text = String(bytes: buffer.readableBytesView, encoding: .utf8) else {
            throw InventoryError(.invalidValue, field: "body", "the file is not UTF-8 text")
        }
        let (f, _) = try await self.store.formats()
        var products: [Product] = []
        var offset = 0
        while true {
            let page = try await self.store.products(ProductQuery(includeArchived: true, limit: 1000, offset: offset))
            products += page.products
            offset += 1000
            if offset >= page.total { break }
        }
        switch ProductImport.plan(csv: text, currency: f.currency, existing: products, categories: try await self.store.categories()) {
        case .failure(let failure):
            throw ImportProblem(failure: failure)
        case .success(let plan):
            let imported = dryRun ? nil : try await self.store.importProducts(plan)
            return JSON(ImportResponse(plan, imported: imported))
        }
    }
}
