import Foundation
import InventoryDomain
import Logging
import PostgresNIO

/// Settings and the receipt logo (``SettingsRepository``).
extension InventoryPostgresRepository: SettingsRepository {
    /// The settings as committed, or as read within the last second (``settingsCache``). A read is one statement, so
    /// one snapshot without a transaction around it.
    public func settings() async throws -> ShopSettings {
        try await self.settingsCache.value(for: 0) {
            try await self.statement { connection in try await Self.loadSettings(connection, logger: self.logger) }
        }!
    }

    /// The stored settings, parsed and checked by the domain (``ShopSettings/init(storedValues:)``).
    static func loadSettings(_ connection: PostgresConnection, logger: Logger) async throws -> ShopSettings {
        var values: [String: String] = [:]
        for try await (key, value) in try await connection.prepared("SELECT key, value FROM setting", logger: logger).decode((String, String).self) {
            values[key] = value
        }
        return try ShopSettings(storedValues: values)
    }

    public func saveSettings(_ settings: ShopSettings) async throws {
        let settings = try settings.validated()
        try await self.write { connection, _, log in
            // One settings change at a time, whichever instance makes it; the settings are read again under the lock.
            try await connection.execute("SELECT pg_advisory_xact_lock(hashtext('stockroom-settings'))", logger: self.logger)
            let old = try await Self.loadSettings(connection, logger: self.logger)
            try old.checkCurrencyChange(to: settings, amountsBooked: try await self.exists("SELECT 1 FROM movement", connection))
            try old.checkPriceMeaningChange(to: settings, salesBooked: try await self.exists("SELECT 1 FROM document WHERE kind = 'sale'", connection))
            for (key, value) in settings.storedValues {
                try await connection.execute("""
                    INSERT INTO setting (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """, logger: self.logger)
            }
            if old.timeZoneIdentifier != settings.timeZoneIdentifier {
                try await self.rebucketDays(connection, calendar: settings.calendar)
            }
            try await log.record(.settingsChanged, changes: ShopActivity.Change.between(old, settings))
        }
    }

    /// Recomputes every stored report day after a time-zone change, with the domain's calendar (not PostgreSQL's time
    /// zone data, which could disagree with it on a rare zone), and the monthly sales summary from them.
    func rebucketDays(_ connection: PostgresConnection, calendar: ShopCalendar) async throws {
        for table in ["document", "movement"] {
            var rows: [(Int64, Instant)] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT id, effectiveAt FROM \(table)"), logger: self.logger)
                .decode((Int64, Instant).self) { rows.append(row) }
            for (id, effectiveAt) in rows {
                let day = calendar.dayNumber(milliseconds: effectiveAt.milliseconds)
                var binds = PostgresBindings()
                binds.append(day)
                binds.append(id)
                try await connection.execute(PostgresQuery(unsafeSQL: "UPDATE \(table) SET day = $1 WHERE id = $2", binds: binds), logger: self.logger)
            }
        }
        try await connection.execute("DELETE FROM productSalesYear", logger: self.logger)
        let months = (1...12).map { "q\($0), r\($0)" }.joined(separator: ", ")
        let sums = (1...12).map { "SUM(CASE WHEN day / 100 % 100 = \($0) THEN -quantity ELSE 0 END), SUM(CASE WHEN day / 100 % 100 = \($0) THEN revenue ELSE 0 END)" }
            .joined(separator: ", ")
        try await connection.execute(PostgresQuery(unsafeSQL: """
            INSERT INTO productSalesYear (year, productId, \(months))
            SELECT day / 10000, productId, \(sums) FROM movement WHERE kind IN ('sale', 'customerReturn') GROUP BY day / 10000, productId
            """), logger: self.logger)
    }

    /// Whether the query finds a row.
    func exists(_ sql: String, _ connection: PostgresConnection) async throws -> Bool {
        for try await found in try await connection.query(PostgresQuery(unsafeSQL: "SELECT EXISTS (\(sql))"), logger: self.logger).decode(Bool.self) {
            return found
        }
        return false
    }

    // MARK: Receipt logo

    public func shopLogo() async throws -> ShopLogo? {
        try await self.read { connection in
            for try await (data, contentType, version) in try await connection.query(
                "SELECT data, contentType, version FROM shopLogo WHERE id = 1", logger: self.logger
            ).decode((ByteBuffer, String, Int64).self) {
                return ShopLogo(bytes: Array(data.readableBytesView), contentType: contentType, version: version)
            }
            return nil
        }
    }

    public func shopLogoVersion() async throws -> Int64? {
        try await self.read { connection in
            try await connection.query("SELECT version FROM shopLogo WHERE id = 1", logger: self.logger).collect(Int64.self).first
        }
    }

    public func setShopLogo(_ bytes: [UInt8]?, contentType: String) async throws -> ShopLogo? {
        if let bytes, bytes.count > ShopLogo.maxBytes {
            throw InventoryError(.invalidValue, field: "body", "a logo is at most \(ShopLogo.maxBytes / 1024) KB")
        }
        return try await self.write { connection, _, log in
            try await connection.execute("SELECT pg_advisory_xact_lock(hashtext('stockroom-logo'))", logger: self.logger)
            let old = try await connection.query("SELECT version FROM shopLogo WHERE id = 1", logger: self.logger).collect(Int64.self).first
            guard let bytes else {
                guard old != nil else { return nil }
                try await connection.execute("DELETE FROM shopLogo WHERE id = 1", logger: self.logger)
                try await log.record(.settingsChanged, changes: [ShopActivity.Change(.logo, from: .hidden("logo"), to: .none)])
                return nil
            }
            // Strictly newer than the last, so a page asking for the new version never gets the old one from a cache.
            let version = max(Self.now.milliseconds, (old ?? 0) + 1)
            try await connection.execute("""
                INSERT INTO shopLogo (id, contentType, data, version) VALUES (1, \(contentType), \(ByteBuffer(bytes: bytes)), \(version))
                ON CONFLICT (id) DO UPDATE SET contentType = excluded.contentType, data = excluded.data, version = excluded.version
                """, logger: self.logger)
            try await log.record(.settingsChanged, changes: [ShopActivity.Change(.logo, from: old == nil ? .none : .hidden("logo"), to: .hidden("logo"))])
            return ShopLogo(bytes: bytes, contentType: contentType, version: version)
        }
    }
}
