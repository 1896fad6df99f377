import Foundation

/// A `personToken` row (schema v13): a person's API token or app password
/// (`purpose`, v20), kept as the SHA-256 of its secret (shown once). It acts
/// as its person, read-only if made so, until it expires or is revoked.
public struct PersonTokenRecord: Codable, Sendable, Equatable {
    /// Where the secret is accepted: what keeps an app password out of the
    /// API and an API token out of calendar apps.
    public enum Purpose: String, Codable, Sendable, CaseIterable {
        /// `Authorization: Bearer` on the admin API.
        case api
        /// HTTP Basic with the person's login, for calendar apps (CalDAV).
        case app
    }

    public var id: Int64?
    public var personId: Int64
    public var label: String
    public var tokenHash: String
    public var readOnly: Bool
    public var createdAt: Date
    public var expiresAt: Date?
    public var lastUsedAt: Date?
    public var revokedAt: Date?
    public var purpose: Purpose

    public init(id: Int64? = nil, personId: Int64, label: String, tokenHash: String, readOnly: Bool, createdAt: Date, expiresAt: Date? = nil,
                lastUsedAt: Date? = nil, revokedAt: Date? = nil, purpose: Purpose = .api) {
        self.purpose = purpose
        self.id = id
        self.personId = personId
        self.label = label
        self.tokenHash = tokenHash
        self.readOnly = readOnly
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    /// Usable now: not revoked, not expired.
    public func isLive(at now: Date) -> Bool { revokedAt == nil && (expiresAt.map { $0 > now } ?? true) }
}
