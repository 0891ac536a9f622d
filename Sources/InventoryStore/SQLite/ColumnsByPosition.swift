import GRDB

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
    /// Runs this statement, whose first column must be a non-NULL integer (a row id), and reads its first row from the
    /// statement itself (``StatementColumns``): nil when there is no row. The hot point reads of the write path (a
    /// product's ledger state and facts) use it, for the same reason the barcode lookup does.
    func firstRow<T>(arguments: StatementArguments, _ read: (StatementColumns) throws -> T) throws -> T? {
        // The cursor of ids steps the statement, and resets it when it goes.
        let ids = try Int64.fetchCursor(self, arguments: arguments)
        guard try ids.next() != nil else { return nil }
        return try withExtendedLifetime(ids) { try read(StatementColumns(self)) }
    }
}
