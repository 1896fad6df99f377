import CountdownStore
import Foundation

/// Every use case that changes what is stored, written once: the admin API,
/// the web app, the command line and the feed loader decode their input, call
/// one method here, and encode the result. Each method is one store
/// transaction over a few primitives (`StoreTransaction`), so a failure at any
/// step leaves the store as it was, whichever store it is (SQLite, PostgreSQL).
///
/// The methods that take a `StoreTransaction` are the same use cases as steps
/// of a larger one (the web app saves an image, a countdown and a move in one
/// transaction); the others run their own transaction.
public struct CountdownService: Sendable {
    public let store: any CountdownStore

    public init(store: any CountdownStore) {
        self.store = store
    }

    public var limits: StoreLimits { store.limits }

    /// One use case's transaction.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await store.transaction(body)
    }
}
