import InventoryDomain
@testable import InventoryPostgres
import PostgresNIO
import Testing

/// The named prepared statements of the hot paths (``PreparedSQL``): one per statement and connection however often it
/// runs, each parameter typed by its Swift type also when nil, and a preparation that failed never left behind.
@Suite(.enabled(if: Backend.ported.contains(.postgres)))
struct PostgresPreparedTests {
    /// One connection of a fresh shop's pool (a pool of one, so every call below runs on the same connection).
    private func withOneConnection(_ body: @escaping @Sendable (PostgresConnection, InventoryPostgresRepository) async throws -> Void) async throws {
        let repository = try await InventoryPostgresRepository.open(try Backend.postgresLocation(), maximumConnections: 1)
        try await repository.client.withConnection { try await body($0, repository) }
    }

    private func preparedHere(_ connection: PostgresConnection, _ repository: InventoryPostgresRepository) async throws -> [String] {
        try await connection.query("SELECT statement FROM pg_prepared_statements ORDER BY statement", logger: repository.logger).collect(String.self)
    }

    @Test func aStatementIsPreparedOnceOnAConnectionHoweverOftenItRuns() async throws {
        try await self.withOneConnection { connection, repository in
            for id in Int64(1)...50 {
                let found = try await connection.prepared("SELECT id FROM product WHERE id = \(id)", logger: repository.logger).collect(Int64.self)
                #expect(found.isEmpty)
            }
            let here = try await self.preparedHere(connection, repository)
            #expect(here.filter { $0.contains("FROM product") } == ["SELECT id FROM product WHERE id = $1"])
        }
    }

    @Test func aNilIsBoundWithItsSwiftTypeSoALaterValueBindsToo() async throws {
        try await self.withOneConnection { connection, repository in
            // Unprepared, PostgreSQL cannot tell the type of a lone NULL parameter; here it is the Swift type's (bigint).
            let none: Int64? = nil
            let unknown = try await connection.prepared("SELECT \(none) IS NULL", logger: repository.logger).collect(Bool.self)
            #expect(unknown == [true])
            // A value after a nil: the statement was prepared with bigint, so 2^40 binds as the 8 bytes it is.
            let big: Int64? = 1 << 40
            let known = try await connection.prepared("SELECT \(big) IS NULL", logger: repository.logger).collect(Bool.self)
            #expect(known == [false])
            let sum = try await connection.prepared("SELECT COALESCE(\(big), 0) + 1", logger: repository.logger).collect(Int64.self)
            #expect(sum == [(1 << 40) + 1])
            let none2 = try await connection.prepared("SELECT COALESCE(\(none), 0) + 1", logger: repository.logger).collect(Int64.self)
            #expect(none2 == [1])
        }
    }

    @Test func aPreparationThatFailedIsPreparedAgainUnderAFreshName() async throws {
        try await self.withOneConnection { connection, repository in
            let statement: PreparedSQL = "SELECT count(*) FROM product WHERE quantity > \(Int64(0))"
            let key = statement.key
            let first = PreparedStatementNames.shared.name(key)
            // First sent inside a transaction that has already failed, its preparation fails: PostgresNIO keeps that
            // error for the name on this connection.
            try await connection.execute("BEGIN", logger: repository.logger)
            await #expect(throws: (any Error).self) { try await connection.execute("SELECT 1 / 0", logger: repository.logger) }
            await #expect(throws: (any Error).self) { try await connection.prepared(statement, logger: repository.logger).collect(Int64.self) }
            try await connection.execute("ROLLBACK", logger: repository.logger)
            // The same statement now runs on the same connection, under another name.
            let counted = try await connection.prepared(statement, logger: repository.logger).collect(Int64.self)
            #expect(counted == [0])
            #expect(PreparedStatementNames.shared.name(key) != first)
        }
    }

    @Test func aBrokenConstraintKeepsTheStatementsName() async throws {
        try await self.withOneConnection { connection, repository in
            let insert: (String) -> PreparedSQL = { name in "INSERT INTO category (name, color) VALUES (\(name), '')" }
            try await connection.run(insert("Tea"), logger: repository.logger)
            let key = insert("Tea").key
            let name = PreparedStatementNames.shared.name(key)
            let refused = await #expect(throws: PSQLError.self) { try await connection.run(insert("Tea"), logger: repository.logger) }
            #expect(refused?.serverInfo?[.sqlState]?.hasPrefix("23") == true)
            #expect(PreparedStatementNames.shared.name(key) == name)
            try await connection.run(insert("Coffee"), logger: repository.logger)
            let here = try await self.preparedHere(connection, repository)
            #expect(here.filter { $0.hasPrefix("INSERT INTO category") }.count == 1)
        }
    }
}
