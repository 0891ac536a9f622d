import Foundation
@testable import InventoryDomain
@testable import InventoryServer
import Testing

/// ``SortedJSONEncoder`` writes JSONEncoder's bytes (`[.sortedKeys, .withoutEscapingSlashes]`) or declines, and every
/// API answer in the debug build is checked against JSONEncoder as well (``APIJSON/encode(_:)``).
@Suite struct SortedJSONEncoderTests {
    struct Inner: Encodable {
        var zeta = "z"
        var alpha: Int64 = -9_223_372_036_854_775_808
        var maybe: String?
        var list: [Int] = [1, 2, 3]
    }

    struct Outer: Encodable {
        var name: String
        var inner = Inner()
        var inners = [Inner(), Inner(zeta: "y", alpha: 7, maybe: "here", list: [])]
        var flags: [Bool] = [true, false]
        var byName: [String: Int] = ["b": 2, "a": 1, "aa": 3, "B": 4, "é": 5, "_": 6]
        var byNumber: [Int: String] = [10: "ten", 2: "two"]
        var nothing: String? = nil
        var small: UInt8 = 255
        var nested: [[String]] = [["a"], [], ["b", "c"]]
    }

    /// Encodes `nil` explicitly (not skipped as `encodeIfPresent` does), and a nested keyed container.
    struct Explicit: Encodable {
        enum Keys: String, CodingKey { case value, wrapper, inside }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeNil(forKey: .value)
            var wrapper = container.nestedContainer(keyedBy: Keys.self, forKey: .wrapper)
            try wrapper.encode("x", forKey: .inside)
            var list = container.nestedUnkeyedContainer(forKey: .inside)
            try list.encodeNil()
            try list.encode(1)
        }
    }

    struct WithSuper: Encodable {
        enum Keys: CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            _ = container.superEncoder()
            try container.encode(1, forKey: .a)
        }
    }

    struct WithDecimal: Encodable { var price = Decimal(string: "1.25")! }
    struct WithDate: Encodable { var at = Date(timeIntervalSince1970: 0) }
    struct WithDouble: Encodable { var share = 0.5 }

    func agrees(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try APIJSON.foundationEncode(value)
        let bytes = try #require(SortedJSONEncoder.encode(value), sourceLocation: sourceLocation)
        #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self), sourceLocation: sourceLocation)
    }

    @Test func writesWhatJSONEncoderWrites() throws {
        try self.agrees(Outer(name: "Crème fraîche 200 ml"))
        try self.agrees(Outer(name: "quote \" backslash \\ slash / tab \t line\nreturn\r emoji 🧀 and ２ and \u{2028}"))
        try self.agrees(Explicit())
        try self.agrees("top-level string")
        try self.agrees(42)
        try self.agrees([Inner(), Inner()])
        try self.agrees([String: Inner]())
        try self.agrees([Int]())
        try self.agrees(Optional<Int>.none)
        try self.agrees(["k": Optional<String>.none])
    }

    @Test func seededRandomStringsAgree() throws {
        var random = SeededRandom(seed: 2_026_112_6)
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "é", "ß", "€", "🧀", "\u{0301}", "-", "{", "}", "[", ",", ":"]
        for _ in 0..<2_000 {
            let key = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let value = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var object = ["fixed": value]
            object[key] = value
            object[value] = key
            try self.agrees(object)
            try self.agrees([key, value])
        }
    }

    @Test func leavesToJSONEncoderWhatItDoesNotCover() throws {
        #expect(SortedJSONEncoder.encode(WithSuper()) == nil)
        #expect(SortedJSONEncoder.encode(WithDecimal()) == nil)
        #expect(SortedJSONEncoder.encode(WithDate()) == nil)
        #expect(SortedJSONEncoder.encode(WithDouble()) == nil)
        #expect(SortedJSONEncoder.encode(["bell \u{07}"]) == nil)
        #expect(SortedJSONEncoder.encode(["delete \u{7F}"]) == nil)
        // APIJSON writes them all the same, through JSONEncoder.
        for value in [WithDecimal() as any Encodable, WithDate(), WithDouble(), ["bell \u{07}"], WithSuper()] {
            #expect(try APIJSON.encode(value) == (try APIJSON.foundationEncode(value)))
        }
    }

    /// A product writes itself (``SortedJSONWritable``): the bytes `JSONEncoder` writes for its `Encodable` conformance,
    /// with and without costs, with every optional member present and absent, with pictures, inside a page, and with a
    /// control character (then the general way, still the same bytes).
    @Test func aProductWritesWhatJSONEncoderWrites() throws {
        let formats = Formats(currency: .eur, calendar: ShopCalendar(timeZone: .gmt))
        let bare = Product(id: ProductID(7), details: ProductDetails(name: "Crème \"fraîche\" / 200 ml"),
                           stock: LedgerBalance(quantity: Quantity(3), value: Money(minorUnits: 150), averageCost: UnitCost(scaled: 500_000)),
                           createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_001)
        var full = bare
        full.details = ProductDetails(name: "Oat milk", sku: "OAT-1", barcode: "4006381333931", categoryID: CategoryID(3), unit: "l",
                                      salePrice: Money(minorUnits: 199), minimumSalePrice: Money(minorUnits: 150), taxRate: Percent(hundredths: 700),
                                      lowStockThreshold: Quantity(5), iconEmoji: "🥛", isArchived: true, preferredSupplierID: SupplierID(2),
                                      supplierCode: "S-9", packSize: Quantity(6), description: "tab\there", shelf: "A3")
        full.pictures = ["a.jpg", "b.png"]
        var controlled = full
        controlled.details.description = "bell \u{07}"
        let thresholds = StockThresholds(shopDefault: Quantity(2), categories: [])
        for product in [bare, full, controlled] {
            let response = ProductResponse(product, formats: formats, thresholds: thresholds)
            for visible in [false, true] {
                let page = ProductPage(items: [response, response], total: 2, limit: 50, offset: 0)
                // (SortedJSONEncoder itself, not APIJSON: a difference fails here instead of stopping the debug build.)
                let written = try CostDisclosure.$visible.withValue(visible) { () throws -> [Data?] in
                    [SortedJSONEncoder.encode(response).map { Data($0) }, try APIJSON.foundationEncode(response),
                     SortedJSONEncoder.encode(page).map { Data($0) }, try APIJSON.foundationEncode(page),
                     product == controlled ? try APIJSON.encode(page) : nil]
                }
                if product == controlled {
                    #expect(written[0] == nil && written[2] == nil, "a control character is left to JSONEncoder")
                    #expect(written[4] == written[3])
                } else {
                    #expect(written[0] == written[1], "\(String(decoding: written[0] ?? Data(), as: UTF8.self))")
                    #expect(written[2] == written[3])
                    #expect(String(decoding: written[1]!, as: UTF8.self).contains("averageCost") == visible)
                }
            }
        }
        var object = SortedJSONObject()
        ProductResponse(controlled, formats: formats, thresholds: thresholds).writeSortedJSON(to: &object)
        #expect(object.finished() == nil, "a control character is left to JSONEncoder")
        object = SortedJSONObject()
        ProductResponse(full, formats: formats, thresholds: thresholds).writeSortedJSON(to: &object)
        #expect(object.finished() != nil)
    }

    /// A sale writes itself: the bytes `JSONEncoder` writes, with and without costs, with every optional member present
    /// (a customer, options, several payments with cash handed over, returns, a dry run's quick cash) and absent.
    @Test func aSaleWritesWhatJSONEncoderWrites() throws {
        let formats = Formats(currency: .eur, calendar: ShopCalendar(timeZone: .gmt))
        var line = SaleRecord.Line(movementID: MovementID(11), productID: ProductID(3), productName: "Crème \"fraîche\" / 200 ml",
                                   quantity: Quantity(thousandths: 2_500), unitPrice: Money(minorUnits: 199), discount: Money(minorUnits: 20),
                                   taxRate: Percent(hundredths: 700), tax: Money(minorUnits: 33), revenue: Money(minorUnits: 444),
                                   costOfGoodsSold: Money(minorUnits: 250), returnedQuantity: Quantity(1), taxIncluded: true)
        let bare = SaleRecord(id: SaleID(5), sequence: 5, effectiveAt: Instant(milliseconds: 1_700_000_000_000),
                              recordedAt: Instant(milliseconds: 1_700_000_000_123), customerID: nil, customerName: nil, note: "",
                              tip: .zero, paymentMethod: .cash, lines: [line], receiptNumber: 9)
        var full = bare
        line.options = [ChosenModifier(optionID: ModifierID(rawValue: 4), group: "Milk", name: "Oat", priceChange: Money(minorUnits: 40))]
        line.soldBeyondStock = Quantity(1)
        var second = line
        second.movementID = MovementID(12)
        second.taxRate = Percent(hundredths: 1_900)
        second.options = []
        full.lines = [line, second]
        full.customerID = CustomerID(rawValue: 8)
        full.customerName = "Zoë"
        full.customerVisit = 10
        full.note = "tab\there"
        full.tip = Money(minorUnits: 100)
        full.soldBy = "till"
        full.approvedBy = "boss"
        full.stockApprovedBy = "boss"
        full.cashTendered = Money(minorUnits: 5_000)
        full.payments = [PaymentRecord(id: PaymentID(1), method: .cash, amount: Money(minorUnits: 500), tendered: Money(minorUnits: 5_000)),
                         PaymentRecord(id: PaymentID(2), method: .card, amount: Money(minorUnits: 900), takenStatus: .pending, reference: "ref 7",
                                       refunded: Money(minorUnits: 10))]
        full.returns = [SaleRecord.Return(id: CustomerReturnID(20), effectiveAt: Instant(milliseconds: 1_700_000_100_000), note: "torn", refunded: Money(minorUnits: 10),
                                          lines: [.init(saleLineID: MovementID(11), productID: ProductID(3), productName: "Crème", quantity: Quantity(1), restocked: false)])]
        for record in [bare, full] {
            for response in [SaleResponse(record, formats), SaleResponse(preview: record, formats)] {
                for visible in [false, true] {
                    let written = try CostDisclosure.$visible.withValue(visible) { () throws -> [Data?] in
                        [SortedJSONEncoder.encode(response).map { Data($0) }, try APIJSON.foundationEncode(response)]
                    }
                    #expect(written[0] == written[1], "\(String(decoding: written[0] ?? Data(), as: UTF8.self))")
                    #expect(String(decoding: written[1]!, as: UTF8.self).contains("costOfGoodsSold") == visible)
                }
            }
        }
    }
}
