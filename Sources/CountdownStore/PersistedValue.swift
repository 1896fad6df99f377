import Foundation

/// What `persistedValue(for:)` finds: the bytes, and how long they live on.
public struct PersistedValue: Sendable, Equatable {
    public var bytes: Data
    public var expiresAt: Date?

    public init(bytes: Data, expiresAt: Date?) {
        self.bytes = bytes
        self.expiresAt = expiresAt
    }

    /// True until its expiry (an entry without one lives until removed).
    public func isLive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }
}
