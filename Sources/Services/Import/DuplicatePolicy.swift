import Countdowns
import Foundation
import ICalendar

/// How a feed with several sources keeps one copy of an event that two of
/// them carry: which events are the same (`Key`), and which source's copy
/// stays (`preference`, the preferred first).
///
/// The store keeps one row per UID in a feed, so two sources with the same
/// UID always had to share it: without a policy the last import took the row
/// and the next import of the other took it back, changing the feed at every
/// refresh. With one, the preferred source keeps it and the other's copy is
/// counted as a duplicate. `titleAndStart` also catches calendars that issue
/// their own UIDs for the same event (a school calendar copied into a family
/// one).
public struct DuplicatePolicy: Sendable, Equatable {
    public enum Key: String, Sendable, CaseIterable {
        case uid
        case titleAndStart = "title-and-start"
    }

    public var key: Key
    /// Source locations, the preferred first. Rows of other sources (and
    /// countdowns added by hand) are never compared.
    public var preference: [String]
    /// Each source's title prefix and suffix (its rules' `change:`), which the
    /// title comparison leaves out: a merged feed that marks each source's
    /// events must still find their duplicates.
    public var decorations: [String: Decoration]

    public struct Decoration: Sendable, Equatable {
        public var prefix: String
        public var suffix: String

        public init(prefix: String, suffix: String) {
            self.prefix = prefix
            self.suffix = suffix
        }
    }

    public init(key: Key, preference: [String], decorations: [String: Decoration] = [:]) {
        self.key = key
        self.preference = preference
        self.decorations = decorations
    }

    /// The source's place in the preference (0 wins), nil when it has none.
    public func rank(of location: String) -> Int? { preference.firstIndex(of: location) }

    /// What two events from different sources must share to be the same
    /// beyond their UID: the title's letters and digits (without the source's
    /// prefix and suffix, in lower case: "📐 Maths final" and "Maths Final!"
    /// agree) and the start (an instant for UTC and zoned times, so `…Z` and
    /// `TZID=Europe/Berlin` of one moment agree).
    public func titleAndStart(of countdown: Countdown, from location: String) -> String {
        var title = Substring(countdown.title)
        if let decoration = decorations[location] {
            if !decoration.prefix.isEmpty, title.hasPrefix(decoration.prefix) { title = title.dropFirst(decoration.prefix.count) }
            if !decoration.suffix.isEmpty, title.hasSuffix(decoration.suffix) { title = title.dropLast(decoration.suffix.count) }
        }
        let words = String(title.lowercased().filter { $0.isLetter || $0.isNumber })
        let start: String
        switch countdown.target {
        case .date(let date): start = "D\(date)"
        case .floating(let local): start = "F\(local.wallSeconds)"
        case .utc(let local): start = "I\(local.wallSeconds)"
        case .zoned(let local, let tzid):
            if let zone = Zone.named(tzid) { start = "I\(Int64(zone.instant(of: local).timeIntervalSince1970))" } else { start = "Z\(local.wallSeconds)\(tzid)" }
        }
        return words + "\u{1F}" + start
    }
}
