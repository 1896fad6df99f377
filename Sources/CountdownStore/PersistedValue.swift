import Foundation

/// What `persistedValue(for:)` finds: the bytes, and how long they live on.
public struct PersistedValue: Sendable, Equatable {
    public var bytes: Data
    public var expiresAt: Date?

    public init(bytes: Data, expiresAt: Date?) {
        self.bytes = bytes
        self.expiresAt = expiresAt
    }
}
