import Foundation

/// What one unit of a recipe product (a latte) consumes from stock: 0.018 kg of beans, 0.2 l of milk.
///
/// The rules (``Recipe/validated(_:of:)`` and ``Recipe/consumption(of:)``):
/// - A recipe product keeps no stock of its own (`tracksStock` off): selling it issues its ingredients instead.
/// - Selling `q` of it issues `q × quantity` of each ingredient, rounded half away from zero to the thousandth (the
///   books' quantity precision); an ingredient whose share rounds to nothing is not issued.
/// - Each ingredient issue is an ordinary movement of the ingredient's ledger (kind ``MovementKind/consumption``) at the
///   sale's instant, costed at the ingredient's weighted average then, so the line's cost of goods sold is the exact sum
///   of its ingredients' costs, and a back-dated purchase of an ingredient re-costs the recipes sold after it as it
///   re-costs any sale.
/// - An ingredient is a product that is not itself a recipe (so a recipe never contains itself, directly or not), at
///   most once per recipe.
public enum Recipe {
    /// At most this many ingredients per recipe.
    public static let maximumComponents = 50

    /// The components as asked, checked: 1 to ``maximumComponents``… or none (no recipe); each quantity above zero and
    /// within the books' limits; no ingredient twice; not the product itself. The store checks what needs the catalogue
    /// (the ingredients exist and are not recipes; the product keeps no stock).
    /// - Throws: ``InventoryError`` naming the field, e.g. `components[1].quantity`.
    public static func validated(_ components: [RecipeComponent], of productID: ProductID) throws -> [RecipeComponent] {
        guard components.count <= Self.maximumComponents else {
            throw InventoryError(.invalidValue, field: "components", "a recipe may have at most \(Self.maximumComponents) ingredients")
        }
        var seen = Set<ProductID>()
        for (index, component) in components.enumerated() {
            let field = "components[\(index)]"
            guard component.ingredientID != productID else {
                throw InventoryError(.invalidValue, field: "\(field).productId", "a recipe cannot contain itself")
            }
            guard seen.insert(component.ingredientID).inserted else {
                throw InventoryError(.duplicate, field: "\(field).productId", "product \(component.ingredientID) is already an ingredient")
            }
            try component.quantity.requirePositive(field: "\(field).quantity")
            try component.quantity.requireWithinLimit(field: "\(field).quantity")
        }
        return components
    }

    /// What selling `quantity` of a product with `components` issues of each ingredient (``Recipe``'s rounding rule).
    public static func consumption(of quantity: Quantity, _ components: [RecipeComponent]) -> [(ingredientID: ProductID, quantity: Quantity)] {
        components.compactMap { component in
            let used = quantity.multiplied(by: component.quantity)
            return used.thousandths > 0 ? (component.ingredientID, used) : nil
        }
    }
}

/// One ingredient of a recipe and how much one unit of the recipe product uses of it.
public struct RecipeComponent: Sendable, Hashable {
    public var ingredientID: ProductID
    /// Per unit of the recipe product, in the ingredient's unit.
    public var quantity: Quantity

    /// Creates a component.
    public init(ingredientID: ProductID, quantity: Quantity) {
        self.ingredientID = ingredientID
        self.quantity = quantity
    }
}

extension Quantity {
    /// This quantity × `other`, rounded half away from zero to the thousandth (two quantities of three decimals make
    /// six; the books keep three).
    public func multiplied(by other: Quantity) -> Quantity {
        let product = Int128(self.thousandths) * Int128(other.thousandths)
        return Quantity(thousandths: FixedPoint.clamp(FixedPoint.divideRounded(product, Int128(Quantity.scaleFactor))))
    }
}
