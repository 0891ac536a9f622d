import InventoryDomain

/// One screen of the web app: `/app/<name>` renders `templates/pages/<name>.mustache` inside the layout and loads
/// `static/js/pages/<name>.js` when there is one.
struct WebPage: Sendable {
    /// Where the screen sits in the navigation.
    enum Place: Sendable {
        /// In the phone's bottom tab bar and the sidebar.
        case tab
        /// In the sidebar and on the phone's "More" screen.
        case menu
        /// Reached from other screens only.
        case hidden
    }

    var name: String
    var title: String
    /// What the signed-in user needs to open it; nil means anyone signed in.
    var permission: Permission?
    var place: Place
    /// An icon in `static/icons/sprite.svg`.
    var icon: String

    /// Every screen, in navigation order. The server refuses a screen the user's role may not open, and the
    /// navigation shows only the ones it may; the JSON API checks the same permissions again on every call.
    static let all: [WebPage] = [
        WebPage(name: "home", title: "Home", permission: nil, place: .tab, icon: "home"),
        WebPage(name: "products", title: "Products", permission: .viewCatalogue, place: .tab, icon: "box"),
        WebPage(name: "purchases", title: "Purchases", permission: .purchase, place: .tab, icon: "truck"),
        WebPage(name: "sales", title: "Sales", permission: .sell, place: .tab, icon: "receipt"),
        WebPage(name: "pos", title: "Till", permission: .sell, place: .tab, icon: "till"),
        WebPage(name: "drawer", title: "Cash-up", permission: .sell, place: .menu, icon: "till"),
        WebPage(name: "scan", title: "Scan", permission: .scan, place: .menu, icon: "scan"),
        WebPage(name: "stock", title: "Stock count", permission: .adjustStock, place: .menu, icon: "clipboard"),
        WebPage(name: "stocktake", title: "Stocktake", permission: .scan, place: .menu, icon: "clipboard"),
        WebPage(name: "categories", title: "Categories", permission: .editCatalogue, place: .menu, icon: "tag"),
        WebPage(name: "suppliers", title: "Suppliers", permission: .purchase, place: .menu, icon: "factory"),
        WebPage(name: "reorder", title: "Reorder", permission: .purchase, place: .menu, icon: "truck"),
        WebPage(name: "customers", title: "Customers", permission: .sell, place: .menu, icon: "people"),
        WebPage(name: "reports", title: "Reports & export", permission: .viewReports, place: .menu, icon: "chart"),
        WebPage(name: "activity", title: "Activity", permission: .viewActivity, place: .menu, icon: "history"),
        WebPage(name: "import", title: "Import", permission: .importData, place: .menu, icon: "upload"),
        WebPage(name: "users", title: "Users & roles", permission: .manageUsers, place: .menu, icon: "key"),
        WebPage(name: "settings", title: "Settings", permission: .manageSettings, place: .menu, icon: "gear"),
        WebPage(name: "backup", title: "Backup", permission: .backup, place: .menu, icon: "disk"),
        WebPage(name: "more", title: "More", permission: nil, place: .hidden, icon: "more"),
        WebPage(name: "receipt", title: "Receipt", permission: .sell, place: .hidden, icon: "receipt"),
    ]

    static func named(_ name: String) -> WebPage? { self.all.first { $0.name == name } }

    /// Whether a role may open the screen.
    func allows(_ role: Role) -> Bool { self.permission.map(role.allows) ?? true }
}
