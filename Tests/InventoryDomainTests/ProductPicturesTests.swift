import InventoryDomain
import Testing

/// Issue 10, defect 9: a product keeps every picture, the first the main one; the rules are the domain's.
@Suite struct ProductPicturesTests {
    let a = "0123456789abcdef01234567.jpg", b = "89abcdef0123456789abcdef.png", c = "fedcba9876543210fedcba98.jpg"

    @Test func namesAreTheStoresOwn() {
        #expect(ProductPictures.isValidName(self.a))
        #expect(ProductPictures.isValidName("01234567.png"))
        for bad in ["", "../x.png", "/etc/passwd", "ABCDEF0123456789.png", "0123456789abcdef.gif", ".png", "0123456.png",
                    "0123456789abcdef.png.png", "stockroom.sqlite", "x y.png", "０１２３４５６７.png", String(repeating: "a", count: 65) + ".png"] {
            #expect(!ProductPictures.isValidName(bad), "\(bad)")
        }
    }

    @Test func addingKeepsOrderAndTheFirstIsMain() throws {
        var pictures: [String] = []
        pictures = try PictureCommand.add(self.a, makeMain: false).applied(to: pictures)
        pictures = try PictureCommand.add(self.b, makeMain: false).applied(to: pictures)
        #expect(pictures == [self.a, self.b])
        pictures = try PictureCommand.add(self.c, makeMain: true).applied(to: pictures)
        #expect(pictures == [self.c, self.a, self.b])
        // The same picture again is not kept twice; with makeMain it only moves.
        #expect(try PictureCommand.add(self.a, makeMain: false).applied(to: pictures) == pictures)
        #expect(try PictureCommand.add(self.b, makeMain: true).applied(to: pictures) == [self.b, self.c, self.a])
    }

    @Test func mainPictureChanges() throws {
        let pictures = [self.a, self.b, self.c]
        #expect(try PictureCommand.makeMain(self.c).applied(to: pictures) == [self.c, self.a, self.b])
        #expect(try PictureCommand.makeMain(self.a).applied(to: pictures) == pictures)
        // PUT /image: the old main is replaced, the others stay.
        let d = "00000000aaaaaaaa.png"
        #expect(try PictureCommand.replaceMain(d).applied(to: pictures) == [d, self.b, self.c])
        #expect(try PictureCommand.replaceMain(self.c).applied(to: pictures) == [self.c, self.b])
        #expect(try PictureCommand.replaceMain(self.a).applied(to: pictures) == pictures)
        #expect(try PictureCommand.replaceMain(d).applied(to: []) == [d])
        #expect(try PictureCommand.removeMain.applied(to: pictures) == [self.b, self.c])
        #expect(try PictureCommand.removeMain.applied(to: []) == [])
        #expect(try PictureCommand.remove(self.b).applied(to: pictures) == [self.a, self.c])
        #expect(try PictureCommand.remove(self.a).applied(to: pictures) == [self.b, self.c])
    }

    @Test func refusals() throws {
        #expect(throws: InventoryError(.notFound, field: "name", "")) { try PictureCommand.remove(self.c).applied(to: [self.a]) }
        #expect(throws: InventoryError(.notFound, field: "name", "")) { try PictureCommand.makeMain("../x.png").applied(to: [self.a]) }
        #expect(throws: InventoryError(.invalidValue, field: "name", "")) { try PictureCommand.add("../x.png", makeMain: false).applied(to: []) }
        #expect(throws: InventoryError(.invalidValue, field: "name", "")) { try PictureCommand.replaceMain("x.gif").applied(to: []) }
        let full = (0..<ProductPictures.maximumCount).map { String(format: "%024x.png", $0) }
        #expect(try ProductPictures.validated(full) == full)
        #expect(throws: InventoryError(.conflict, field: "pictures", "")) { try PictureCommand.add(self.a, makeMain: true).applied(to: full) }
        #expect(throws: InventoryError(.conflict, field: "pictures", "")) { try ProductPictures.validated(full + [self.a]) }
        // A full product can still have its main picture replaced, or a picture it has made main.
        #expect(try PictureCommand.replaceMain(self.a).applied(to: full).count == ProductPictures.maximumCount)
        #expect(try PictureCommand.add(full[5], makeMain: true).applied(to: full).first == full[5])
        // Named twice, kept once.
        #expect(try ProductPictures.validated([self.a, self.b, self.a]) == [self.a, self.b])
        #expect(throws: InventoryError(.invalidValue, field: "files[]", "")) { try ProductPictures.validated(["x"], field: "files[]") }
    }

    @Test func theMainPictureIsTheProductsImageRef() {
        var product = Product(id: ProductID(1), details: ProductDetails(name: "Mug"), stock: .empty, createdAt: 0, updatedAt: 0)
        #expect(product.imageRef == nil)
        product.pictures = [self.b, self.a]
        #expect(product.imageRef == self.b)
    }
}
