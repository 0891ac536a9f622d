import Foundation

/// Marker for product option ids (a size, a milk, an extra shot).
public enum ModifierMarker: Sendable {}
public typealias ModifierID = ID<ModifierMarker>

/// A product's group of options chosen at the till — "Size" (small, regular, large), "Milk" (whole, oat), "Extras"
/// (an extra shot, syrup) — each option changing the line's price by its ``Modifier/priceChange``.
///
/// The rules (``ModifierGroup/validated(field:currency:)``, ``ModifierGroup/choose(_:in:field:)``):
/// - A group is **one of** (the default) or **any of** (``multiple``). A one-of group that is ``required`` always
///   has a choice: its ``defaultOption`` (the first option unless another is marked) when the line names none, so a
///   client that knows nothing of options (a script, the iOS app) sells the product as it always did.
/// - A line's price is the product's price plus the price changes of its chosen options; a price the line gives
///   itself (a cashier's override) is the whole price and already includes them.
/// - A chosen option must be one of the product's; at most one per one-of group; none twice.
/// - The booked line keeps a copy of what was chosen (group, option, price change), so a later change of the
///   product's options never changes a booked receipt.
public struct ModifierGroup: Sendable, Hashable {
    /// The group's id once stored (nil for a new group).
    public var id: Int64?
    public var name: String
    /// Several options may be chosen (extras), instead of one.
    public var multiple: Bool
    /// A one-of group that always has a choice (its default when none is named).
    public var required: Bool
    public var options: [Modifier]

    /// Creates a group.
    public init(id: Int64? = nil, name: String, multiple: Bool = false, required: Bool = false, options: [Modifier]) {
        self.id = id
        self.name = name
        self.multiple = multiple
        self.required = required
        self.options = options
    }

    /// The option a required one-of group takes when a line names none: the one marked default, else the first.
    public var defaultOption: Modifier? {
        guard self.required && !self.multiple else { return nil }
        return self.options.first(where: \.isDefault) ?? self.options.first
    }

    /// At most this many groups per product, and options per group.
    public static let maximumGroups = 10
    public static let maximumOptions = 20

    /// Checks a product's groups as asked: names present and within limits, unique within their scope, 1 to
    /// ``maximumOptions`` options per group, price changes within the amount limits, at most one default per group and
    /// none in an any-of group; `required` only for a one-of group.
    /// - Parameter field: the groups' field, e.g. `groups`.
    /// - Throws: ``InventoryError`` naming the field, e.g. `groups[1].options[0].name`.
    public static func validated(_ groups: [ModifierGroup], field: String = "groups", currency: Currency? = nil) throws -> [ModifierGroup] {
        guard groups.count <= Self.maximumGroups else {
            throw InventoryError(.invalidValue, field: field, "a product may have at most \(Self.maximumGroups) option groups")
        }
        var names = Set<String>()
        return try groups.enumerated().map { index, group in
            let at = "\(field)[\(index)]"
            var copy = group
            copy.name = group.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !copy.name.isEmpty else { throw InventoryError(.missingValue, field: "\(at).name", "a group needs a name (Size, Milk …)") }
            try TextLimit.line.check(copy.name, field: "\(at).name")
            guard names.insert(copy.name.lowercased()).inserted else {
                throw InventoryError(.duplicate, field: "\(at).name", "another group is called '\(copy.name)'")
            }
            guard !(copy.required && copy.multiple) else {
                throw InventoryError(.invalidValue, field: "\(at).required", "only a one-of group can be required; an any-of group may be left empty")
            }
            guard (1...Self.maximumOptions).contains(copy.options.count) else {
                throw InventoryError(.invalidValue, field: "\(at).options", "a group needs 1 to \(Self.maximumOptions) options")
            }
            var optionNames = Set<String>()
            copy.options = try copy.options.enumerated().map { optionIndex, option in
                let optionField = "\(at).options[\(optionIndex)]"
                var checked = option
                checked.name = option.name.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !checked.name.isEmpty else { throw InventoryError(.missingValue, field: "\(optionField).name", "an option needs a name") }
                try TextLimit.line.check(checked.name, field: "\(optionField).name")
                guard optionNames.insert(checked.name.lowercased()).inserted else {
                    throw InventoryError(.duplicate, field: "\(optionField).name", "'\(checked.name)' is already an option of \(copy.name)")
                }
                try checked.priceChange.requireWithinLimit(field: "\(optionField).priceChange", currency: currency)
                if checked.isDefault && copy.multiple {
                    throw InventoryError(.invalidValue, field: "\(optionField).isDefault", "an any-of group has no default")
                }
                return checked
            }
            if let second = copy.options.enumerated().filter({ $0.element.isDefault }).dropFirst().first {
                throw InventoryError(.invalidValue, field: "\(at).options[\(second.offset)].isDefault", "a group has one default option")
            }
            return copy
        }
    }

    /// The options a line gets from the ids it names (`chosen`, in the order named) among `groups`: each must be an
    /// option of the product, at most one per one-of group and none twice; a required group the line names nothing of
    /// takes its default. The result is in the groups' order, then the options' order.
    /// - Parameter field: the line's options field, e.g. `lines[0].options`.
    /// - Throws: ``InventoryError`` on `field[i]` naming the option at fault.
    public static func choose(_ chosen: [ModifierID], in groups: [ModifierGroup], productName: String, field: String) throws -> [ChosenModifier] {
        var picked: [ModifierID: Int] = [:]
        for (index, id) in chosen.enumerated() {
            guard picked[id] == nil else { throw InventoryError(.invalidValue, field: "\(field)[\(index)]", "option \(id) is chosen twice") }
            guard groups.contains(where: { $0.options.contains { $0.id == id } }) else {
                throw InventoryError(.invalidValue, field: "\(field)[\(index)]", "option \(id) is not an option of \(productName)")
            }
            picked[id] = index
        }
        var result: [ChosenModifier] = []
        for group in groups {
            let named = group.options.filter { picked[$0.id] != nil }
            if !group.multiple && named.count > 1, let index = picked[named[1].id] {
                throw InventoryError(.invalidValue, field: "\(field)[\(index)]", "choose one \(group.name.lowercased()) for \(productName)")
            }
            let options = named.isEmpty ? group.defaultOption.map { [$0] } ?? [] : named
            result += options.map { ChosenModifier(optionID: $0.id, group: group.name, name: $0.name, priceChange: $0.priceChange) }
        }
        return result
    }
}

/// One option of a group.
public struct Modifier: Sendable, Hashable {
    /// The option's id (``ModifierID/zero``-like 0 for a new one; the store assigns it).
    public var id: ModifierID
    public var name: String
    /// What choosing it adds to the line's unit price (negative for a cheaper choice), with the prices' meaning.
    public var priceChange: Money
    /// Whether a required one-of group takes it when a line names none.
    public var isDefault: Bool

    /// Creates an option.
    public init(id: ModifierID = ModifierID(0), name: String, priceChange: Money = .zero, isDefault: Bool = false) {
        self.id = id
        self.name = name
        self.priceChange = priceChange
        self.isDefault = isDefault
    }
}

/// An option as a booked sale line keeps it: a copy of the group's and the option's names and the price change at the
/// time of sale.
public struct ChosenModifier: Sendable, Hashable {
    /// The option's id when it was chosen (the option may since have been changed or removed).
    public var optionID: ModifierID
    public var group: String
    public var name: String
    public var priceChange: Money

    /// Creates a value.
    public init(optionID: ModifierID, group: String, name: String, priceChange: Money) {
        self.optionID = optionID
        self.group = group
        self.name = name
        self.priceChange = priceChange
    }

    /// What the options add to a unit price.
    public static func priceChange(of options: [ChosenModifier]) -> Money { options.reduce(.zero) { $0 + $1.priceChange } }
}
