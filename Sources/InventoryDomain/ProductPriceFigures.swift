import Foundation

/// A product's price as its form shows it while it is typed, before anything is saved: the sale price its category's
/// markup suggests for a cost, and what a customer pays for one unit at the sale price with its tax.
///
/// Both are the rules the rest of the shop uses: the suggestion is ``Category/suggestedSalePrice(cost:taxRate:pricesIncludeTax:)``
/// and the tax is that of a till line of one unit (``PricedSale/Line/tax``), added to the price or taken out of it as
/// the shop's prices are meant (``TaxInclusion``). The web app displays these figures; it computes none of them.
public struct ProductPriceFigures: Sendable, Hashable {
    /// The sale price the category's markup makes of the cost; nil without a category or without a cost above zero.
    public var suggestedSalePrice: Money?
    /// One unit at the sale price before tax; nil without a sale price.
    public var netPrice: Money?
    /// The tax of one unit at the sale price; nil without a sale price.
    public var tax: Money?
    /// What the customer pays for one unit: the net price plus its tax; nil without a sale price.
    public var finalPrice: Money?

    /// Creates the figures.
    public init(suggestedSalePrice: Money? = nil, netPrice: Money? = nil, tax: Money? = nil, finalPrice: Money? = nil) {
        self.suggestedSalePrice = suggestedSalePrice
        self.netPrice = netPrice
        self.tax = tax
        self.finalPrice = finalPrice
    }

    /// The figures for a product priced `salePrice` at `taxRate`, costing `cost`, in `category`.
    /// - Throws: ``InventoryError`` on `salePrice` or `cost` (negative, too large) or `taxRate` (outside 0–100 %), the
    ///   same limits a saved product has.
    public static func of(
        salePrice: Money?, taxRate: Percent, cost: Money?, category: Category?, pricesIncludeTax: Bool
    ) throws -> ProductPriceFigures {
        guard taxRate >= .zero, taxRate.hundredths <= 100_00 else {
            throw InventoryError(.invalidValue, field: "taxRate", "must be between 0 and 100 %")
        }
        var figures = ProductPriceFigures()
        if let cost {
            guard cost >= .zero else { throw InventoryError(.invalidValue, field: "cost", "must not be negative") }
            try cost.requireWithinLimit(field: "cost")
            if let category, cost > .zero {
                figures.suggestedSalePrice = category.suggestedSalePrice(cost: cost, taxRate: taxRate, pricesIncludeTax: pricesIncludeTax)
            }
        }
        if let salePrice {
            guard salePrice >= .zero else { throw InventoryError(.invalidValue, field: "salePrice", "must not be negative") }
            try salePrice.requireWithinLimit(field: "salePrice")
            let line = PricedSale.Line(productID: ProductID(0), quantity: Quantity(1), unitPrice: salePrice,
                                       discount: .zero, taxRate: taxRate, taxIncluded: pricesIncludeTax)
            figures.netPrice = line.revenue
            figures.tax = line.tax
            figures.finalPrice = line.revenue + line.tax
        }
        return figures
    }
}
