import Logging
import NIOConcurrencyHelpers
import PostgresNIO

// Named prepared statements for the statements a till sends most (a sale, its read-back, the caller's session, the
// settings). PostgresNIO's `query` sends each statement unnamed, so PostgreSQL parses, analyses and plans it anew every
// time: under a load of one-line sales that was about half of PostgreSQL's CPU (perf, BENCHMARKS.md). Prepared once per
// connection, a statement is only bound and executed after that, and PostgreSQL keeps its plan.

/// A statement whose SQL text is fixed where it is written: values only go in as parameters (`\(value)` becomes `$n`),
/// and text only as a constant of the source (`\(constant:)`, a `StaticString`), so one call site prepares one
/// statement per connection, however many times it runs. A statement built at run time goes through
/// `PostgresQuery(unsafeSQL:)` and `query`, unprepared, so it cannot fill a connection with prepared statements (or
/// through ``init(shape:)``, for a few shapes chosen in code).
///
/// Each parameter's type is its Swift type's, also for a `nil` (PostgreSQL would otherwise infer the type of a NULL
/// from where it stands, and a later call with a value of another type would fail to bind).
struct PreparedSQL: ExpressibleByStringInterpolation, Sendable {
    var sql: String
    var binds = PostgresBindings()
    var types: [PostgresDataType] = []

    /// A statement whose text is one of a few shapes that code chooses (a document's columns, a table's name; never
    /// text from input), its parameters bound in order with ``bind(_:)``.
    init(shape sql: String) {
        self.sql = sql
    }

    init(stringLiteral value: String) {
        self.init(shape: value)
    }

    init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.statement
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var statement = PreparedSQL(shape: "")

        init(literalCapacity: Int, interpolationCount: Int) {
            self.statement.sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            self.statement.sql.append(literal)
        }

        mutating func appendInterpolation<Value: PostgresNonThrowingEncodable>(_ value: Value?) {
            self.statement.bind(value)
            self.statement.sql.append("$\(self.statement.binds.count)")
        }

        mutating func appendInterpolation<Value: PostgresNonThrowingEncodable>(_ value: Value) {
            self.appendInterpolation(Optional(value))
        }

        /// Text written into the statement as it is: a constant of the source (a list of columns), never a value.
        mutating func appendInterpolation(constant text: StaticString) {
            self.statement.sql.append(text.description)
        }
    }

    mutating func bind<Value: PostgresNonThrowingEncodable>(_ value: Value?) {
        if let value { self.binds.append(value) } else { self.binds.appendNull() }
        self.types.append(Value.psqlType)
    }

    /// What names the statement: its text and its parameters' types.
    var key: PreparedStatementNames.Key { PreparedStatementNames.Key(sql: self.sql, types: self.types) }
}

/// The names of the prepared statements, one per SQL text and parameter types, the same on every connection of this
/// process (PostgresNIO prepares a name on a connection the first time it is used there, and remembers it).
///
/// PostgresNIO also remembers a preparation that failed, for good, on that connection (a statement first sent in a
/// transaction that had already failed, say): every later use of the name there would answer the same error. So after
/// an error that may have come from the preparation, the statement is given a fresh name, prepared anew wherever it
/// runs next. Errors that come from running a statement, not preparing it — a broken constraint, a serialization
/// failure or deadlock that the caller retries — keep the name, so that a refusal does not leave a stale statement
/// on every connection.
final class PreparedStatementNames: Sendable {
    struct Key: Hashable, Sendable {
        var sql: String
        var types: [PostgresDataType]
    }

    private let state = NIOLockedValueBox<(names: [Key: String], next: Int)>(([:], 0))

    static let shared = PreparedStatementNames()

    func name(_ key: Key) -> String {
        self.state.withLockedValue { state in
            if let name = state.names[key] { return name }
            state.next += 1
            let name = "stockroom_\(state.next)"
            state.names[key] = name
            return name
        }
    }

    func forget(_ key: Key) {
        self.state.withLockedValue { _ = $0.names.removeValue(forKey: key) }
    }

    /// Whether an error keeps the statement's name: it was raised while the statement ran (SQLSTATE classes 23, a broken
    /// constraint, and 40, a serialization failure or deadlock), so the statement itself was prepared.
    static func keepsName(_ error: any Error) -> Bool {
        guard let code = (error as? PSQLError)?.serverInfo?[.sqlState] else { return false }
        return code.hasPrefix("23") || code.hasPrefix("40")
    }
}

/// The one `PostgresPreparedStatement` type behind every ``PreparedSQL``: PostgresNIO reads a prepared statement's
/// name, text and parameter types from static members of its type, so they come from the task-local `current`, set
/// around each call (PostgresNIO reads them synchronously when the statement is sent, and again only to describe an
/// error it throws, still inside the call).
struct AnyPreparedStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    struct Text: Sendable {
        var name: String
        var sql: String
        var types: [PostgresDataType]
    }

    @TaskLocal static var current = Text(name: "", sql: "", types: [])

    static var name: String { current.name }
    static var sql: String { current.sql }
    static var bindingDataTypes: [PostgresDataType] { current.types }

    var bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { self.bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// The rows of a prepared statement, read as `PostgresRowSequence`'s are.
struct PreparedRows: AsyncSequence, Sendable {
    typealias Element = PostgresRow
    let base: AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>

    func makeAsyncIterator() -> AsyncThrowingMapSequence<PostgresRowSequence, PostgresRow>.AsyncIterator {
        self.base.makeAsyncIterator()
    }

    func decode<each Column: PostgresDecodable>(_: (repeat each Column).Type) -> AsyncThrowingMapSequence<Self, (repeat each Column)> {
        self.map { try $0.decode((repeat each Column).self) }
    }

    /// Every row's single column.
    func collect<T: PostgresDecodable & Sendable>(_: T.Type) async throws -> [T] {
        var values: [T] = []
        for try await row in self { values.append(try row.decode(T.self)) }
        return values
    }
}

extension PostgresConnection {
    /// Runs `statement` as a named prepared statement (prepared on this connection the first time), its rows to read.
    func prepared(_ statement: PreparedSQL, logger: Logger) async throws -> PreparedRows {
        let key = statement.key
        let text = AnyPreparedStatement.Text(name: PreparedStatementNames.shared.name(key), sql: statement.sql, types: statement.types)
        do {
            return try await AnyPreparedStatement.$current.withValue(text) {
                PreparedRows(base: try await self.execute(AnyPreparedStatement(bindings: statement.binds), logger: logger))
            }
        } catch {
            if !PreparedStatementNames.keepsName(error) { PreparedStatementNames.shared.forget(key) }
            throw error
        }
    }

    /// Runs `statement` as a named prepared statement to its end, reading and dropping any rows (see
    /// ``execute(_:logger:)``). An error met while the rows are read comes from running it: it was prepared by then.
    func run(_ statement: PreparedSQL, logger: Logger) async throws {
        for try await _ in try await self.prepared(statement, logger: logger) {}
    }
}
