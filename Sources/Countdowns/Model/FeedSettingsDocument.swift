import ICalendar

/// A feed's settings as people write them: one Codable document read from
/// `feeds/*.yaml`, the admin API's JSON, the web app's feed form and
/// `tminus feeds add`, checked by the same rules (`Feed.valid*`) and applied by
/// one function. A field that is absent leaves the feed's value as it is, so
/// the same document serves a full definition (applied to a new feed's
/// defaults) and a PATCH.
///
/// Each setting is declared once: a property of `Values` (its key in YAML and
/// JSON, decoded and encoded by the synthesized Codable) and one `FeedSettingRule`
/// in `rules` (how a feed shows it, and how it is checked and applied).
///
/// `timeZone` is the spelling; the older `timezone` is still read, and noted in
/// `deprecatedKeys` so that the caller can warn.
@dynamicMemberLookup
public struct FeedSettingsDocument: Codable, Sendable, Equatable {
    /// Every setting, by the key people write.
    public struct Values: Codable, Sendable, Equatable {
        public var name: String?
        public var description: String?
        public var timeZone: String?
        /// `#RRGGBB` (`#RGB` is accepted).
        public var color: String?
        /// Listed on the index page and served without a token.
        public var `public`: Bool?
        /// Include each countdown's VALARMs in the exported calendar.
        public var alarms: Bool?
        /// REFRESH-INTERVAL for clients (ISO 8601 duration); `auto` (the
        /// default): from how often the feed changes, an hour to a day (`RefreshHint`).
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
        /// `sort: title`: the order of the page and the JSON when the request names none (default `remaining`, soonest first).
        public var sort: String?

        public init() {}
    }

    public struct CountdownSettings: Codable, Sendable, Equatable {
        /// `daily` (one event a day for `days` days) or `milestones`.
        public var mode: String?
        public var days: Int?
        public var milestones: [Int]?
        /// Most events in the countdown calendar (default 2,000, about 900 KB).
        public var maxEvents: Int?
        /// Its events' titles: `{title}` and `{amount}` filled in (default
        /// `{title} — {amount}`); empty for the default.
        public var title: String?

        public init(mode: String? = nil, days: Int? = nil, milestones: [Int]? = nil, maxEvents: Int? = nil, title: String? = nil) {
            self.mode = mode
            self.days = days
            self.milestones = milestones
            self.maxEvents = maxEvents
            self.title = title
        }
    }

    public struct CelebrationSettings: Codable, Sendable, Equatable {
        public var halfBirthdays: Bool?
        public var days: [Int]?

        public init(halfBirthdays: Bool? = nil, days: [Int]? = nil) {
            self.halfBirthdays = halfBirthdays
            self.days = days
        }
    }

    public var values = Values()
    /// Old spellings met while decoding; never encoded.
    public var deprecatedKeys: [String] = []

    public init() {}

    public subscript<Value>(dynamicMember path: WritableKeyPath<Values, Value>) -> Value {
        get { values[keyPath: path] }
        set { values[keyPath: path] = newValue }
    }

    /// Every setting of `feed`, as the admin API shows it.
    public init(_ feed: Feed) {
        for rule in Self.rules { rule.show(feed, &values) }
    }

    private struct OldSpellings: Decodable {
        var timezone: String?
    }

    public init(from decoder: any Decoder) throws {
        values = try Values(from: decoder)
        if let old = try OldSpellings(from: decoder).timezone {
            deprecatedKeys.append("timezone")
            values.timeZone = values.timeZone ?? old
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try values.encode(to: encoder)
    }

    /// Keys still read under an old spelling (`OldSpellings`).
    public static let oldKeys: [String] = Mirror(reflecting: OldSpellings()).children.compactMap(\.label)

    /// Every setting's key, as people write it, sorted.
    public static let keys: [String] = Mirror(reflecting: Values()).children.compactMap(\.label).sorted()

    /// Every setting of `feed` that a store keeps in the feed's row: all but
    /// its category colours, which live with the categories.
    public init(stored feed: Feed) {
        self.init(feed)
        values.categories = nil
    }

    /// Applies a stored document to a feed of defaults: each setting by its
    /// rule, and one that no longer passes (a time zone the system's zone
    /// data dropped) leaves the default instead of losing the whole feed.
    public func applyStored(to feed: inout Feed) {
        for rule in Self.rules { try? rule.apply(values, &feed) }
    }

    /// Applies the settings present, by the rules in `Feed.valid*`; on error the feed is unchanged.
    public func apply(to feed: inout Feed) throws(Feed.InvalidSetting) {
        var edited = feed
        for rule in Self.rules { try rule.apply(values, &edited) }
        feed = edited
    }
}
