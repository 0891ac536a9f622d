import InventoryDomain
import Testing

@Suite struct MoneyTests {
    /// The till's quick amounts for cash (what `pos.js` used to work out itself): the amount, then round amounts above.
    @Test(arguments: [
        ("12.07", Currency.eur, ["12.07", "13.00", "15.00", "20.00"]),
        ("13.00", .eur, ["13.00", "15.00", "20.00", "50.00"]),     // whole already: not 13.00 again, nor 20.00
        ("20.00", .eur, ["20.00", "50.00", "100.00"]),             // nothing above 100.00 is offered
        ("0.35", .eur, ["0.35", "1.00", "5.00", "10.00"]),
        ("99.99", .usd, ["99.99", "100.00"]),
        ("120.50", .eur, ["120.50", "121.00", "125.00", "130.00"]),
        ("740", .jpy, ["740", "750", "800"]),                     // no decimals: the steps are whole yen
        ("1.250", .kwd, ["1.250", "2.000", "5.000", "10.000"]),
        ("0", .eur, []), ("-3.00", .eur, []),
    ])
    func cashOffersAreTheAmountThenRoundAmountsAbove(amount: String, currency: Currency, offers: [String]) throws {
        let total = try Money.parse(amount, currency: currency, field: "total")
        #expect(total.cashOffers(in: currency).map { $0.decimalString(currency) } == offers)
    }

    @Test func cashOffersNearTheLargestAmountDoNotOverflow() {
        let huge = Money(minorUnits: Int64.max - 5)
        #expect(huge.cashOffers(in: .eur) == [huge])
    }

    @Test(arguments: [
        ("2.75", Currency.eur, Int64(275)), ("0", .eur, 0), ("-1.5", .eur, -150), ("12", .usd, 1200), ("1,25", .eur, 125),
        ("300", .jpy, 300), ("1.250", .kwd, 1250), ("2.750", .eur, 275),
    ])
    func parsesExactly(text: String, currency: Currency, minor: Int64) throws {
        #expect(try Money.parse(text, currency: currency, field: "price") == Money(minorUnits: minor))
    }

    @Test(arguments: ["abc", "", "1.2.3", "1e3", "--1", "0x10", ".", " 12 3"])
    func refusesNonNumbers(text: String) {
        #expect(throws: InventoryError(.invalidValue, field: "price", "")) {
            try Money.parse(text, currency: .eur, field: "price")
        }
    }

    @Test func refusesOverPrecisePricesNamingTheCurrency() {
        do {
            _ = try Money.parse("2.755", currency: .eur, field: "price")
            Issue.record("accepted an over-precise price")
        } catch let error as InventoryError {
            #expect(error.code == .invalidValue)
            #expect(error.userMessage.contains("2 decimals"))
        } catch { Issue.record("unexpected \(error)") }
        #expect(throws: InventoryError(.invalidValue, field: "price", "")) { try Money.parse("1.5", currency: .jpy, field: "price") }
    }

    @Test(arguments: [
        // …5 rounds away from zero, below 5 rounds towards it, whatever follows the first dropped digit.
        ("2.345", Currency.eur, Int64(235)), ("2.3449999", .eur, 234), ("2.3450000001", .eur, 235), ("0.005", .eur, 1), ("0.0049", .eur, 0),
        ("-2.345", .eur, -235), ("-2.344", .eur, -234), ("-0.005", .eur, -1),
        // A Double's description from the iOS client, and more digits than any binary floating point holds.
        ("1694.91525424", .eur, 169_492), ("0.1000000000000000055511151231257827021181583404541015625", .eur, 10),
        ("19.99999999999999999999999999999999999999", .eur, 2000), ("12.50", .eur, 1250), ("7", .eur, 700), ("1,255", .eur, 126),
        // Currencies without and with three decimals.
        ("1694.5", .jpy, 1695), ("1694.49", .jpy, 1694), ("-0.5", .jpy, -1), ("300", .jpy, 300),
        ("1.2345", .kwd, 1235), ("1.2344", .kwd, 1234), ("-1.0005", .kwd, -1001), ("1.250", .kwd, 1250),
    ])
    func roundsHalfAwayFromZeroWhenAsked(text: String, currency: Currency, minor: Int64) throws {
        #expect(try Money.parse(text, currency: currency, field: "price", rounding: .halfAwayFromZero) == Money(minorUnits: minor))
    }

    @Test func roundingStillRefusesNonNumbersAndTheDefaultStillRefusesOverPrecision() {
        for text in ["abc", "", "1e3", "1.2.3", "0x10", "99999999999999999.995", "-"] {
            #expect(throws: InventoryError(.invalidValue, field: "price", "")) {
                try Money.parse(text, currency: .eur, field: "price", rounding: .halfAwayFromZero)
            }
        }
        #expect(throws: InventoryError(.invalidValue, field: "price", "")) { try Money.parse("1694.91525424", currency: .eur, field: "price") }
        #expect(throws: InventoryError(.invalidValue, field: "price", "")) { try Money.parse("1.5", currency: .jpy, field: "price", rounding: .refuse) }
    }

    @Test func formatsWithTheCurrencyDecimals() {
        #expect(Money(minorUnits: 275).decimalString(.eur) == "2.75")
        #expect(Money(minorUnits: -5).decimalString(.eur) == "-0.05")
        #expect(Money(minorUnits: 300).decimalString(.jpy) == "300")
        #expect(Money(minorUnits: 1250).decimalString(.kwd) == "1.250")
    }

    @Test func currencyTableKnowsMinorUnits() throws {
        #expect(try Currency(isoCode: "jpy").minorUnits == 0)
        #expect(try Currency(isoCode: "KWD").minorUnits == 3)
        #expect(try Currency(isoCode: "EUR").minorUnits == 2)
        #expect(throws: InventoryError(.invalidValue, field: "currency", "")) { try Currency(isoCode: "EURO") }
    }

    @Test func roundingIsHalfAwayFromZero() {
        #expect(FixedPoint.divideRounded(5, 2) == 3)
        #expect(FixedPoint.divideRounded(-5, 2) == -3)
        #expect(FixedPoint.divideRounded(4, 3) == 1)
        #expect(FixedPoint.divideRounded(-4, 3) == -1)
        #expect(FixedPoint.divideRounded(5, -2) == -3)
        #expect(FixedPoint.clamp(Int128(Int64.max) + 1) == Int64.max)
        #expect(FixedPoint.clamp(Int128(Int64.min) - 1) == Int64.min)
    }

    @Test func quantitiesHaveThreeDecimals() throws {
        #expect(try Quantity.parse("0.5", field: "q") == Quantity(thousandths: 500))
        #expect(Quantity(thousandths: 1500).decimalString == "1.5")
        #expect(Quantity(12).decimalString == "12")
        #expect(throws: InventoryError(.invalidValue, field: "q", "")) { try Quantity.parse("0.0001", field: "q") }
        #expect(throws: InventoryError(.invalidValue, field: "q", "")) { try Quantity.parsePositive("0", field: "q") }
        #expect(throws: InventoryError(.invalidValue, field: "q", "")) { try Quantity.parsePositive("-2", field: "q") }
    }

    @Test func percentagesAndTax() throws {
        let rate = try Percent.parse("7.5%", field: "tax")
        #expect(rate == Percent(hundredths: 750))
        #expect(rate.decimalString == "7.5")
        #expect(Money(minorUnits: 1000).applying(rate) == Money(minorUnits: 75))
        #expect(throws: InventoryError(.invalidValue, field: "tax", "")) { try Percent.parse("-1", field: "tax") }
        #expect(throws: InventoryError(.invalidValue, field: "tax", "")) { try Percent.parse("x", field: "tax") }
        #expect(Money.extended(Money(minorUnits: 333), by: Quantity(thousandths: 1500)) == Money(minorUnits: 500))
    }

    @Test func unitCostAverages() {
        #expect(UnitCost.average(value: Money(minorUnits: 11_000), quantity: Quantity(40))?.rounded == Money(minorUnits: 275))
        #expect(UnitCost.average(value: .zero, quantity: .zero) == nil)
        #expect(UnitCost(scaled: 27_500 * 100).exactDecimalString(.eur) == "2.750000")
        #expect(UnitCost(scaled: 27_500 * 100).rounded.decimalString(.eur) == "2.75")
        #expect(UnitCost(Money(minorUnits: 3)).value(of: Quantity(thousandths: 500)) == Money(minorUnits: 2))
    }
}
