import Countdowns
import CountdownStore

/// What an import did, in the words the CLI prints.
public struct ImportReport: Sendable, Equatable, CustomStringConvertible {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    /// Items that could not become countdowns (no start), with the reason.
    public var skipped: [String] = []
    /// Countdowns of a synced source that vanished from it.
    public var removed = 0
    /// Parser diagnostics (lenient mode keeps going past them).
    public var diagnostics: [String] = []

    public init() {}

    public var description: String {
        "\(added) added, \(updated) updated, \(unchanged) unchanged, \(skipped.count) skipped" + (removed > 0 ? ", \(removed) removed" : "")
    }
}

/// How to import: strictness, which source the calendar stands for, and whether
/// countdowns that vanished from that source are removed.
public struct ImportOptions: Sendable {
    public var strict: Bool
    /// A file path or URL; nil for a one-off import (nothing is ever removed then).
    public var source: String?
    /// Remove countdowns that came from `source` but are no longer in it.
    public var sync: Bool
    /// Create the feed when it does not exist yet.
    public var createFeed: Bool
    /// The zone a new feed gets when the calendar names none (X-WR-TIMEZONE).
    public var defaultTimeZone: String
    /// Keeps only the countdowns it accepts (a feed definition's include/exclude rules).
    public var filter: (@Sendable (Countdown) -> Bool)?

    public init(strict: Bool = false, source: String? = nil, sync: Bool = false, createFeed: Bool = true, defaultTimeZone: String = "UTC",
                filter: (@Sendable (Countdown) -> Bool)? = nil) {
        self.defaultTimeZone = defaultTimeZone
        self.filter = filter
        self.strict = strict
        self.source = source
        self.sync = sync
        self.createFeed = createFeed
    }
}
