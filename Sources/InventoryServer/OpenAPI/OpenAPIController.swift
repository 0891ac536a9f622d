import Foundation
import Hummingbird

/// The OpenAPI 3.1 document of the whole HTTP API: the resource file `Resources/openapi.json`, served at
/// `GET /api/openapi.json`.
///
/// Keep it true: OpenAPITests checks that every route of the router is documented and every documented route exists
/// and that real answers match their schemas, and scripts/schemathesis.sh (run by scripts/test.sh) fuzzes a live
/// server against it.
public enum OpenAPIDocument {
    /// The document's bytes, as served (empty when the resource is missing, which the tests catch).
    public static let data: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"), let data = try? Data(contentsOf: url) else { return [] }
        return Array(data)
    }()

    /// The document as JSON text.
    public static var json: String { String(decoding: self.data, as: UTF8.self) }
}

/// `GET /api/openapi.json`: the OpenAPI document, open to anyone.
struct OpenAPIController {
    func addRoutes(to router: Routes) {
        router.get("api/openapi.json", .open) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.data)))
        }
    }
}
