/// The notification a write sends when it changes a feed: on channel
/// `tminus_feed`, the payload `<slug>:<owner>:<revision>` (`owner` as
/// `StorageOwner.text`, `operator` for none). A move to a space keeps the
/// revision and changes the owner, so a replica compares both. The older
/// `<slug>:<revision>` is still read; a replica that knows only that form
/// reads a new payload as an unknown feed, and reads every feed again.
public struct FeedChange: Sendable, Equatable {
    public static let channel = "tminus_feed"

    public var slug: String
    public var revision: Int64
    /// nil: the operator's, or not said (the older payload: `ownerKnown` is false).
    public var owner: StorageOwner?
    public var ownerKnown: Bool

    public init(slug: String, revision: Int64, owner: StorageOwner?) {
        self.slug = slug
        self.revision = revision
        self.owner = owner
        ownerKnown = true
    }

    /// The payload a write sends.
    public var payload: String { "\(slug):\(owner?.text ?? "operator"):\(revision)" }

    /// Reads a payload; nil for anything else (a hand-sent NOTIFY).
    public init?(payload: String) {
        guard let colon = payload.lastIndex(of: ":"), let revision = Int64(payload[payload.index(after: colon)...]) else { return nil }
        let head = payload[..<colon]
        self.revision = revision
        // Slugs hold no colon: a second one sets the owner off.
        if let first = head.firstIndex(of: ":") {
            slug = String(head[..<first])
            let owner = head[head.index(after: first)...]
            guard owner == "operator" || StorageOwner(text: owner) != nil else { return nil }
            self.owner = StorageOwner(text: owner)
            ownerKnown = true
        } else {
            slug = String(head)
            owner = nil
            ownerKnown = false
        }
    }
}
