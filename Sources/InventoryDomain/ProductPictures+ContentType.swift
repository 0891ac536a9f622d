extension ProductPictures {
    /// The media type of a stored picture, from its name's extension (``isValidName(_:)``): `image/png` for `.png`,
    /// `image/jpeg` otherwise — how a picture is served, and how a backend that keeps pictures in its database labels them.
    public static func contentType(ofName name: String) -> String {
        name.hasSuffix(".png") ? "image/png" : "image/jpeg"
    }
}
