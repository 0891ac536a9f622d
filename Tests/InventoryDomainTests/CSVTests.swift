import InventoryDomain
import Testing

@Suite struct CSVTests {
    @Test func writesRFC4180AndNeutralisesFormulas() {
        #expect(CSV.line(["a", "b,c", "say \"hi\"", "two\nlines"]) == "a,\"b,c\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n")
        #expect(CSV.line(["=SUM(A1)", "+1+1", "-2+3", "@cmd", "-1.50", "+7", "ok"]) == "'=SUM(A1),'+1+1,'-2+3,'@cmd,-1.50,+7,ok\r\n")
        // Every plain number stays a number, whatever its size (a fixed-point parse once overflowed from -9.23 on).
        #expect(CSV.line(["-13.75", "-2.75", "-1234567890123.5", "-.5", "-1.2.3", "-", "-1e3", "-١٢"]) ==
                "-13.75,-2.75,-1234567890123.5,-.5,'-1.2.3,'-,'-1e3,'-١٢\r\n")
    }

    @Test func parsesQuotesCRLFAndBOM() throws {
        let text = "\u{FEFF}name,note\r\n\"Café, au lait\",\"he said \"\"ok\"\"\"\r\nTea,\"multi\nline\"\n\nWater,\n"
        let records = try CSV.parse(text)
        #expect(records.map(\.cells) == [["name", "note"], ["Café, au lait", "he said \"ok\""], ["Tea", "multi\nline"], ["Water", ""]])
        #expect(records.map(\.line) == [1, 2, 3, 6])
    }

    @Test func roundTrips() throws {
        let rows = [["x", "=1", "a,b"], ["é", "\"q\"", ""]]
        let parsed = try CSV.parse(CSV.document(header: ["h1", "h2", "h3"], rows: rows))
        #expect(parsed.dropFirst().map(\.cells) == [["x", "'=1", "a,b"], ["é", "\"q\"", ""]])
    }

    @Test func refusesMalformedQuotes() {
        #expect(throws: InventoryError(.invalidValue, field: "line 2", "")) { try CSV.parse("a\n\"open") }
        #expect(throws: InventoryError(.invalidValue, field: "line 1", "")) { try CSV.parse("ab\"c\n") }
        #expect(throws: InventoryError(.invalidValue, field: "line 1", "")) { try CSV.parse("\"a\"b\n") }
    }

    func existing() -> [Product] {
        [
            Product(id: ProductID(1), details: (try? ProductDetails(name: "Beans", sku: "B1", barcode: "4006381333931", salePrice: Money(minorUnits: 900)).validated()) ?? ProductDetails(name: "?"),
                    stock: .empty, createdAt: 0, updatedAt: 0),
            Product(id: ProductID(2), details: (try? ProductDetails(name: "Tea", sku: "T1", barcode: "96385074").validated()) ?? ProductDetails(name: "?"),
                    stock: .empty, createdAt: 0, updatedAt: 0),
        ]
    }

    @Test func plansCreatesUpdatesAndNewCategories() throws {
        let csv = """
            name,sku,barcode,category,sale_price,tax_rate,track_stock
            Beans,B1,4006381333931,,9.50,7,true
            Oat milk,,036000291452,Dairy,2.20,7,yes
            Beans,B1,4006381333931,,9.50,7,true
            """
        // the third row repeats the SKU: refused
        guard case .failure(let failure) = ProductImport.plan(csv: csv, currency: .eur, existing: self.existing(), categories: []) else {
            Issue.record("duplicate SKU in the file accepted")
            return
        }
        #expect(failure.problems.map(\.line) == [4])
        let good = String(csv.split(separator: "\n").prefix(3).joined(separator: "\n"))
        let plan = try ProductImport.plan(csv: good, currency: .eur, existing: self.existing(), categories: []).get()
        #expect(plan.rows.count == 2)
        #expect(plan.rows[0].productID == ProductID(1))
        #expect(plan.rows[0].changedFields == ["sale_price", "tax_rate"])
        #expect(plan.rows[1].productID == nil)
        #expect(plan.rows[1].details.barcode == "0036000291452")
        #expect(plan.newCategories == ["Dairy"])
    }

    @Test func reportsEveryBadRowWithItsLine() {
        let csv = """
            name,barcode,sale_price,tax_rate,track_stock,colour
            ,123,1.00,0,true,red
            Tea,4006381333932,1.00,0,true,red
            Cake,,1.005,0,true,red
            Pie,,1.00,abc,true,red
            Jam,,1.00,0,maybe,red
            Bun,,1.00
            """
        guard case .failure(let failure) = ProductImport.plan(csv: csv, currency: .eur, existing: [], categories: []) else {
            Issue.record("bad file accepted")
            return
        }
        #expect(failure.problems.map(\.line) == [1, 2, 3, 4, 5, 6, 7])
        #expect(failure.problems.map(\.field) == ["colour", "name", "barcode", "sale_price", "tax_rate", "track_stock", nil])
        #expect(failure.description.contains("line 3, barcode"))
    }

    @Test func refusesANulOrControlCharacterNamingTheRowAndColumn() {
        let csv = "name,sku,unit\nTea,T1,pcs\nCake,C\u{0}1,pcs\nBun,B1,k\u{7}g\nJam,J1,\"a\tb\"\n"
        guard case .failure(let failure) = ProductImport.plan(csv: csv, currency: .eur, existing: [], categories: []) else {
            Issue.record("a NUL byte was accepted")
            return
        }
        #expect(failure.problems.map(\.line) == [3, 4])
        #expect(failure.problems.map(\.field) == ["sku", "unit"])
        #expect(failure.problems.allSatisfy { $0.message.contains("control character") })
    }

    @Test func refusesABarcodeOwnedByAnotherProductAndEmptyFiles() {
        let csv = "name,sku,barcode\nBeans,B1,96385074\n"
        guard case .failure(let failure) = ProductImport.plan(csv: csv, currency: .eur, existing: self.existing(), categories: []) else {
            Issue.record("stolen barcode accepted")
            return
        }
        #expect(failure.problems.first?.message.contains("'Tea'") == true)
        #expect((try? ProductImport.plan(csv: "", currency: .eur, existing: [], categories: []).get()) == nil)
        #expect((try? ProductImport.plan(csv: "sku\nA\n", currency: .eur, existing: [], categories: []).get()) == nil)
        #expect((try? ProductImport.plan(csv: "name\n\"open\n", currency: .eur, existing: [], categories: []).get()) == nil)
    }
}
