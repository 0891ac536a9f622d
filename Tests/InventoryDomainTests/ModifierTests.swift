import InventoryDomain
import Testing

/// Options chosen at the till (issue 12, point 6): the groups' rules and how a line's price and options come out.
@Suite struct ModifierTests {
    static let size = ModifierGroup(id: 1, name: "Size", required: true, options: [
        Modifier(id: ModifierID(11), name: "Small", priceChange: Money(minorUnits: -30)),
        Modifier(id: ModifierID(12), name: "Regular", isDefault: true),
        Modifier(id: ModifierID(13), name: "Large", priceChange: Money(minorUnits: 50)),
    ])
    static let milk = ModifierGroup(id: 2, name: "Milk", options: [
        Modifier(id: ModifierID(21), name: "Whole"), Modifier(id: ModifierID(22), name: "Oat", priceChange: Money(minorUnits: 40)),
    ])
    static let extras = ModifierGroup(id: 3, name: "Extras", multiple: true, options: [
        Modifier(id: ModifierID(31), name: "Extra shot", priceChange: Money(minorUnits: 60)),
        Modifier(id: ModifierID(32), name: "Syrup", priceChange: Money(minorUnits: 40)),
    ])
    static let latte = ProductFacts(id: ProductID(7), salePrice: Money(minorUnits: 310), taxRate: Percent(hundredths: 700), name: "Latte",
                                    optionGroups: [size, milk, extras])

    func sale(_ options: [Int64], unitPrice: Money? = nil) -> SaleDraft {
        var line = SaleDraft.Line(productID: ProductID(7), quantity: Quantity(2), unitPrice: unitPrice)
        line.options = options.map(ModifierID.init(rawValue:))
        return SaleDraft(effectiveAt: Instant(milliseconds: 0), lines: [line])
    }

    @Test func aLinesPriceIsTheProductsPlusItsOptionsAndARequiredGroupTakesItsDefault() throws {
        let priced = try self.sale([13, 22, 31, 32]).priced(products: [ProductID(7): Self.latte], editing: false, currency: .eur, pricesIncludeTax: true)
        let line = try #require(priced.lines.first)
        #expect(line.unitPrice == Money(minorUnits: 310 + 50 + 40 + 60 + 40))
        #expect(line.options.map(\.name) == ["Large", "Oat", "Extra shot", "Syrup"])
        #expect(line.options.map(\.group) == ["Size", "Milk", "Extras", "Extras"])
        // Nothing named: the required size takes its default (Regular, no change); the optional milk stays unchosen.
        let plain = try self.sale([]).priced(products: [ProductID(7): Self.latte], editing: false, currency: .eur)
        #expect(plain.lines[0].unitPrice == Money(minorUnits: 310) && plain.lines[0].options.map(\.name) == ["Regular"])
        // A price the line gives is the whole price: the options are kept, their changes not added again.
        let typed = try self.sale([13], unitPrice: Money(minorUnits: 300)).priced(products: [ProductID(7): Self.latte], editing: false, currency: .eur)
        #expect(typed.lines[0].unitPrice == Money(minorUnits: 300) && typed.lines[0].options.map(\.name) == ["Large"])
        #expect(ChosenModifier.priceChange(of: line.options) == Money(minorUnits: 190))
    }

    @Test func aChoiceThatBreaksTheRulesIsRefusedNamingTheOption() {
        let products = [ProductID(7): Self.latte]
        for (options, field, message) in [
            ([11, 13], "lines[0].options[1]", "choose one size for Latte"),
            ([22, 22], "lines[0].options[1]", "chosen twice"),
            ([99], "lines[0].options[0]", "is not an option of Latte"),
        ] as [([Int64], String, String)] {
            do {
                _ = try self.sale(options).priced(products: products, editing: false, currency: .eur)
                Issue.record("\(options) was accepted")
            } catch let error as InventoryError {
                #expect(error.field == field && error.userMessage.contains(message), "\(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
        // A cheaper choice may not take the price below zero.
        var cheap = Self.latte
        cheap.salePrice = Money(minorUnits: 20)
        #expect(throws: InventoryError(.invalidValue, field: "lines[0].options", "")) {
            try self.sale([11]).priced(products: [ProductID(7): cheap], editing: false, currency: .eur)
        }
    }

    @Test func groupsAreCheckedAsAsked() throws {
        let checked = try ModifierGroup.validated([ModifierGroup(name: "  Size ", required: true, options: [Modifier(name: " Small ")])])
        #expect(checked[0].name == "Size" && checked[0].options[0].name == "Small" && checked[0].defaultOption?.name == "Small")
        let bad: [([ModifierGroup], String)] = [
            ([ModifierGroup(name: "Size", options: [])], "groups[0].options"),
            ([ModifierGroup(name: "Extras", multiple: true, required: true, options: [Modifier(name: "A")])], "groups[0].required"),
            ([ModifierGroup(name: "Extras", multiple: true, options: [Modifier(name: "A", isDefault: true)])], "groups[0].options[0].isDefault"),
            ([ModifierGroup(name: "Size", options: [Modifier(name: "A", isDefault: true), Modifier(name: "B", isDefault: true)])], "groups[0].options[1].isDefault"),
            ([ModifierGroup(name: "Size", options: [Modifier(name: "A", priceChange: Money(minorUnits: 2_000_000_000))])], "groups[0].options[0].priceChange"),
            (Array(repeating: ModifierGroup(name: "G", options: [Modifier(name: "A")]), count: 11), "groups"),
        ]
        for (groups, field) in bad {
            #expect(throws: InventoryError(.invalidValue, field: field, "")) { try ModifierGroup.validated(groups) }
        }
        #expect(throws: InventoryError(.missingValue, field: "groups[0].name", "")) {
            try ModifierGroup.validated([ModifierGroup(name: " ", options: [Modifier(name: "A")])])
        }
        #expect(throws: InventoryError(.duplicate, field: "groups[1].name", "")) {
            try ModifierGroup.validated([ModifierGroup(name: "Size", options: [Modifier(name: "A")]), ModifierGroup(name: "size", options: [Modifier(name: "B")])])
        }
        #expect(throws: InventoryError(.duplicate, field: "groups[0].options[1].name", "")) {
            try ModifierGroup.validated([ModifierGroup(name: "Size", options: [Modifier(name: "A"), Modifier(name: "a")])])
        }
    }
}
