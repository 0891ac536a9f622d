/// Plans a CSV product import: every row is validated before anything is written.
///
/// Columns (header names, any order; only `name` is required): `name, sku, barcode, category, unit, sale_price,
/// minimum_sale_price, tax_rate, low_stock_threshold, track_stock, allow_negative_stock, icon, archived, supplier_code,
/// pack_size` (an empty pack size is 1).
/// A row updates the product with the same SKU, else the same barcode, else creates one. Export columns that
/// come from the books (`cost_price`, `quantity`, `stock_value`, `id`) are ignored, so an export imports back.
public struct ProductImport: Sendable {
    /// What one row will do.
    public struct Row: Sendable, Hashable {
        /// The line in the file (1-based, the header is line 1).
        public var line: Int
        /// The product to update, or nil to create one.
        public var productID: ProductID?
        /// The product as it will be saved (its category may be one to create, see ``categoryName``).
        public var details: ProductDetails
        /// The category by name, when the row names one.
        public var categoryName: String?
        /// Fields whose value changes (for updates), or all given fields (for creations).
        public var changedFields: [String]
    }

    /// A bad row.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var field: String?
        public var message: String
        public var description: String { "line \(self.line)" + (self.field.map { ", \($0)" } ?? "") + ": \(self.message)" }
    }

    /// Rows that create or change a product (unchanged rows are left out).
    public var rows: [Row]
    /// Rows whose values equal the product already stored.
    public var unchangedCount: Int
    /// Category names that do not exist yet and will be created.
    public var newCategories: [String]

    static let knownColumns: Set<String> = [
        "name", "sku", "barcode", "category", "unit", "sale_price", "minimum_sale_price", "tax_rate", "low_stock_threshold",
        "track_stock", "allow_negative_stock", "icon", "archived", "supplier_code", "pack_size", "id", "cost_price", "quantity", "stock_value", "status",
        "description", "shelf",
    ]

    /// Validates the whole file against the existing products and categories.
    /// - Returns: the plan, or every problem found (with line numbers) — never a partial plan.
    public static func plan(csv text: String, currency: Currency, existing: [Product], categories: [Category]) -> Result<ProductImport, ProductImportFailure> {
        let records: [CSV.Record]
        do {
            records = try CSV.parse(text)
        } catch let error as InventoryError {
            return .failure(ProductImportFailure(problems: [Problem(line: Int(error.field?.dropFirst(5) ?? "") ?? 0, field: nil, message: error.userMessage)]))
        } catch {
            return .failure(ProductImportFailure(problems: [Problem(line: 0, field: nil, message: "the file cannot be read as CSV")]))
        }
        guard let header = records.first else {
            return .failure(ProductImportFailure(problems: [Problem(line: 1, field: nil, message: "the file is empty; it needs a header row")]))
        }
        let columns = header.cells.map { $0.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "_") }
        var problems: [Problem] = []
        for column in columns where !self.knownColumns.contains(column) {
            problems.append(Problem(line: header.line, field: column, message: "unknown column; known columns are \(self.knownColumns.sorted().joined(separator: ", "))"))
        }
        guard columns.contains("name") else {
            problems.append(Problem(line: header.line, field: "name", message: "the header needs a 'name' column"))
            return .failure(ProductImportFailure(problems: problems))
        }
        let bySKU = Dictionary(existing.compactMap { p in p.details.sku.map { ($0, p) } }, uniquingKeysWith: { a, _ in a })
        let byBarcode = Dictionary(existing.compactMap { p in p.details.barcode.map { ($0, p) } }, uniquingKeysWith: { a, _ in a })
        let categoryByName = Dictionary(categories.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var rows: [Row] = []
        var unchanged = 0
        var newCategories: [String] = []
        var seenSKU: [String: Int] = [:], seenBarcode: [String: Int] = [:]

        for record in records.dropFirst() {
            guard record.cells.count == columns.count else {
                problems.append(Problem(line: record.line, field: nil, message: "has \(record.cells.count) cells, the header has \(columns.count)"))
                continue
            }
            var values: [String: String] = [:]
            for (column, cell) in zip(columns, record.cells) { values[column] = cell.trimmingCharacters(in: .whitespaces) }
            if let (column, _) = zip(columns, record.cells).first(where: { Self.hasControlCharacter($0.1) }) {
                problems.append(Problem(line: record.line, field: column,
                                        message: "contains a NUL or other control character; save the file again as plain UTF-8 text"))
                continue
            }
            do {
                let sku = values["sku"]?.nilIfEmpty
                var barcode = values["barcode"]?.nilIfEmpty
                if let raw = barcode { barcode = try Barcode.normalize(raw) }
                let match = sku.flatMap { bySKU[$0] } ?? barcode.flatMap { byBarcode[$0] }
                var details = match?.details ?? ProductDetails(name: "")
                if let name = values["name"] { details.name = name }
                if columns.contains("sku") { details.sku = sku }
                if columns.contains("barcode") { details.barcode = barcode }
                if let unit = values["unit"] { details.unit = unit }
                if let text = values["sale_price"] { details.salePrice = try text.isEmpty ? .zero : Money.parse(text, currency: currency, field: "sale_price") }
                if let text = values["minimum_sale_price"] {
                    details.minimumSalePrice = try text.isEmpty ? nil : Money.parse(text, currency: currency, field: "minimum_sale_price")
                }
                if let text = values["tax_rate"] { details.taxRate = try text.isEmpty ? .zero : Percent.parse(text, field: "tax_rate") }
                if let text = values["low_stock_threshold"] {
                    details.lowStockThreshold = try text.isEmpty ? nil : Quantity.parse(text, field: "low_stock_threshold")
                }
                if let text = values["track_stock"] { details.tracksStock = try self.bool(text, field: "track_stock", default: true) }
                if let text = values["allow_negative_stock"] { details.allowsNegativeStock = try self.bool(text, field: "allow_negative_stock", default: false) }
                if let text = values["archived"] { details.isArchived = try self.bool(text, field: "archived", default: false) }
                if let icon = values["icon"] { details.iconEmoji = icon }
                if let code = values["supplier_code"] { details.supplierCode = code.nilIfEmpty }
                if let text = values["pack_size"] { details.packSize = try text.isEmpty ? Quantity(1) : Quantity.parse(text, field: "pack_size") }
                if let description = values["description"] { details.description = description }
                if let shelf = values["shelf"] { details.shelf = shelf.nilIfEmpty }
                var categoryName: String?
                if let name = values["category"] {
                    if name.isEmpty {
                        details.categoryID = nil
                    } else if let category = categoryByName[name.lowercased()] {
                        details.categoryID = category.id
                    } else {
                        categoryName = name
                        details.categoryID = nil
                        if !newCategories.contains(where: { $0.lowercased() == name.lowercased() }) { newCategories.append(name) }
                    }
                }
                let validated = try details.validated()
                if let sku = validated.sku {
                    if let first = seenSKU[sku] { throw InventoryError(.duplicate, field: "sku", "SKU \(sku) also appears on line \(first)") }
                    seenSKU[sku] = record.line
                }
                if let code = validated.barcode {
                    if let first = seenBarcode[code] { throw InventoryError(.duplicate, field: "barcode", "barcode \(code) also appears on line \(first)") }
                    seenBarcode[code] = record.line
                    if let owner = byBarcode[code], owner.id != match?.id {
                        throw InventoryError(.duplicate, field: "barcode", "barcode \(code) already belongs to '\(owner.name)'")
                    }
                }
                if let sku = validated.sku, let owner = bySKU[sku], owner.id != match?.id {
                    throw InventoryError(.duplicate, field: "sku", "SKU \(sku) already belongs to '\(owner.name)'")
                }
                let changed = self.changedFields(from: match?.details, to: validated, categoryName: categoryName)
                if match != nil && changed.isEmpty {
                    unchanged += 1
                    continue
                }
                rows.append(Row(line: record.line, productID: match?.id, details: validated, categoryName: categoryName, changedFields: changed))
            } catch let error as InventoryError {
                problems.append(Problem(line: record.line, field: error.field, message: error.userMessage))
            } catch {
                problems.append(Problem(line: record.line, field: nil, message: "cannot be read"))
            }
        }
        if !problems.isEmpty { return .failure(ProductImportFailure(problems: problems)) }
        return .success(ProductImport(rows: rows, unchangedCount: unchanged, newCategories: newCategories))
    }

    /// Whether a cell holds a NUL or another C0 control character (tab, line feed and carriage return are text).
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r" || $0.value == 0x7F }
    }

    static func bool(_ text: String, field: String, default value: Bool) throws -> Bool {
        switch text.lowercased() {
        case "": return value
        case "1", "true", "yes", "y", "x": return true
        case "0", "false", "no", "n": return false
        default: throw InventoryError(.invalidValue, field: field, "'\(text)' is not yes/no (use true or false)")
        }
    }

    static func changedFields(from old: ProductDetails?, to new: ProductDetails, categoryName: String?) -> [String] {
        var fields: [String] = []
        func check<T: Equatable>(_ name: String, _ path: KeyPath<ProductDetails, T>) {
            if old.map({ $0[keyPath: path] != new[keyPath: path] }) ?? true { fields.append(name) }
        }
        check("name", \.name)
        check("sku", \.sku)
        check("barcode", \.barcode)
        if categoryName != nil { fields.append("category") } else { check("category", \.categoryID) }
        check("unit", \.unit)
        check("sale_price", \.salePrice)
        check("minimum_sale_price", \.minimumSalePrice)
        check("tax_rate", \.taxRate)
        check("low_stock_threshold", \.lowStockThreshold)
        check("track_stock", \.tracksStock)
        check("allow_negative_stock", \.allowsNegativeStock)
        check("icon", \.iconEmoji)
        check("archived", \.isArchived)
        check("supplier_code", \.supplierCode)
        check("pack_size", \.packSize)
        check("description", \.description)
        check("shelf", \.shelf)
        return fields
    }
}

/// Every problem of a refused import.
public struct ProductImportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var problems: [ProductImport.Problem]
    public var description: String { self.problems.map(\.description).joined(separator: "\n") }
}

import Foundation
