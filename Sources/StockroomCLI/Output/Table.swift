import Foundation
import InventoryDomain

/// A printable table: aligned text, JSON (an array of objects, amounts as strings) or CSV.
struct Table {
    var columns: [String]
    var rows: [[String]]
    /// Columns aligned to the right (numbers).
    var numeric: Set<Int> = []

    /// The table of a report: its rows, and for `.table` its title and totals too.
    static func render(_ sheet: ReportSheet, _ format: OutputFormat) -> String {
        if format == .csv { return sheet.csv }
        let rows = format == .table ? sheet.rows + (sheet.totals.map { [$0] } ?? []) : sheet.rows
        let text = Table(columns: sheet.columns, rows: rows, numeric: sheet.numericColumns).render(format)
        guard format == .table, let title = sheet.title else { return text }
        return title + "\n" + text
    }

    func render(_ format: OutputFormat) -> String {
        switch format {
        case .csv:
            return CSV.document(header: self.columns, rows: self.rows)
        case .json:
            let objects = self.rows.map { row in
                "  {" + zip(self.columns, row).map { "\(Self.jsonString($0)): \(Self.jsonString($1))" }.joined(separator: ", ") + "}"
            }
            return "[\n" + objects.joined(separator: ",\n") + (objects.isEmpty ? "]\n" : "\n]\n")
        case .table:
            var widths = self.columns.map(\.count)
            for row in self.rows {
                for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
            }
            func line(_ cells: [String]) -> String {
                cells.enumerated().map { index, cell in
                    let pad = String(repeating: " ", count: max(0, widths[index] - cell.count))
                    return self.numeric.contains(index) ? pad + cell : cell + pad
                }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
            }
            var text = line(self.columns) + "\n" + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
            for row in self.rows { text += line(row) + "\n" }
            return text
        }
    }

    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
