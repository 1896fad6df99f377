/// What `CountdownStore.check(_:)` found.
public struct StoreCheck: Sendable, Equatable {
    /// How far a check looks.
    public enum Depth: Sendable {
        /// Only what is known without a query (a SQLite file deleted or
        /// replaced under the server): cheap enough for every second.
        case cheap
        /// Asks the store as well: a quick integrity check, and the schema.
        case full
    }

    /// Why the store cannot be trusted now (a failed integrity check, a file
    /// replaced under the server), or nil when it is sound.
    public var problem: String?
    /// The schema migrations applied, oldest first (none for a store without
    /// a schema); nil when the check did not ask.
    public var migrations: [String]?

    public init(problem: String?, migrations: [String]?) {
        self.problem = problem
        self.migrations = migrations
    }
}
