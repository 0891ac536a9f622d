import Foundation

/// The shop's settings (one row).
public protocol SettingsRepository: Sendable {
    /// The shop's settings.
    func settings() async throws -> ShopSettings
    /// Saves the settings; a new time zone re-buckets report days.
    func saveSettings(_ settings: ShopSettings) async throws
}
