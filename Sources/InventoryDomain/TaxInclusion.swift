import Foundation

// How a shop's prices are meant. With "prices include tax" (the usual case in the EU, the UK and Australia) a product's
// sale price and minimum price are what the customer pays, and the tax is taken out of each line; otherwise (the US,
// Canada) prices are before tax and the tax is added to each line. The books hold the same figures either way: the
// revenue before tax and the tax of every line, so reports, costing and profit do not depend on the setting.
//
// Rounding rule: tax is computed per line, rounded half away from zero to the currency's minor unit — added tax is
// line × rate, included tax is line × rate ÷ (100 % + rate). A receipt's and a report's tax per rate is the exact sum of
// its lines' taxes, and each line's net + tax is exactly what the line charges.

extension Money {
    /// The tax contained in this tax-inclusive amount at `rate`: amount × rate ÷ (100 % + rate), rounded half away from
    /// zero to the minor unit. The amount − this tax is the net; net + tax is the amount exactly.
    public func includedTax(at rate: Percent) -> Money {
        let product = Int128(self.minorUnits) * Int128(rate.hundredths)
        return Money(minorUnits: FixedPoint.clamp(FixedPoint.divideRounded(product, 10_000 + Int128(rate.hundredths))))
    }

    /// What remains of this tax-inclusive amount without its tax (``includedTax(at:)``).
    public func excludingIncludedTax(at rate: Percent) -> Money { self - self.includedTax(at: rate) }
}

/// Converting prices between the two meanings, so that the customer pays the same.
public enum TaxInclusion {
    /// The price with the other meaning at which the customer pays what `price` makes them pay today.
    ///
    /// Before tax → including tax: price + its tax (the customer paid exactly that). Including tax → before tax: the net
    /// price whose price + tax is `price`, when one exists; otherwise (a few gross amounts cannot be reached from any net
    /// amount in whole minor units) the net that misses by the least, one minor unit.
    /// - Parameters:
    ///   - price: today's price.
    ///   - rate: the product's tax rate.
    ///   - toIncludeTax: the meaning the price is converted to.
    public static func convert(_ price: Money, rate: Percent, toIncludeTax: Bool) -> Money {
        if toIncludeTax { return price + price.applying(rate) }
        let net = price.excludingIncludedTax(at: rate)
        let candidates = [net, net - Money(minorUnits: 1), net + Money(minorUnits: 1)]
        return candidates.first { $0 + $0.applying(rate) == price } ?? net
    }

    /// A price as the iOS client's public API means it (always before tax), from the shop's price.
    public static func priceBeforeTax(_ price: Money, rate: Percent, pricesIncludeTax: Bool) -> Money {
        pricesIncludeTax ? self.convert(price, rate: rate, toIncludeTax: false) : price
    }

    /// The shop's price from a price before tax (the iOS client's public API).
    public static func shopPrice(beforeTax price: Money, rate: Percent, pricesIncludeTax: Bool) -> Money {
        pricesIncludeTax ? self.convert(price, rate: rate, toIncludeTax: true) : price
    }
}

extension ShopSettings {
    /// The rule for changing how prices are meant: free until the first sale is booked; after it only through the
    /// re-pricing step, which converts every product's prices (``TaxInclusion/convert(_:rate:toIncludeTax:)``) so that
    /// customers pay the same and the booked sales keep their meaning.
    /// - Throws: ``InventoryError`` (`conflict`) on `pricesIncludeTax`.
    public func checkPriceMeaningChange(to new: ShopSettings, salesBooked: Bool) throws {
        guard self.pricesIncludeTax != new.pricesIncludeTax, salesBooked else { return }
        throw InventoryError(
            .conflict, field: "pricesIncludeTax",
            "sales are already booked with prices \(self.pricesIncludeTax ? "including" : "before") tax; switch with the re-pricing step (POST /api/v1/settings/reprice), which converts every product's prices so customers pay the same")
    }
}
