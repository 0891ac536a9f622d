import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InventoryDomain
@testable import InventoryServer
import InventoryStore
import Testing

/// The OpenAPI document (`GET /api/openapi.json`) against the real router: every route documented, every documented
/// route real, the document well-formed, and real responses in the shapes it promises.
@Suite struct OpenAPITests {
    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// The parsed document.
    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    }

    /// Every documented operation as `METHOD /path` with its operation object.
    static func operations(_ document: [String: Any]) -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in item where self.methods.contains(method) {
                result["\(method.uppercased()) \(path)"] = operation as? [String: Any] ?? [:]
            }
        }
        return result
    }

    /// The router with every optional part mounted (the public iOS endpoints too).
    static func router() throws -> Router<AppRequestContext> {
        let store = try InventorySQLiteRepository.inMemory()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-openapi-\(UUID().uuidString)").path
        var configuration = ServerConfiguration(secrets: testSecrets, dataFolder: folder, publicAPI: true)
        configuration.metrics = ServerMetrics.bootstrap()
        return buildRouter(repository: store, configuration: configuration)
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
        // The web app's HTML screens and static files are not part of the JSON API.
        let webApp = ["/", "/login", "/setup", "/lock", "/favicon.ico", "/manifest.webmanifest", "/sw.js"]
        let routes = Set(try Self.router().routes.map { "\($0.method.rawValue) \($0.path.description)" }.filter { route in
            let path = String(route.drop { $0 != " " }.dropFirst())
            return !webApp.contains(path) && !path.hasPrefix("/app") && !path.hasPrefix("/static/")
        })
        let documented = Set(Self.operations(try Self.document()).keys)
        #expect(routes.count > 50)
        let undocumented = routes.subtracting(documented).sorted()
        let missing = documented.subtracting(routes).sorted()
        #expect(undocumented.isEmpty, "routes missing from the OpenAPI document: \(undocumented)")
        #expect(missing.isEmpty, "documented routes the router does not have: \(missing)")
    }

    @Test func servedDocumentIsTheDocumentAndOpenToAll() async throws {
        let (app, _) = try makeApp()
        try await app.test(.router) { client in
            let reply = try await client.call(.get, "/api/openapi.json")
            #expect(reply.status == 200)
            #expect(reply.contentType?.hasPrefix("application/json") == true)
            #expect(reply.text == OpenAPIDocument.json)
            #expect(reply.object["openapi"] as? String == "3.1.0")
        }
    }

    /// The audit's `changes[].field` enum is the domain's list of fields (schemathesis found a new setting's field
    /// answered outside the document).
    @Test func theAuditsChangedFieldsAreTheDomainsFields() throws {
        let schemas = try #require((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let entry = try #require(schemas["AuditEntry"] as? [String: Any])
        let changes = try #require((entry["properties"] as? [String: Any])?["changes"] as? [String: Any])
        #expect((changes["items"] as? [String: Any])?["$ref"] as? String == "#/components/schemas/ActivityChange")
        let change = try #require(schemas["ActivityChange"] as? [String: Any])
        let field = try #require((change["properties"] as? [String: Any])?["field"] as? [String: Any])
        #expect(field["enum"] as? [String] == ShopActivity.Change.Field.allCases.map(\.rawValue))
    }

    @Test func documentIsWellFormed() throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        let operations = Self.operations(document)
        // Every $ref points at something.
        var refs: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let ref = object["$ref"] as? String { refs.append(ref) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        for ref in Set(refs) {
            #expect(ref.hasPrefix("#/"), "\(ref) is not local")
            #expect(Self.resolve(ref, in: document) != nil, "\(ref) points at nothing")
        }
        // Unique operation ids; each with a success answer and the problem answer; path parameters declared.
        var ids: Set<String> = []
        let pathItems = document["paths"] as? [String: [String: Any]] ?? [:]
        for (key, operation) in operations {
            let id = operation["operationId"] as? String ?? ""
            #expect(!id.isEmpty && ids.insert(id).inserted, "\(key): missing or repeated operationId '\(id)'")
            let responses = operation["responses"] as? [String: Any] ?? [:]
            #expect(responses.keys.contains { $0.hasPrefix("2") }, "\(key) documents no success response")
            if !["GET /health", "GET /api/openapi.json"].contains(key) {
                #expect(responses["4XX"] != nil, "\(key) does not document its problem responses")
            }
            let path = String(key.split(separator: " ")[1])
            let templated = Set(path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
            let parameters = ((pathItems[path]?["parameters"] as? [Any] ?? []) + (operation["parameters"] as? [Any] ?? []))
                .compactMap { Self.deref($0, in: document) as? [String: Any] }
            let declared = Set(parameters.filter { $0["in"] as? String == "path" }.compactMap { $0["name"] as? String })
            #expect(templated == declared, "\(key): path parameters \(templated.sorted()) but declared \(declared.sorted())")
        }
    }

    /// An operation needs no credentials exactly when its route is declared open.
    @Test func openOperationsAreTheOpenRoutes() throws {
        let document = try Self.document()
        let declared = try declaredAccess()
        for (key, operation) in Self.operations(document) {
            let documentedOpen = (operation["security"] as? [[String: Any]]).map { $0.isEmpty || $0.contains { $0.isEmpty } } ?? false
            let open = declared[key] == .open
            #expect(documentedOpen == open, "\(key): the document says \(documentedOpen ? "open" : "signed in") but the server says \(open ? "open" : "signed in")")
        }
    }

    /// Real answers of the read endpoints, over a small shop, have the documented shapes.
    @Test func realResponsesMatchTheirSchemas() async throws {
        let (app, store) = try makeApp(publicAPI: true)
        let admin = try await token(store, role: .admin)
        try await app.test(.router) { raw in
            let document = try Self.document()
            let operations = Self.operations(document)
            let client = Caller(client: raw, token: admin)
            var checked = 0
            func check(_ method: HTTPRequest.Method, _ uri: String, _ template: String, _ body: String? = nil) async throws -> Reply {
                let reply = try await client.call(method, uri, body)
                let key = "\(method.rawValue) \(template)"
                let responses = try #require(operations[key]?["responses"] as? [String: Any], "\(key) is not documented")
                let response = Self.deref(responses[String(reply.status)] ?? responses["\(reply.status / 100)XX"] as Any, in: document) as? [String: Any]
                #expect(response != nil, "\(key) answered \(reply.status), which is not documented: \(reply.text)")
                let mediaType = reply.contentType?.split(separator: ";").first.map(String.init) ?? ""
                let content = response?["content"] as? [String: Any] ?? [:]
                if reply.status != 204 {
                    #expect(content[mediaType] != nil, "\(key) answered \(mediaType), documented \(content.keys.sorted())")
                }
                if mediaType.hasSuffix("json"), let schema = (content[mediaType] as? [String: Any])?["schema"],
                   let json = try? JSONDecoder().decode(JSONValue.self, from: Data(reply.text.utf8)) {
                    let errors = Self.validate(json, against: schema, in: document, at: "")
                    #expect(errors.isEmpty, "\(key) → \(reply.status): \(errors.prefix(5))")
                }
                checked += 1
                return reply
            }
            let category = try await check(.post, "/api/v1/categories", "/api/v1/categories", ##"{"name":"Coffee","color":"#92400e","lowStockThreshold":"5","markup":"50"}"##)
            let categoryID = try #require(category.object["id"] as? Int)
            let supplier = try await check(.post, "/api/v1/suppliers", "/api/v1/suppliers", #"{"name":"Roastery","location":"Hamburg"}"#)
            let supplierID = try #require(supplier.object["id"] as? Int)
            let customer = try await check(.post, "/api/v1/customers", "/api/v1/customers", #"{"name":"Ada","email":"ada@example.com"}"#)
            let customerID = try #require(customer.object["id"] as? Int)
            let purchase = try await check(.post, "/api/v1/purchases", "/api/v1/purchases", """
                {"effectiveAt":"2026-03-01T09:00:00Z","supplierId":\(supplierID),"lines":[{"newProduct":{"name":"Espresso beans","sku":"ESP-1",
                 "categoryId":\(categoryID),"salePrice":"4.00","minimumSalePrice":"3.00","lowStockThreshold":"50","barcode":"4006381333931"},
                 "quantity":"10","unitCost":"2.00","lotCode":"L1","expiryDate":"2026-03-03"}]}
                """)
            let purchaseID = try #require(purchase.object["id"] as? Int)
            let productID = try #require((purchase.object["lines"] as? [[String: Any]])?.first?["productId"] as? Int)
            let sale = try await check(.post, "/api/v1/sales", "/api/v1/sales", """
                {"effectiveAt":"2026-03-03T10:00:00Z","customerId":\(customerID),"tip":"1","lines":[{"productId":\(productID),"quantity":"2","discount":"0.50"}]}
                """)
            let saleID = try #require(sale.object["id"] as? Int)
            _ = try await check(.post, "/api/v1/sales?dryRun=true", "/api/v1/sales", #"{"lines":[{"productId":\#(productID),"quantity":"1"}]}"#)
            _ = try await check(.post, "/api/v1/purchases?dryRun=true", "/api/v1/purchases", #"{"lines":[{"productId":\#(productID),"quantity":"1","unitCost":"1.50"}]}"#)
            let saleLine = try #require((sale.object["lines"] as? [[String: Any]])?.first?["id"] as? Int)
            _ = try await check(.post, "/api/v1/returns/customer", "/api/v1/returns/customer",
                                #"{"saleId":\#(saleID),"lines":[{"saleLineId":\#(saleLine),"quantity":"1"}]}"#)
            _ = try await check(.post, "/api/v1/adjustments", "/api/v1/adjustments",
                                #"{"productId":\#(productID),"quantityChange":"-1","reason":"damage"}"#)
            let gets: [(String, String)] = [
                ("/api/v1/products?search=esp", "/api/v1/products"), ("/api/v1/products/\(productID)", "/api/v1/products/{id}"),
                ("/api/v1/products/barcode/4006381333931", "/api/v1/products/barcode/{code}"),
                ("/api/v1/products/\(productID)/movements", "/api/v1/products/{id}/movements"),
                ("/api/v1/products/\(productID)/price-suggestion", "/api/v1/products/{id}/price-suggestion"),
                ("/api/v1/products/\(productID)/price-suggestion?categoryId=999", "/api/v1/products/{id}/price-suggestion"),
                ("/api/v1/products/999", "/api/v1/products/{id}"), ("/api/v1/products/abc", "/api/v1/products/{id}"),
                ("/api/v1/categories", "/api/v1/categories"), ("/api/v1/suppliers", "/api/v1/suppliers"), ("/api/v1/customers", "/api/v1/customers"),
                ("/api/v1/purchases", "/api/v1/purchases"), ("/api/v1/purchases/\(purchaseID)", "/api/v1/purchases/{id}"),
                ("/api/v1/sales", "/api/v1/sales"), ("/api/v1/sales/\(saleID)", "/api/v1/sales/{id}"),
                ("/api/v1/reports/snapshot?at=2026-03-02", "/api/v1/reports/snapshot"), ("/api/v1/reports/daily?date=2026-03-03", "/api/v1/reports/daily"),
                ("/api/v1/reports/daily/total?from=2026-03-01&to=2026-03-31", "/api/v1/reports/daily/total"),
                ("/api/v1/reports/top?from=2026-03-01&to=2026-03-31", "/api/v1/reports/top"), ("/api/v1/reports/low-stock", "/api/v1/reports/low-stock"),
                ("/api/v1/reports/valuation", "/api/v1/reports/valuation"), ("/api/v1/reports/expiring?days=3650", "/api/v1/reports/expiring"),
                ("/api/v1/export/products", "/api/v1/export/{kind}"), ("/api/v1/export/nothing", "/api/v1/export/{kind}"),
                ("/api/v1/settings", "/api/v1/settings"), ("/api/v1/auth/status", "/api/v1/auth/status"), ("/api/v1/auth/me", "/api/v1/auth/me"),
                ("/api/v1/users", "/api/v1/users"), ("/api/v1/tokens", "/api/v1/tokens"), ("/api/v1/audit", "/api/v1/audit"),
                ("/api/public/get", "/api/public/get"), ("/health", "/health"), ("/api/openapi.json", "/api/openapi.json"),
            ]
            for (uri, template) in gets { _ = try await check(.get, uri, template) }
            _ = try await check(.put, "/api/v1/products/\(productID)", "/api/v1/products/{id}", #"{"name":"Espresso","barcode":"4006381333931"}"#)
            _ = try await check(.patch, "/api/v1/products/\(productID)", "/api/v1/products/{id}", #"{"salePrice":"4.50","sku":null}"#)
            _ = try await check(.patch, "/api/v1/products/\(productID)", "/api/v1/products/{id}", #"{"colour":"red"}"#)
            _ = try await check(.post, "/api/v1/products/\(productID)/archive", "/api/v1/products/{id}/archive")
            _ = try await check(.post, "/api/v1/products/\(productID)/restore", "/api/v1/products/{id}/restore")
            _ = try await check(.post, "/api/v1/tokens", "/api/v1/tokens", #"{"name":"till"}"#)
            _ = try await check(.post, "/api/v1/auth/clock-in", "/api/v1/auth/clock-in")
            _ = try await check(.post, "/api/v1/auth/clock-out", "/api/v1/auth/clock-out")
            _ = try await check(.post, "/api/v1/auth/clock-out", "/api/v1/auth/clock-out")
            _ = try await check(.get, "/api/v1/shifts", "/api/v1/shifts")
            _ = try await check(.get, "/api/v1/backup", "/api/v1/backup")
            _ = try await check(.post, "/api/v1/import/products?dryRun=true", "/api/v1/import/products", "name,salePrice\nTea,2.50\n")
            _ = try await check(.post, "/api/v1/import/products", "/api/v1/import/products", "name,salePrice\nTea,lots\n")
            _ = try await check(.post, "/api/v1/products", "/api/v1/products", #"{"name":"X","colour":"red"}"#)
            _ = try await check(.delete, "/api/v1/products/\(productID)", "/api/v1/products/{id}")
            #expect(checked > 40)
        }
    }

    /// schemathesis's first find: a 10^15-unit adjustment overflowed the ledger's sums and stopped the server.
    @Test func hugeAmountsAndQuantitiesAreRefused() async throws {
        let (app, store) = try makeApp()
        let admin = try await token(store, role: .admin)
        let product = try await store.createProduct(ProductDetails(name: "Milk", salePrice: Money(minorUnits: 150)))
        try await app.test(.router) { raw in
            let client = Caller(client: raw, token: admin)
            let cases: [(String, String, Int, String?)] = [
                ("/api/v1/adjustments", #"{"productId":\#(product.id),"quantityChange":"999999999999999","reason":"count","unitCost":"5"}"#, 422, "quantityChange"),
                ("/api/v1/adjustments", #"{"productId":\#(product.id),"quantityChange":"5","reason":"count","unitCost":"99999999999999"}"#, 422, "unitCost"),
                ("/api/v1/purchases", #"{"lines":[{"productId":\#(product.id),"quantity":"1000000.001","unitCost":"1"}]}"#, 422, "lines[0].quantity"),
                ("/api/v1/sales", #"{"lines":[{"productId":\#(product.id),"quantity":"1","unitPrice":"10000000.01"}]}"#, 422, "lines[0].unitPrice"),
                ("/api/v1/products", #"{"name":"Gold","salePrice":"10000000.01"}"#, 422, "salePrice"),
                ("/api/v1/adjustments", #"{"productId":\#(product.id),"quantityChange":"1000000","reason":"count","unitCost":"10000000"}"#, 201, nil),
            ]
            for (uri, body, status, field) in cases {
                let reply = try await client.call(.post, uri, body)
                #expect(reply.status == status, "\(uri) \(body): \(reply.text)")
                #expect(reply.object["field"] as? String == field, "\(uri) \(body): \(reply.text)")
            }
            let lines = (0...maximumDocumentLines).map { _ in #"{"productId":\#(product.id),"quantity":"1","unitCost":"1"}"# }.joined(separator: ",")
            let tooMany = try await client.call(.post, "/api/v1/purchases", #"{"lines":[\#(lines)]}"#)
            #expect(tooMany.status == 422 && tooMany.object["field"] as? String == "lines", "\(tooMany.text)")
        }
    }

    @Test func schemaCheckCatchesDrift() throws {
        let document = try Self.document()
        let good = ##"{"id":1,"name":"Tea","color":"#fff","markup":"0"}"##
        let bad = ##"{"id":"1","name":"Tea","colour":"#fff","markup":"lots"}"##
        let schema = ["$ref": "#/components/schemas/Category"]
        #expect(Self.validate(try JSONDecoder().decode(JSONValue.self, from: Data(good.utf8)), against: schema, in: document, at: "").isEmpty)
        let errors = Self.validate(try JSONDecoder().decode(JSONValue.self, from: Data(bad.utf8)), against: schema, in: document, at: "")
        #expect(Set(errors) == [".id: '1' is not of type integer", ".color: missing", ".colour: not documented", ".markup: 'lots' does not match ^-?[0-9]+(\\.[0-9]+)?$"])
    }

    // MARK: A small JSON Schema check (the keywords the document uses)

    static func resolve(_ ref: String, in document: [String: Any]) -> Any? {
        var node: Any? = document
        for part in ref.dropFirst(2).split(separator: "/") {
            node = (node as? [String: Any])?[String(part).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")]
        }
        return node
    }

    static func deref(_ value: Any, in document: [String: Any]) -> Any? {
        var value: Any? = value
        while let ref = (value as? [String: Any])?["$ref"] as? String { value = self.resolve(ref, in: document) }
        return value
    }

    static func validate(_ value: JSONValue, against schemaValue: Any, in document: [String: Any], at path: String) -> [String] {
        guard var schema = schemaValue as? [String: Any] else { return [] }
        var errors: [String] = []
        if let ref = schema["$ref"] as? String {
            errors += self.validate(value, against: self.resolve(ref, in: document) as Any, in: document, at: path)
            schema["$ref"] = nil
        }
        for part in schema["allOf"] as? [Any] ?? [] { errors += self.validate(value, against: part, in: document, at: path) }
        switch (schema["type"] as? String, value) {
        case (nil, _): break
        case ("object", .object(let object)):
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil { errors.append("\(path).\(name): missing") }
            for (name, member) in object {
                if let property = properties[name] {
                    errors += self.validate(member, against: property, in: document, at: "\(path).\(name)")
                } else if schema["additionalProperties"] as? Bool == false {
                    errors.append("\(path).\(name): not documented")
                }
            }
        case ("array", .array(let array)):
            for (index, item) in array.enumerated() {
                errors += self.validate(item, against: schema["items"] as Any, in: document, at: "\(path)[\(index)]")
            }
        case ("string", .string(let text)):
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(path): '\(text)' does not match \(pattern)")
            }
            if let values = schema["enum"] as? [String], !values.contains(text) { errors.append("\(path): '\(text)' not in \(values)") }
        case ("integer", .integer), ("number", .integer), ("number", .number), ("boolean", .bool): break
        case (let type?, _): errors.append("\(path): \(value) is not of type \(type)")
        }
        return errors
    }
}

/// Any JSON value, decoded strictly (a number is never a boolean).
enum JSONValue: Decodable, CustomStringConvertible {
    case object([String: JSONValue]), array([JSONValue]), string(String), integer(Int64), number(Double), bool(Bool), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var description: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): "'\(text)'"
        case .integer(let number): "\(number)"
        case .number(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        case .null: "null"
        }
    }
}
