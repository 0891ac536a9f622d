import InventoryDomain
import Testing

/// Recipes (issue 12, point 6): the checks on a recipe as asked, and what a sale line consumes.
@Suite struct RecipeTests {
    let beans = ProductID(1), milk = ProductID(2), latte = ProductID(3)

    @Test func aLineConsumesItsQuantityTimesEachIngredientRoundedToTheThousandth() {
        let recipe = [RecipeComponent(ingredientID: self.beans, quantity: Quantity(thousandths: 18)),
                      RecipeComponent(ingredientID: self.milk, quantity: Quantity(thousandths: 200))]
        let three = Recipe.consumption(of: Quantity(3), recipe)
        #expect(three.map(\.ingredientID) == [self.beans, self.milk])
        #expect(three.map(\.quantity) == [Quantity(thousandths: 54), Quantity(thousandths: 600)])
        // 0.5 × 0.001 = 0.0005 rounds half away from zero to 0.001; 0.4 × 0.001 = 0.0004 rounds to nothing and is left out.
        #expect(Recipe.consumption(of: Quantity(thousandths: 500), [RecipeComponent(ingredientID: self.beans, quantity: Quantity(thousandths: 1))])
            .map(\.quantity) == [Quantity(thousandths: 1)])
        #expect(Recipe.consumption(of: Quantity(thousandths: 400), [RecipeComponent(ingredientID: self.beans, quantity: Quantity(thousandths: 1))]).isEmpty)
        #expect(Quantity(thousandths: 1_500).multiplied(by: Quantity(thousandths: 18)) == Quantity(thousandths: 27))
    }

    @Test func aRecipeIsCheckedAsAsked() throws {
        #expect(try Recipe.validated([], of: self.latte).isEmpty)
        #expect(throws: InventoryError(.invalidValue, field: "components[0].productId", "")) {
            try Recipe.validated([RecipeComponent(ingredientID: self.latte, quantity: Quantity(1))], of: self.latte)
        }
        #expect(throws: InventoryError(.duplicate, field: "components[1].productId", "")) {
            try Recipe.validated([RecipeComponent(ingredientID: self.beans, quantity: Quantity(1)),
                                  RecipeComponent(ingredientID: self.beans, quantity: Quantity(2))], of: self.latte)
        }
        #expect(throws: InventoryError(.invalidValue, field: "components[0].quantity", "")) {
            try Recipe.validated([RecipeComponent(ingredientID: self.beans, quantity: .zero)], of: self.latte)
        }
        let many = (0..<51).map { RecipeComponent(ingredientID: ProductID(Int64(10 + $0)), quantity: Quantity(1)) }
        #expect(throws: InventoryError(.invalidValue, field: "components", "")) { try Recipe.validated(many, of: self.latte) }
    }
}
