/// A collection's sync token (RFC 6578): the id of the last change to its
/// calendar that a client has seen, and of the last of its person's own
/// parts (`PersonalObjectRecord`, their alarms on a space's calendar), as a
/// URI (the RFC asks for one). Zero is a calendar with no change logged yet;
/// a person without parts of their own has the token everyone has.
public struct SyncToken: Sendable, Equatable {
    public var changeId: Int64
    public var personalId: Int64

    public init(changeId: Int64, personalId: Int64 = 0) {
        self.changeId = changeId
        self.personalId = personalId
    }

    static let prefix = "http://tminus.invalid/sync/"

    public var text: String { Self.prefix + String(changeId) + (personalId > 0 ? ".\(personalId)" : "") }

    /// What a calendar's ctag says of its changes: the same whenever the token is.
    public var stamp: String { String(changeId) + (personalId > 0 ? ".\(personalId)" : "") }

    /// nil when the text is not a token tminus wrote.
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix) else { return nil }
        let parts = text.dropFirst(Self.prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let id = Int64(parts[0]), id >= 0 else { return nil }
        let personal = parts.count == 2 ? Int64(parts[1]) : 0
        guard let personal, personal >= 0 else { return nil }
        changeId = id
        personalId = personal
    }
}
