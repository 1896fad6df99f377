import Foundation

/// How a feed's source last fared: for conditional GET and for /healthz.
public struct SourceStatus: Sendable, Hashable, Codable {
    public var feed: String
    public var location: String
    public var etag: String?
    public var lastModifiedHeader: String?
    public var lastFetchedAt: Date?
    public var lastSuccessAt: Date?
    public var lastError: String?
    /// A digest of the rules its last import went through (`SourceRecord.importedWith`).
    public var importedWith: String?

    public init(feed: String, location: String, etag: String? = nil, lastModifiedHeader: String? = nil, lastFetchedAt: Date? = nil,
                lastSuccessAt: Date? = nil, lastError: String? = nil, importedWith: String? = nil) {
        self.importedWith = importedWith
        self.feed = feed
        self.location = location
        self.etag = etag
        self.lastModifiedHeader = lastModifiedHeader
        self.lastFetchedAt = lastFetchedAt
        self.lastSuccessAt = lastSuccessAt
        self.lastError = lastError
    }
}
