/// A failure to read or decode an image file.
public struct ImageLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure happened.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Wrapped: Sendable, Hashable { case unreadable, unsupportedFormat, corrupt, tooLarge }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The file could not be opened or read.
        public static let unreadable = Code(.unreadable)
        /// The bytes are neither PNG nor JPEG.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// The file is truncated or its data is invalid.
        public static let corrupt = Code(.corrupt)
        /// The header declares a picture above the accepted size (see ``ImageLimits``).
        public static let tooLarge = Code(.tooLarge)

        /// A readable name for the code.
        public var description: String { String(describing: self.wrapped) }
    }

    /// The failure kind.
    public var code: Code
    /// What went wrong and how to fix it.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { self.message }

    /// Compares codes only.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}
