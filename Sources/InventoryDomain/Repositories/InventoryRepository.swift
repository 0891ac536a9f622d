import Foundation

/// The shop's books and catalogue: every read and write the domain needs, split by aggregate into small protocols,
/// each write one transaction.
///
/// - ``SettingsRepository``: the shop's settings.
/// - ``CatalogueRepository``: categories, suppliers, customers, products.
/// - ``LedgerRepository``: purchases, sales, returns, adjustments (the books).
/// - ``ReportRepository``: read-only figures folded from the books.
/// - ``DataTransferRepository``: CSV import and export.
/// - ``TabRepository``: open tabs, sales parked at a till (they book nothing).
/// - ``DrawerRepository``: the cash drawer's sessions, cash in and out, X and Z reports.
/// - ``StocktakeRepository``: count sheets, posted as one adjustment; expired lots written off.
/// - ``ActivitySource``: every committed write's ``ShopActivity`` (also written to the audit log in the write's own
///   transaction, attributed to ``Agent/current``).
/// - ``StaffRepository`` (accounts, sessions, audit log) and ``BackupRepository`` (whole-shop copies) stand apart:
///   code that needs them asks for them by name.
///
/// Implementations: `InventorySQLiteRepository` (embedded default). Each protocol has one conformance suite in
/// `Tests/InventoryStoreTests` that every implementation runs. Code asks for the narrowest protocol it uses.
public protocol InventoryRepository: SettingsRepository, CatalogueRepository, LedgerRepository, ReportRepository, DataTransferRepository,
    TabRepository, DrawerRepository, CustomerCardRepository, StocktakeRepository, ActivitySource, DatabaseHealth {}
