/// The notification a write sends when it changes a feed: on channel
/// `tminus_feed`, the payload `<slug>:<revision>`.
public struct FeedChange: Sendable, Equatable {
    public static let channel = "tminus_feed"

    public var slug: String
    public var revision: Int64

    /// Reads a payload; nil for anything else (a hand-sent NOTIFY).
    public init?(payload: String) {
        guard let colon = payload.lastIndex(of: ":"), let revision = Int64(payload[payload.index(after: colon)...]) else { return nil }
        slug = String(payload[..<colon])
        self.revision = revision
    }
}
