/// A collection's sync token (RFC 6578): the id of the last change to its
/// calendar that a client has seen, as a URI (the RFC asks for one). Zero is
/// a calendar with no change logged yet.
public struct SyncToken: Sendable, Equatable {
    public var changeId: Int64

    public init(changeId: Int64) { self.changeId = changeId }

    static let prefix = "http://tminus.invalid/sync/"

    public var text: String { Self.prefix + String(changeId) }

    /// nil when the text is not a token tminus wrote.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix), let id = Int64(text.dropFirst(Self.prefix.count)), id >= 0 else { return nil }
        self.changeId = id
    }
}
