import Hummingbird

/// The OpenAPI 3.1 document of the API (see `OpenAPIDocument+JSON.swift`).
public enum OpenAPIDocument {
    /// The document's bytes, as served.
    public static var data: [UInt8] { Array(self.json.utf8) }
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
