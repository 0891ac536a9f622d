import InventoryDomain

/// One of a product's pictures as the API shows it (in a product's `pictures`, main first).
struct PictureResponse: Codable, Sendable, Equatable {
    /// The stored picture's name.
    var imageRef: String
    /// Where it is served: `/images/<imageRef>`.
    var url: String

    init(_ name: String) {
        self.imageRef = name
        self.url = "/images/\(name)"
    }
}

extension PictureResponse: SortedJSONWritable {
    func writeSortedJSON(to object: inout SortedJSONObject) {
        object.string("imageRef", self.imageRef)
        object.string("url", self.url)
    }
}

/// `PUT /api/v1/products/{id}/image` (and `added` in a ``PictureList``): the picture as stored.
struct UploadedPicture: Encodable, Sendable {
    var imageRef: String
    var url: String
    var width: Int
    var height: Int
    /// Whether the picture was square; a non-square one is shown centre-cropped.
    var square: Bool

    init(_ prepared: ImageStore.Prepared) {
        self.imageRef = prepared.name
        self.url = "/images/\(prepared.name)"
        self.width = prepared.width
        self.height = prepared.height
        self.square = prepared.width == prepared.height
    }
}

/// `POST /api/v1/products/{id}/pictures`, `DELETE …/pictures/{name}`, `PUT …/pictures/{name}/main`: a product's
/// pictures after the change.
struct PictureList: Encodable, Sendable {
    var productId: Int64
    /// The main picture, as the product's `imageRef`; absent when it has none.
    var imageRef: String?
    var pictures: [PictureResponse]
    /// The picture this request uploaded (`POST …/pictures` only).
    var added: UploadedPicture?

    init(_ product: Product, added: UploadedPicture? = nil) {
        self.productId = product.id.rawValue
        self.imageRef = product.imageRef
        self.pictures = product.pictures.map(PictureResponse.init)
        self.added = added
    }
}
