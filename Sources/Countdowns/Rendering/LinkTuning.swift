import Foundation
import ICalendar

/// What a subscriber asked of one calendar link (`/feeds/{slug}.ics?…`,
/// `…/countdown.ics?…`). A calendar client cannot filter; its user can only
/// change the link, so the link carries the filter. Validated and normalised
/// once, before it becomes part of a cache key: two links that must give the
/// same bytes give equal values (categories lower-cased and sorted, a default
/// written out is the default), and nothing unchecked enters a key.
public struct LinkTuning: Hashable, Sendable {
    public enum Alarms: Hashable, Sendable {
        /// As the feed says (`includeAlarms`).
        case feed
        /// `alarms=none`: no VALARM at all.
        case none
        /// `alarm=-P1D`: one more reminder on every event, whatever the feed says.
        case add(ICalDuration)
    }

    /// A bad value of a parameter tminus knows, named as the link spells it.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var parameter: String
        public var reason: String
        public var description: String { "\(parameter): \(reason)" }

        public init(parameter: String, reason: String) {
            self.parameter = parameter
            self.reason = reason
        }
    }

    /// Only events in at least one of these (lower-cased, sorted; empty: all).
    public var categories: [String] = []
    /// No event in any of these.
    public var excludedCategories: [String] = []
    /// The window around today, in days (`from=-7d`, `to=+90d`).
    public var from: Int?
    public var to: Int?
    /// The zone whose days the countdown calendar counts in (`tz=`), and that "today" means.
    public var zone: Zone?
    /// Minutes after midnight at which a countdown moves to its next day (`rollover=HH:MM`); nil: midnight.
    public var rollover: Int?
    public var alarms: Alarms = .feed
    /// Keep events that ended up to this many days ago (`past=N`); nil: keep every past event.
    public var past: Int?

    /// Set by `known(in:)` when every category the link names is one the feed lacks.
    public private(set) var matchesNothing = false

    public init() {}

    /// This link with only the categories `feed` has (lower-cased): a name the
    /// feed lacks never reaches a cache key. Naming only such categories matches nothing.
    public func known(in feed: Set<String>) -> LinkTuning {
        var known = self
        known.categories = categories.filter(feed.contains)
        known.excludedCategories = excludedCategories.filter(feed.contains)
        known.matchesNothing = !categories.isEmpty && known.categories.isEmpty
        return known
    }

    /// The countdowns with the link's reminders: none, the feed's, or the feed's
    /// and one more (which an export then writes whatever the feed says).
    public func alarmed(_ countdowns: [Countdown], feed: inout Feed) -> [Countdown] {
        switch alarms {
        case .feed: return countdowns
        case .none:
            feed.includeAlarms = false
            return countdowns
        case .add(let offset):
            let own = feed.includeAlarms
            feed.includeAlarms = true
            return countdowns.map { countdown in
                var alarmed = countdown
                if !own {
                    alarmed.alarms = []
                    alarmed.extraComponents.removeAll { $0.name == VAlarm.componentName }
                }
                if !alarmed.alarms.contains(offset) { alarmed.alarms.append(offset) }
                return alarmed
            }
        }
    }

    /// The parameters a link builder offers, and the only ones read.
    public static let parameters = ["category", "exclude-category", "from", "to", "tz", "rollover", "alarms", "alarm", "past"]
    /// The farthest a window or `past` reaches: ten years.
    public static let maxDays = 3_660
    /// Most categories a link may name, each at most this long.
    public static let maxCategories = 20, maxCategoryLength = 100
    /// The farthest from its event a reminder may be: four weeks.
    public static let maxAlarmSeconds = 28 * 86_400

    /// True when the link asks for nothing: the feed as it is, from the fast path.
    public var isEmpty: Bool { self == LinkTuning() }

    /// True when the bytes depend on today (a window, or `past`).
    public var dependsOnToday: Bool { from != nil || to != nil || past != nil }

    /// Reads a link's query; unknown parameters are ignored. `zone` reads `tz` (the caller's checked lookup).
    public init(_ query: [(name: String, value: String)], zone readZone: (String) throws(Invalid) -> Zone) throws(Invalid) {
        func values(_ name: String) -> [String] { query.filter { $0.name == name }.map(\.value) }
        func single(_ name: String) throws(Invalid) -> String? {
            let found = values(name)
            guard found.count <= 1 else { throw Invalid(parameter: name, reason: "is given \(found.count) times; give it once") }
            return found.first
        }
        categories = try Self.categories(values("category"), parameter: "category")
        excludedCategories = try Self.categories(values("exclude-category"), parameter: "exclude-category")
        if let raw = try single("from") { from = try Self.days(raw, parameter: "from") }
        if let raw = try single("to") { to = try Self.days(raw, parameter: "to") }
        if let from, let to, from > to { throw Invalid(parameter: "from", reason: "from=\(from)d is after to=\(to)d") }
        if let raw = try single("tz") { zone = try readZone(raw) }
        if let raw = try single("rollover") { rollover = try Self.rollover(raw) }
        switch (try single("alarms"), try single("alarm")) {
        case (nil, nil): alarms = .feed
        case ("none"?, nil): alarms = .none
        case (let other?, nil): throw Invalid(parameter: "alarms", reason: "'\(other.prefix(20))' is not none (alarm=-P1D adds one)")
        case (nil, let raw?): alarms = .add(try Self.alarm(raw))
        case (_?, _?): throw Invalid(parameter: "alarm", reason: "alarms=none and alarm= contradict each other; give one")
        }
        if let raw = try single("past") {
            guard let days = Int(raw), (0...Self.maxDays).contains(days) else {
                throw Invalid(parameter: "past", reason: "'\(raw.prefix(20))' is not a number of days from 0 to \(Self.maxDays)")
            }
            past = days
        }
        // `to=+90d` alone means from today to then, repeats too (a birthday series began long ago, so
        // "a first date before the end" kept it whatever the window). Written out, so both spellings are one key.
        if from == nil, past == nil, let to, to >= 0 { from = 0 }
    }

    /// Lower-cased, without repeats, sorted: `Exam,exam` and `exam` are one key.
    static func categories(_ raw: [String], parameter: String) throws(Invalid) -> [String] {
        let names = raw.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        guard names.count <= maxCategories else { throw Invalid(parameter: parameter, reason: "names more than \(maxCategories) categories") }
        if let long = names.first(where: { $0.count > maxCategoryLength }) {
            throw Invalid(parameter: parameter, reason: "'\(long.prefix(20))…' is longer than \(maxCategoryLength) characters")
        }
        return Array(Set(names)).sorted()
    }

    /// `-7d`, `+90d`, `90`, `-2w`: whole days before (-) or after today.
    static func days(_ raw: String, parameter: String) throws(Invalid) -> Int {
        var text = Substring(raw.trimmingCharacters(in: .whitespaces).lowercased())
        var unit = 1
        if text.hasSuffix("d") { text = text.dropLast() } else if text.hasSuffix("w") { text = text.dropLast(); unit = 7 }
        if text.hasPrefix("+") { text = text.dropFirst() }
        guard text.utf8.count <= 6, let number = Int(text), abs(number) * unit <= maxDays else {
            throw Invalid(parameter: parameter, reason: "'\(raw.prefix(20))' is not a number of days around today such as -7d or +90d (at most \(maxDays))")
        }
        return number * unit
    }

    /// `HH:MM`, 00:00 to 23:59; midnight is the default and normalises to nil.
    static func rollover(_ raw: String) throws(Invalid) -> Int? {
        let parts = raw.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60 else {
            throw Invalid(parameter: "rollover", reason: "'\(raw.prefix(20))' is not a time of day HH:MM from 00:00 to 23:59")
        }
        let minutes = hour * 60 + minute
        return minutes == 0 ? nil : minutes
    }

    static func alarm(_ raw: String) throws(Invalid) -> ICalDuration {
        guard raw.utf8.count <= 20, let duration = ICalDuration(parsing: raw.uppercased()),
              abs(duration.days) * 86_400 + abs(duration.seconds) <= maxAlarmSeconds else {
            throw Invalid(parameter: "alarm", reason: "'\(raw.prefix(20))' is not a duration before (-P1D) or after (PT0S) the event, of at most four weeks")
        }
        return duration
    }

    /// The day "today" is at `now`: in `zone` (else `fallback`), moved by `rollover`.
    /// A rollover in the afternoon or evening is the evening before (18:00: the
    /// bins go out tonight, so tomorrow's count starts now); one in the morning
    /// is the night after (03:00: the day ends at three).
    public func today(at now: Date, fallback: Zone) -> CivilDate {
        let local = (zone ?? fallback).local(of: now)
        guard let rollover else { return local.date }
        let shift = rollover >= 12 * 60 ? (24 * 60 - rollover) * 60 : -rollover * 60
        return LocalDateTime(wallSeconds: local.wallSeconds + Int64(shift)).date
    }

    /// Whether a countdown's categories pass the link's category filters.
    public func keepsCategories(of countdown: Countdown) -> Bool {
        let own = Set(countdown.categories.map { $0.lowercased() })
        if !categories.isEmpty, own.isDisjoint(with: categories) { return false }
        return own.isDisjoint(with: excludedCategories)
    }

    /// The days an export keeps events on, around `today`: from the window's
    /// first day (or `past` days ago, whichever is later) to its last.
    public func window(around today: CivilDate) -> (first: CivilDate?, last: CivilDate?) {
        let lower = [from.map { today.adding(days: $0) }, past.map { today.adding(days: -$0) }].compactMap { $0 }.max()
        return (lower, to.map { today.adding(days: $0) })
    }
}
