import ICalendar

/// A feed's settings as people write them: one Codable document read from
/// `feeds/*.yaml` and from the admin API's JSON, checked by the same rules
/// (`Feed.valid*`) and applied by one function. A field that is absent leaves
/// the feed's value as it is, so the same document serves a full definition
/// (applied to a new feed's defaults) and a PATCH.
///
/// `timeZone` is the spelling; the older `timezone` is still read, and noted in
/// `deprecatedKeys` so that the caller can warn.
public struct FeedSettingsDocument: Codable, Sendable, Equatable {
    public struct CountdownSettings: Codable, Sendable, Equatable {
        /// `daily` (one event a day for `days` days) or `milestones`.
        public var mode: String?
        public var days: Int?
        public var milestones: [Int]?
        /// Most events in the countdown calendar (default 2,000, about 900 KB).
        public var maxEvents: Int?

        public init(mode: String? = nil, days: Int? = nil, milestones: [Int]? = nil, maxEvents: Int? = nil) {
            self.mode = mode
            self.days = days
            self.milestones = milestones
            self.maxEvents = maxEvents
        }
    }

    public var name: String?
    public var description: String?
    public var timeZone: String?
    /// `#RRGGBB` (`#RGB` is accepted).
    public var color: String?
    public var isPublic: Bool?
    /// Include each countdown's VALARMs in the exported calendar.
    public var alarms: Bool?
    /// REFRESH-INTERVAL for clients (ISO 8601 duration), default PT6H.
    public var refresh: String?
    public var countdown: CountdownSettings?
    /// Category name → `#RRGGBB`: the colour of that category's countdowns in
    /// the web app's timeline and statistics, and COLOR hints in the export.
    public var categories: [String: String]?
    /// `celebrate: {halfBirthdays: true, days: [100, 1000]}`: what the countdown calendar adds.
    public var celebrate: CelebrationSettings?
    /// `purge: https://…`: POSTed after every change to the feed (a CDN's purge
    /// endpoint, or a hook in front of one); empty removes it.
    public var purge: String?
    /// `weekend: [fri, sat]`: the days that are not working days (default Saturday and Sunday).
    public var weekend: [String]?
    /// `holidays: public-holidays`: the slug of a feed whose events are days
    /// off when counting working days; empty removes it.
    public var holidays: String?
    /// `language: de`: the feed's language (see `Language.codes`); empty removes it.
    public var language: String?

    public struct CelebrationSettings: Codable, Sendable, Equatable {
        public var halfBirthdays: Bool?
        public var days: [Int]?

        public init(halfBirthdays: Bool? = nil, days: [Int]? = nil) {
            self.halfBirthdays = halfBirthdays
            self.days = days
        }
    }
    /// Old spellings met while decoding; never encoded.
    public var deprecatedKeys: [String] = []

    enum CodingKeys: String, CodingKey {
        case name, description, timeZone, timezone, color, isPublic = "public", alarms, refresh, countdown, categories, celebrate, purge, weekend, holidays, language
    }

    public init() {}

    /// Every setting of `feed`, as the admin API shows it.
    public init(_ feed: Feed) {
        name = feed.name
        description = feed.description
        timeZone = feed.timeZone
        color = feed.color
        isPublic = feed.isPublic
        alarms = feed.includeAlarms
        refresh = feed.refreshInterval.description
        switch feed.countdownMode {
        case .daily(let days): countdown = CountdownSettings(mode: "daily", days: days, maxEvents: feed.countdownMaxEvents)
        case .milestones(let marks): countdown = CountdownSettings(mode: "milestones", milestones: marks, maxEvents: feed.countdownMaxEvents)
        }
        categories = feed.categoryColors.isEmpty ? nil : feed.categoryColors
        celebrate = CelebrationSettings(halfBirthdays: feed.celebrations.halfBirthdays, days: feed.celebrations.dayCounts)
        purge = feed.purgeURL
        weekend = feed.weekend.dayNames
        holidays = feed.holidays
        language = feed.language?.code
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        if let old = try container.decodeIfPresent(String.self, forKey: .timezone) {
            deprecatedKeys.append("timezone")
            timeZone = timeZone ?? old
        }
        color = try container.decodeIfPresent(String.self, forKey: .color)
        isPublic = try container.decodeIfPresent(Bool.self, forKey: .isPublic)
        alarms = try container.decodeIfPresent(Bool.self, forKey: .alarms)
        refresh = try container.decodeIfPresent(String.self, forKey: .refresh)
        countdown = try container.decodeIfPresent(CountdownSettings.self, forKey: .countdown)
        categories = try container.decodeIfPresent([String: String].self, forKey: .categories)
        celebrate = try container.decodeIfPresent(CelebrationSettings.self, forKey: .celebrate)
        purge = try container.decodeIfPresent(String.self, forKey: .purge)
        weekend = try container.decodeIfPresent([String].self, forKey: .weekend)
        holidays = try container.decodeIfPresent(String.self, forKey: .holidays)
        language = try container.decodeIfPresent(String.self, forKey: .language)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encodeIfPresent(color, forKey: .color)
        try container.encodeIfPresent(isPublic, forKey: .isPublic)
        try container.encodeIfPresent(alarms, forKey: .alarms)
        try container.encodeIfPresent(refresh, forKey: .refresh)
        try container.encodeIfPresent(countdown, forKey: .countdown)
        try container.encodeIfPresent(categories, forKey: .categories)
        try container.encodeIfPresent(celebrate, forKey: .celebrate)
        try container.encodeIfPresent(purge, forKey: .purge)
        try container.encodeIfPresent(weekend, forKey: .weekend)
        try container.encodeIfPresent(holidays, forKey: .holidays)
        try container.encodeIfPresent(language, forKey: .language)
    }

    /// Applies the settings present, by the rules in `Feed.valid*`; on error the feed is unchanged.
    public func apply(to feed: inout Feed) throws(Feed.InvalidSetting) {
        var edited = feed
        if let name { edited.name = name }
        if let description { edited.description = description.isEmpty ? nil : description }
        if let timeZone { edited.timeZone = try Feed.validTimeZone(timeZone) }
        if let color { edited.color = try Feed.validColor(color) }
        if let isPublic { edited.isPublic = isPublic }
        if let purge { edited.purgeURL = try Feed.validPurgeURL(purge) }
        if let weekend {
            switch Weekend.parse(weekend) {
            case .success(let days): edited.weekend = days
            case .failure(let error): throw Feed.InvalidSetting(message: error.description)
            }
        }
        if let holidays {
            guard holidays.isEmpty || Feed.isValidSlug(holidays), holidays != edited.slug else {
                throw Feed.InvalidSetting(message: "holidays: '\(holidays)' must be the slug of another feed (lower-case letters, digits and dashes); "
                                          + "a feed file in feeds/ may also name an http(s) calendar")
            }
            edited.holidays = holidays.isEmpty ? nil : holidays
        }
        if let language {
            if language.isEmpty { edited.language = nil } else {
                guard let known = Language.named(language) else {
                    throw Feed.InvalidSetting(message: "language: '\(language)' is not a language tminus speaks (use one of \(Language.codes.joined(separator: ", ")))")
                }
                edited.language = known
            }
        }
        if let alarms { edited.includeAlarms = alarms }
        if let refresh { edited.refreshInterval = try Feed.validInterval(refresh) }
        if let countdown {
            if countdown.mode != nil || countdown.days != nil || countdown.milestones != nil {
                edited.countdownMode = try Feed.validCountdownMode(countdown.mode, days: countdown.days, milestones: countdown.milestones)
            }
            if let maxEvents = countdown.maxEvents { edited.countdownMaxEvents = try Feed.validMaxEvents(maxEvents) }
        }
        if let celebrate {
            if let half = celebrate.halfBirthdays { edited.celebrations.halfBirthdays = half }
            if let days = celebrate.days {
                guard days.count <= 20, days.allSatisfy({ (1...100_000).contains($0) }) else {
                    throw Feed.InvalidSetting(message: "celebrate days must be at most 20 day counts from 1 to 100000")
                }
                edited.celebrations = Celebrations(halfBirthdays: edited.celebrations.halfBirthdays, dayCounts: days)
            }
        }
        if let categories {
            for (name, color) in categories {
                let name = SafeText.clean(name).trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, name.count <= 100 else { throw Feed.InvalidSetting(message: "a category name must have 1 to 100 characters") }
                edited.categoryColors[name] = try Feed.validColor(color)
            }
        }
        feed = edited
    }
}
