import ICalendar

/// A named group of countdowns that is published as one calendar.
public struct Feed: Sendable, Hashable {
    /// What `/countdown.ics` shows: one all-day event per day before each target,
    /// or only on milestone days.
    public enum CountdownMode: Sendable, Hashable {
        case daily(days: Int)
        case milestones([Int])
        public static let defaultMilestones = [100, 50, 30, 14, 7, 3, 2, 1, 0]
    }

    public var slug: String
    public var name: String
    public var description: String?
    /// The feed's zone's name: where "today" is for its countdown calendar.
    public var timeZone: String { didSet { zone = Self.resolve(timeZone) } }
    /// The zone itself, resolved once when the name is set, not on every use
    /// (a stored name is always valid; UTC if the zone data lost it).
    public private(set) var zone: Zone
    /// `#RRGGBB`.
    public var color: String?
    public var isPublic: Bool
    public var countdownMode: CountdownMode
    public var includeAlarms: Bool
    /// How often clients should poll (REFRESH-INTERVAL / X-PUBLISHED-TTL);
    /// nil: from how often the feed changes (`RefreshHint`), filled in when it is compiled or exported.
    public var refreshInterval: ICalDuration?
    /// Category name → `#RRGGBB`.
    public var categoryColors: [String: String]
    /// Most events the countdown calendar holds; farther countdowns get fewer days.
    public var countdownMaxEvents: Int
    /// Half-birthdays and round day counts the countdown calendar adds.
    public var celebrations: Celebrations
    /// Called (POST) after every change to the feed, so that a CDN in front drops
    /// its copies at once instead of after `s-maxage`; nil for none.
    public var purgeURL: String?
    /// The days that are not working days (`--unit workdays` and JSON `workdays`).
    public var weekend: Weekend
    /// The slug of the feed whose events are holidays here (tminus's own
    /// holiday feed, or a feed of a URL source); nil for none.
    public var holidays: String?
    /// The language of the feed's words (JSON text, pages, the countdown
    /// calendar's titles); nil for the viewer's (`Accept-Language` on pages), else English.
    public var language: Language?
    /// The order of the feed's page and JSON when the request names none
    /// (`?sort=`): soonest first, or by title.
    public var sort: FeedSnapshot.Sort
    /// The titles of the countdown calendar's events, `{title}` and `{amount}`
    /// ("25 days", "today", in the feed's language) filled in: "🎂 {title} in
    /// {amount}"; nil for `{title} — {amount}`.
    public var countdownTitle: String?

    private static func resolve(_ name: String) -> Zone { Zone.named(name) ?? .utc }

    public init(slug: String, name: String? = nil, description: String? = nil, timeZone: String = "UTC", color: String? = nil,
                isPublic: Bool = true, countdownMode: CountdownMode = .daily(days: 60), includeAlarms: Bool = false,
                refreshInterval: ICalDuration? = nil, categoryColors: [String: String] = [:],
                countdownMaxEvents: Int = 2_000, celebrations: Celebrations = .default, purgeURL: String? = nil,
                weekend: Weekend = .standard, holidays: String? = nil, language: Language? = nil, sort: FeedSnapshot.Sort = .remaining,
                countdownTitle: String? = nil) {
        self.slug = slug
        self.name = name ?? slug
        self.description = description
        self.timeZone = timeZone
        zone = Self.resolve(timeZone)
        self.color = color
        self.isPublic = isPublic
        self.countdownMode = countdownMode
        self.includeAlarms = includeAlarms
        self.refreshInterval = refreshInterval
        self.categoryColors = categoryColors
        self.countdownMaxEvents = countdownMaxEvents
        self.celebrations = celebrations
        self.purgeURL = purgeURL
        self.weekend = weekend
        self.holidays = holidays
        self.language = language
        self.sort = sort
        self.countdownTitle = countdownTitle
    }

    /// Slugs appear in URLs and file names: lower-case letters, digits and dashes.
    public static func isValidSlug(_ slug: String) -> Bool {
        // Bytes, not Characters: this runs on every feed request.
        !slug.isEmpty && slug.utf8.count <= 64 && slug.utf8.first != UInt8(ascii: "-")
            && slug.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }
}
