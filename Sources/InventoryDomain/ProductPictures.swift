/// The rules of a product's pictures. A product keeps an ordered list of pictures; the first is its main picture, the
/// one lists, the till and the iOS client show (`imageRef` in the API). Pictures are stored content-addressed: a name
/// is the hex SHA-256 digest of the picture's cleaned bytes plus `.jpg` or `.png`, so two products showing the same
/// picture share one file, and a file may go only when no product names it any more.
public enum ProductPictures {
    /// The most pictures one product keeps.
    public static let maximumCount = 12

    /// Whether `name` is a name the picture store gives: 8 to 64 lower-case hex digits, then `.jpg` or `.png` (no
    /// path, no other characters, so a name can never reach outside the pictures folder).
    public static func isValidName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == "png" || parts[1] == "jpg", (8...64).contains(parts[0].count) else { return false }
        return parts[0].allSatisfy { $0.isASCII && ($0.isNumber || ("a"..."f").contains($0)) }
    }

    /// A product's pictures checked: every name valid, at most ``maximumCount``; the same picture named twice is kept
    /// once, where it first appears.
    /// - Throws: ``InventoryError`` naming `field`.
    public static func validated(_ names: [String], field: String = "pictures") throws -> [String] {
        var seen = Set<String>()
        let unique = names.filter { seen.insert($0).inserted }
        if let bad = unique.first(where: { !self.isValidName($0) }) {
            throw InventoryError(.invalidValue, field: field, "'\(bad.prefix(80))' is not the name of a stored picture")
        }
        guard unique.count <= self.maximumCount else {
            throw InventoryError(.conflict, field: field,
                                 "a product keeps at most \(self.maximumCount) pictures (\(unique.count) given); remove one first")
        }
        return unique
    }
}

/// A change to a product's pictures. ``applied(to:)`` is the rule; a catalogue applies it to the stored list and
/// stores the result in one transaction (``CatalogueRepository/changePictures(of:_:)``).
public enum PictureCommand: Sendable, Hashable {
    /// Adds a picture last, or first when `makeMain`. One the product already has is not added twice: it only moves
    /// to the front when `makeMain`.
    case add(String, makeMain: Bool)
    /// Puts a picture first in place of the main one, which goes (`PUT /products/{id}/image`); the other pictures stay.
    case replaceMain(String)
    /// Makes one of the product's pictures the main one; the others keep their order.
    case makeMain(String)
    /// Removes one of the product's pictures; when it was the main one, the next becomes main.
    case remove(String)
    /// Removes the main picture, if there is one; the next becomes main.
    case removeMain

    /// The pictures after this change.
    /// - Throws: ``InventoryError``: `notFound` (field `name`) for a picture the product does not have, `invalidValue`
    ///   for a name the store does not give, `conflict` (field `pictures`) past ``ProductPictures/maximumCount``.
    public func applied(to pictures: [String]) throws -> [String] {
        var result = pictures
        switch self {
        case .add(let name, let makeMain):
            try Self.requireValid(name)
            if let index = result.firstIndex(of: name) {
                if makeMain { result.insert(result.remove(at: index), at: 0) }
            } else {
                guard result.count < ProductPictures.maximumCount else {
                    throw InventoryError(.conflict, field: "pictures",
                                         "the product already has \(ProductPictures.maximumCount) pictures, the most it keeps; remove one first")
                }
                if makeMain { result.insert(name, at: 0) } else { result.append(name) }
            }
        case .replaceMain(let name):
            try Self.requireValid(name)
            result.removeAll { $0 == name }
            if result.first != nil, pictures.first != name { result.removeFirst() }
            result.insert(name, at: 0)
        case .makeMain(let name):
            guard let index = result.firstIndex(of: name) else { throw Self.missing(name) }
            result.insert(result.remove(at: index), at: 0)
        case .remove(let name):
            guard let index = result.firstIndex(of: name) else { throw Self.missing(name) }
            result.remove(at: index)
        case .removeMain:
            if !result.isEmpty { result.removeFirst() }
        }
        return try ProductPictures.validated(result)
    }

    static func requireValid(_ name: String) throws {
        guard ProductPictures.isValidName(name) else {
            throw InventoryError(.invalidValue, field: "name", "'\(name.prefix(80))' is not the name of a stored picture")
        }
    }

    static func missing(_ name: String) -> InventoryError {
        InventoryError(.notFound, field: "name", "the product has no picture named '\(name.prefix(80))'")
    }
}

/// What a change of pictures left: the product as stored, and the pictures no product shows any more, whose files
/// may be deleted once the change is committed.
public struct PictureOutcome: Sendable {
    public var product: Product
    /// Whether the pictures changed (adding a picture the product already has, for one, changes nothing).
    public var changed: Bool
    /// Names the change took off the product that no other product shows either.
    public var released: [String]

    public init(product: Product, changed: Bool, released: [String]) {
        self.product = product
        self.changed = changed
        self.released = released
    }
}
