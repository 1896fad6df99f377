import Foundation

/// A `source` row, the same in every store: where a feed's countdowns were
/// imported from, how the last fetch went (for conditional GET and /healthz),
/// whether the feed keeps fetching it, and who holds the right to fetch it now.
public struct SourceRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    public var feedId: Int64
    public var location: String
    public var etag: String?
    public var lastModifiedHeader: String?
    public var lastFetchedAt: Date?
    public var lastSuccessAt: Date?
    public var lastError: String?
    /// Fetched again in the background (a URL added from the web app).
    public var subscribed = false
    /// The login a source added in the web app sends, sealed (AES-GCM) under a
    /// key kept outside the database (`SecretBox`); nil for none (v10).
    public var login: String?
    /// The rules a source added in the web app or the API goes through (v11):
    /// YAML with the `include:`, `exclude:` and `change:` of a source in
    /// `feeds/*.yaml`, checked when written and read by the server; nil for none.
    public var rules: String?
    /// A digest of the rules the last import from it went through (v11): when
    /// the rules it has now differ, its next fetch is a full one, since a 304
    /// would keep the old rules' result.
    public var importedWith: String?
    /// Until when one process (a replica) may fetch it; nil when nobody holds it.
    public var leaseUntil: Date?

    public init(id: Int64? = nil, feedId: Int64, location: String) {
        self.id = id
        self.feedId = feedId
        self.location = location
    }
}
