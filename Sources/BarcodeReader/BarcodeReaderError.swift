/// An error raised while decoding a malformed symbol (bad check digit, uncorrectable codewords, ...).
///
/// The reader catches these internally and moves on; they are public so tests and callers of the
/// lower-level pieces can match on ``code``. Equality compares only the code.
public struct BarcodeReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure happened.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Wrapped: Sendable, Hashable {
            case checksumMismatch, invalidPattern, uncorrectable, invalidFormatInformation, invalidData
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// A check digit or check character does not match.
        public static let checksumMismatch = Code(.checksumMismatch)
        /// The bar/space pattern does not form a valid symbol.
        public static let invalidPattern = Code(.invalidPattern)
        /// Reed–Solomon correction failed: too many errors.
        public static let uncorrectable = Code(.uncorrectable)
        /// QR format or version information could not be read.
        public static let invalidFormatInformation = Code(.invalidFormatInformation)
        /// The corrected data stream is inconsistent.
        public static let invalidData = Code(.invalidData)

        /// A readable name for the code.
        public var description: String { String(describing: self.wrapped) }
    }

    /// The failure kind.
    public var code: Code
    /// Detail for debugging.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// Human-readable text.
    public var description: String { self.message.isEmpty ? "\(self.code)" : "\(self.code): \(self.message)" }

    /// Compares codes only.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}
