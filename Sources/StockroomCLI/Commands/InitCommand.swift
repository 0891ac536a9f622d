import ArgumentParser
import InventoryDomain

/// `stockroom init`: creates the data folder and the shop's settings.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "init", abstract: "Create the shop's database and settings.")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "The shop's name.") var shopName: String?
    @Option(help: "ISO 4217 currency code (EUR, USD, JPY, KWD …); sets the decimals of every amount.") var currency: String?
    @Option(help: "IANA time zone (e.g. Europe/Berlin); a report day is a calendar day there.") var timeZone: String?
    @Option(help: "Default tax rate in percent.") var defaultTax: String?
    @Option(help: "Whether prices include tax (true: what the customer pays, as in the EU, UK, Australia; false: before tax, as in the US). Changeable until the first sale.")
    var pricesIncludeTax: Bool?

    func run() async throws { try await self.run(on: try await self.database.open()) }


    func run(on store: some ShopStore) async throws {
        var settings = try await store.settings()
        if let name = self.shopName { settings.shopName = name }
        if let code = self.currency { settings.currency = try Currency(isoCode: code) }
        if let zone = self.timeZone { settings.timeZoneIdentifier = zone }
        if let tax = self.defaultTax { settings.defaultTaxRate = try Percent.parse(tax, field: "default-tax") }
        if let included = self.pricesIncludeTax { settings.pricesIncludeTax = included }
        try await store.saveSettings(settings)
        print("Shop '\(settings.shopName)' ready in \(try self.database.describe()) (\(settings.currency.code), \(settings.timeZoneIdentifier)).")
    }
}
