/// A change to some of a product's fields, as a JSON merge patch (RFC 7396) describes it: a field left `nil` keeps its
/// value; for the optional fields, `.some(nil)` clears it. The result is checked by ``ProductDetails/validated()``
/// like any other product, so a patch can never store what a full replacement could not.
public struct ProductPatch: Sendable, Hashable {
    public var name: String?
    public var sku: String??
    public var barcode: String??
    public var categoryID: CategoryID??
    public var unit: String?
    /// Cleared (`.some(nil)`), the icon is derived from the name again.
    public var iconEmoji: String??
    public var salePrice: Money?
    public var minimumSalePrice: Money??
    public var taxRate: Percent?
    public var lowStockThreshold: Quantity??
    public var tracksStock: Bool?
    public var allowsNegativeStock: Bool?
    public var isArchived: Bool?
    public var preferredSupplierID: SupplierID??
    public var supplierCode: String??
    public var packSize: Quantity?
    /// Cleared (an empty text), the product has no description.
    public var description: String?
    /// Cleared (`.some(nil)`), the product is on no shelf.
    public var shelf: String??

    /// A patch that changes nothing.
    public init() {}

    /// `details` with this patch's fields changed and every other field kept (not yet validated).
    public func applied(to details: ProductDetails) -> ProductDetails {
        var result = details
        if let name { result.name = name }
        if let sku { result.sku = sku }
        if let barcode { result.barcode = barcode }
        if let categoryID { result.categoryID = categoryID }
        if let unit { result.unit = unit }
        if let iconEmoji { result.iconEmoji = iconEmoji ?? "" }
        if let salePrice { result.salePrice = salePrice }
        if let minimumSalePrice { result.minimumSalePrice = minimumSalePrice }
        if let taxRate { result.taxRate = taxRate }
        if let lowStockThreshold { result.lowStockThreshold = lowStockThreshold }
        if let tracksStock { result.tracksStock = tracksStock }
        if let allowsNegativeStock { result.allowsNegativeStock = allowsNegativeStock }
        if let isArchived { result.isArchived = isArchived }
        if let preferredSupplierID { result.preferredSupplierID = preferredSupplierID }
        if let supplierCode { result.supplierCode = supplierCode }
        if let packSize { result.packSize = packSize }
        if let description { result.description = description }
        if let shelf { result.shelf = shelf }
        return result
    }
}
