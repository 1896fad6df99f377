import ICalendar
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
    /// Events left out because a preferred source has them (`DuplicatePolicy`).
    public var duplicates = 0

    public init() {}

    /// The diagnostics that are errors (what was left out), not warnings (what was read another way).
    public var errors: [String] { diagnostics.filter { $0.contains(": \(Diagnostic.Severity.error.rawValue): ") } }

    public var description: String {
        "\(added) added, \(updated) updated, \(unchanged) unchanged, \(skipped.count) skipped" + (removed > 0 ? ", \(removed) removed" : "")
            + (duplicates > 0 ? ", \(duplicates) duplicates left to a preferred source" : "")
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
    /// A feed definition's rules: each countdown as they change it, or nil
    /// when they drop it. Run on the countdowns read, before anything is compared;
    /// what it throws (rules past their CPU budget) fails the import.
    public var rules: (@Sendable (Countdown) throws -> Countdown?)?
    /// Which source keeps an event that several of the feed's sources carry.
    public var duplicates: DuplicatePolicy?
    /// Refuse (and change nothing, the feed not created) a calendar that had
    /// events or tasks but none usable: a person who imports it by hand wants
    /// to hear that nothing went in, not "0 added" and status 0.
    public var refuseNothingUsable = false

    public init(strict: Bool = false, source: String? = nil, sync: Bool = false, createFeed: Bool = true, defaultTimeZone: String = "UTC",
                rules: (@Sendable (Countdown) throws -> Countdown?)? = nil) {
        self.defaultTimeZone = defaultTimeZone
        self.rules = rules
        self.strict = strict
        self.source = source
        self.sync = sync
        self.createFeed = createFeed
    }
}
