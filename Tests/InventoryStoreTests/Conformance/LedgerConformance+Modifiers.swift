import Foundation
import InventoryDomain
import Testing

extension LedgerConformance {
    /// Options chosen at the till (issue 12, point 6), stored: a product's groups keep their ids when sent back, a sale
    /// line's price adds the chosen options and keeps a copy of them, a parked tab keeps the ids, and a choice from
    /// another product is refused with nothing changed.
    @Suite struct Modifiers {
        func shop(_ backend: Backend) async throws -> (store: any TestableRepository, latte: Product, tea: Product, groups: [ModifierGroup]) {
            let store = try await backend.make()
            let latte = try await store.createProduct(ProductDetails(name: "Latte", salePrice: eur("3.10"), tracksStock: false))
            let tea = try await store.createProduct(ProductDetails(name: "Tea", salePrice: eur("2.00"), tracksStock: false))
            let groups = try await store.setOptionGroups([
                ModifierGroup(name: "Size", required: true, options: [
                    Modifier(name: "Regular"), Modifier(name: "Large", priceChange: eur("0.50"))]),
                ModifierGroup(name: "Milk", options: [Modifier(name: "Whole"), Modifier(name: "Oat", priceChange: eur("0.40"))]),
            ], of: latte.id)
            _ = try await store.setOptionGroups([ModifierGroup(name: "Lemon", options: [Modifier(name: "Slice", priceChange: eur("0.10"))])], of: tea.id)
            return (store, latte, tea, groups)
        }

        func line(_ product: Product, _ options: [ModifierID]) -> SaleDraft.Line {
            var line = SaleDraft.Line(productID: product.id, quantity: qty(1))
            line.options = options
            return line
        }

        @Test(arguments: Backend.ported)
        func aSaleLineAddsItsOptionsAndKeepsACopyOfThem(backend: Backend) async throws {
            let (store, latte, _, groups) = try await self.shop(backend)
            #expect(groups.map(\.name) == ["Size", "Milk"] && groups.allSatisfy { $0.id != nil })
            #expect(try await store.optionGroups(of: latte.id) == groups)
            #expect(try await store.allOptionGroups().count == 2)
            let large = groups[0].options[1].id, oat = groups[1].options[1].id
            let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260110), lines: [self.line(latte, [oat, large]), self.line(latte, [])]))
            #expect(sale.lines[0].unitPrice == eur("4.00") && sale.lines[0].options.map(\.name) == ["Large", "Oat"])
            #expect(sale.lines[1].unitPrice == eur("3.10") && sale.lines[1].options.map(\.name) == ["Regular"])

            // Renaming and repricing the options later, with their ids, keeps them; the booked sale keeps its copy.
            var changed = groups
            changed[0].options[1].name = "Grande"
            changed[0].options[1].priceChange = eur("0.70")
            changed.remove(at: 1)
            let stored = try await store.setOptionGroups(changed, of: latte.id)
            #expect(stored[0].options[1].id == large && stored.count == 1)
            let booked = try await store.sale(sale.id)
            #expect(booked.lines[0].options.map(\.name) == ["Large", "Oat"] && booked.lines[0].options.map(\.priceChange) == [eur("0.50"), eur("0.40")])
            // Editing the sale prices its lines again from today's options.
            let edited = try await store.updateSale(sale.id, SaleDraft(effectiveAt: at(20260110), lines: [self.line(latte, [large])]))
            #expect(edited.lines.map(\.unitPrice) == [eur("3.80")] && edited.lines[0].options.map(\.name) == ["Grande"])
        }

        @Test(arguments: Backend.ported)
        func anOptionOfAnotherProductIsRefusedAndChangesNothing(backend: Backend) async throws {
            let (store, latte, tea, groups) = try await self.shop(backend)
            let slice = try #require(try await store.optionGroups(of: tea.id).first?.options.first?.id)
            try await expectRefusal(store, .invalidValue, field: "lines[0].options[1]") {
                _ = try await store.postSale(SaleDraft(effectiveAt: at(20260110), lines: [self.line(latte, [groups[0].options[0].id, slice])]))
            }
            try await expectRefusal(store, .invalidValue, field: "lines[0].options[1]") {
                _ = try await store.postSale(SaleDraft(effectiveAt: at(20260110), lines: [self.line(latte, [groups[0].options[0].id, groups[0].options[1].id])]))
            }
            try await expectRefusal(store, .invalidValue, field: "groups[0].options[0].id") {
                _ = try await store.setOptionGroups([ModifierGroup(name: "Size", options: [Modifier(id: slice, name: "Stolen")])], of: latte.id)
            }
            try await expectRefusal(store, .duplicate, field: "groups[2].name") {
                _ = try await store.setOptionGroups(groups + [ModifierGroup(name: "size", options: [Modifier(name: "X")])], of: latte.id)
            }
        }

        @Test(arguments: Backend.ported)
        func aParkedTabKeepsItsOptions(backend: Backend) async throws {
            let (store, latte, _, groups) = try await self.shop(backend)
            let oat = groups[1].options[1].id
            let parked = try await store.parkSale(ParkedSale(label: "Table 4", lines: [self.line(latte, [oat])]))
            let picked = try await store.pickUpParkedSale(parked.id)
            #expect(picked.lines[0].options == [oat])
            let sale = try await store.postSale(SaleDraft(effectiveAt: at(20260110), lines: picked.lines))
            #expect(sale.lines[0].unitPrice == eur("3.50") && sale.lines[0].options.map(\.name) == ["Regular", "Oat"])
        }
    }
}
