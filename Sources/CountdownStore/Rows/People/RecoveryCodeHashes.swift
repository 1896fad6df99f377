/// A person's unused recovery codes, as their SHA-256 hashes (a code is
/// random enough that a plain hash keeps it safe), stored as one text of
/// hashes separated by spaces. Each one signs in once instead of the second
/// factor's code.
public struct RecoveryCodeHashes: RawRepresentable, Codable, Sendable, Hashable {
    public var hashes: [String]

    public init(hashes: [String]) {
        self.hashes = hashes
    }

    public init(rawValue: String) {
        hashes = rawValue.split(separator: " ").map(String.init)
    }

    public var rawValue: String { hashes.joined(separator: " ") }
}
