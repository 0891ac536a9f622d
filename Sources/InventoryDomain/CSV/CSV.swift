/// RFC 4180 CSV: UTF-8, comma-separated, CRLF line ends, quotes doubled.
public enum CSV {
    /// One record as a CSV line (with CRLF). Cells that a spreadsheet would run as a formula (starting with
    /// `=`, `+`, `-`, `@`, tab or CR) are neutralised with a leading `'`, except plain numbers such as `-1.50`.
    public static func line(_ cells: [String]) -> String {
        cells.map { self.escape(self.neutralise($0)) }.joined(separator: ",") + "\r\n"
    }

    /// A whole document: header and rows.
    public static func document(header: [String], rows: [[String]]) -> String {
        var text = self.line(header)
        for row in rows { text += self.line(row) }
        return text
    }

    /// Prefixes formula-looking cells with `'` so spreadsheets show them as text.
    public static func neutralise(_ cell: String) -> String {
        guard let first = cell.first, "=+-@\t\r".contains(first) else { return cell }
        if first == "-" || first == "+", self.isPlainNumber(cell.dropFirst()) { return cell }
        return "'" + cell
    }

    /// Digits with at most one decimal point and at least one digit (`13.75`, `0.5`, `12`), of any length.
    static func isPlainNumber(_ text: Substring) -> Bool {
        var digits = 0, points = 0
        for character in text {
            if character.isASCII, character.isNumber { digits += 1 } else if character == "." { points += 1 } else { return false }
        }
        return digits > 0 && points <= 1
    }

    static func escape(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A parsed record and the line it started on (1-based).
    public struct Record: Sendable, Hashable {
        public var line: Int
        public var cells: [String]
    }

    /// Parses CSV text (RFC 4180; LF or CRLF; a UTF-8 byte-order mark is skipped).
    /// - Throws: ``InventoryError`` naming the line of an unterminated quote or a stray quote.
    public static func parse(_ text: String) throws -> [Record] {
        var records: [Record] = []
        var cells: [String] = []
        var cell = ""
        var inQuotes = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var index = 0
        func endRecord() {
            cells.append(cell)
            cell = ""
            if !(cells.count == 1 && cells[0].isEmpty) { records.append(Record(line: recordLine, cells: cells)) }
            cells = []
        }
        while index < scalars.count {
            let c = scalars[index]
            index += 1
            if inQuotes {
                if c == "\"" {
                    if index < scalars.count && scalars[index] == "\"" {
                        cell.unicodeScalars.append("\"")
                        index += 1
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if c == "\n" { line += 1 }
                    cell.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case ",":
                cells.append(cell)
                cell = ""
                afterQuote = false
            case "\r":
                continue
            case "\n":
                endRecord()
                afterQuote = false
                line += 1
                recordLine = line
            case "\"":
                guard cell.isEmpty, !afterQuote else {
                    throw InventoryError(.invalidValue, field: "line \(line)", "a quote inside an unquoted cell; wrap the cell in quotes and double the quote")
                }
                inQuotes = true
            default:
                guard !afterQuote else {
                    throw InventoryError(.invalidValue, field: "line \(line)", "text after a closing quote")
                }
                cell.unicodeScalars.append(c)
            }
        }
        if inQuotes {
            throw InventoryError(.invalidValue, field: "line \(recordLine)", "a quoted cell is never closed")
        }
        if !cell.isEmpty || !cells.isEmpty { endRecord() }
        return records
    }
}
