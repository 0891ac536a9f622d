import GRDB
import GRDBSQLite

/// What reads a result row's columns by position: a GRDB `Row`, or a statement's current row (``StatementColumns``).
/// A NULL, or a value of another type, in a column read as a non-optional value stops the program, as a `Row` does.
protocol ColumnsByPosition {
    func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(at index: Int) -> Value
}

extension ColumnsByPosition {
    subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value { self.value(at: index) }
}

extension Row: ColumnsByPosition {
    func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(at index: Int) -> Value {
        let value: Value = self[index]
        return value
    }
}

/// The current row of a statement that a cursor has stepped, read straight from SQLite: no `Row`, so none of the table
/// of column names that GRDB builds for each row cursor. Valid only while the statement stays on that row.
struct StatementColumns: ColumnsByPosition {
    let statement: Statement

    init(_ statement: Statement) {
        self.statement = statement
    }

    func value<Value: DatabaseValueConvertible & StatementColumnConvertible>(at index: Int) -> Value {
        // `fromStatement` answers nil for a NULL (`.some(nil)` when Value is optional) and for a value it cannot read.
        guard let value = Value.fromStatement(self.statement.sqliteStatement, atUncheckedIndex: CInt(index)) else {
            preconditionFailure("column \(index) (\(self.statement.columnNames[index])) cannot be read as \(Value.self)")
        }
        return value
    }
}

extension Statement {
    /// Runs this statement with its one parameter bound to `id` and reads its first row from the statement itself
    /// (``StatementColumns``): nil when there is no row. The hot point reads (a product by barcode, a product's ledger
    /// state and facts on the write path) use it.
    func firstRow<T>(id: Int64, _ read: (StatementColumns) throws -> T) throws -> T? {
        try self.firstRow(binding: { sqlite3_bind_int64($0, 1, id) }, read)
    }

    /// ``firstRow(id:_:)`` with the parameter bound to a text.
    func firstRow<T>(text: String, _ read: (StatementColumns) throws -> T) throws -> T? {
        var text = text
        return try text.withUTF8 { bytes in
            try self.firstRow(binding: { statement in
                // SQLITE_STATIC (nil): the bytes outlive the step, and the binding is cleared before they go. An empty
                // text has no bytes to point at: SQLite copies a zero-length one (SQLITE_TRANSIENT).
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(statement, 1, "", 0, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(statement, 1, $0, CInt(bytes.count), nil)
                }
            }, read)
        }
    }

    /// Resets the statement, binds its one parameter with `bind`, steps it once and reads the row, then resets it and
    /// clears the binding: straight on SQLite's statement, without a GRDB cursor (whose arguments, checks and cursor
    /// object were a fifth of a barcode lookup's read; BENCHMARKS.md). The statement must take exactly one parameter.
    /// GRDB binds its own arguments anew whenever it runs the statement with arguments, so it is not disturbed.
    private func firstRow<T>(binding bind: (SQLiteStatement) -> CInt,
                             _ read: (StatementColumns) throws -> T) throws -> T? {
        let statement = self.sqliteStatement
        precondition(sqlite3_bind_parameter_count(statement) == 1, "firstRow reads a statement of one parameter")
        sqlite3_reset(statement)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        var code = bind(statement)
        if code == SQLITE_OK { code = sqlite3_step(statement) }
        switch code {
        case SQLITE_ROW: return try read(StatementColumns(self))
        case SQLITE_DONE: return nil
        default:
            let message = sqlite3_errmsg(sqlite3_db_handle(statement)).map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: self.sql)
        }
    }
}
