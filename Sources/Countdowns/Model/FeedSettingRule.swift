import ICalendar

/// One feed setting: how a feed shows it in a settings document, and how a
/// document's value is checked and applied to a feed. `FeedSettingsDocument.rules`
/// lists them all; a new setting is a property of `Values` and one rule.
struct FeedSettingRule {
    let show: (Feed, inout FeedSettingsDocument.Values) -> Void
    let apply: (FeedSettingsDocument.Values, inout Feed) throws(Feed.InvalidSetting) -> Void

    /// A setting held at `path`: `read` gives the feed's value (nil shows
    /// nothing), `write` applies a value present in the document.
    init<Value>(_ path: WritableKeyPath<FeedSettingsDocument.Values, Value?>, read: @escaping (Feed) -> Value?,
                write: @escaping (Value, inout Feed) throws(Feed.InvalidSetting) -> Void) {
        show = { feed, values in values[keyPath: path] = read(feed) }
        apply = { (values, feed) throws(Feed.InvalidSetting) in
            if let value = values[keyPath: path] { try write(value, &feed) }
        }
    }
}

extension FeedSettingsDocument {
    /// A countdown-calendar title pattern, cleaned: it names the countdown
    /// (`{title}`), knows no other placeholder than `{amount}`, and fits on a
    /// line; empty is the default (nil).
    static func countdownTitle(_ text: String) throws(Feed.InvalidSetting) -> String? {
        let pattern = SafeText.clean(text).trimmingCharacters(in: .whitespaces)
        guard !pattern.isEmpty else { return nil }
        guard pattern.count <= 200 else { throw Feed.InvalidSetting(message: "countdown title must be at most 200 characters") }
        guard pattern.contains("{title}") else {
            throw Feed.InvalidSetting(message: "countdown title must contain {title} (and may contain {amount}), such as '{title} in {amount}'")
        }
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw Feed.InvalidSetting(message: "countdown title: a '{' is not closed (use {title} and {amount})")
            }
            let placeholder = rest[open...close]
            guard placeholder == "{title}" || placeholder == "{amount}" else {
                throw Feed.InvalidSetting(message: "countdown title: '\(placeholder.prefix(40))' is not a placeholder (use {title} and {amount})")
            }
            rest = rest[rest.index(after: close)...]
        }
        return pattern
    }

    /// Every setting, in the order they are applied (the first invalid one is reported).
    static var rules: [FeedSettingRule] {
        [
            FeedSettingRule(\.name, read: \.name) { value, feed in feed.name = value },
            FeedSettingRule(\.description, read: \.description) { value, feed in feed.description = value.isEmpty ? nil : value },
            FeedSettingRule(\.timeZone, read: \.timeZone) { (value, feed) throws(Feed.InvalidSetting) in feed.timeZone = try Feed.validTimeZone(value) },
            FeedSettingRule(\.color, read: \.color) { (value, feed) throws(Feed.InvalidSetting) in feed.color = try Feed.validColor(value) },
            FeedSettingRule(\.public, read: \.isPublic) { value, feed in feed.isPublic = value },
            FeedSettingRule(\.purge, read: \.purgeURL) { (value, feed) throws(Feed.InvalidSetting) in feed.purgeURL = try Feed.validPurgeURL(value) },
            FeedSettingRule(\.weekend, read: \.weekend.dayNames) { (value, feed) throws(Feed.InvalidSetting) in
                switch Weekend.parse(value) {
                case .success(let days): feed.weekend = days
                case .failure(let error): throw Feed.InvalidSetting(message: error.description)
                }
            },
            FeedSettingRule(\.holidays, read: \.holidays) { (value, feed) throws(Feed.InvalidSetting) in
                guard value.isEmpty || Feed.isValidSlug(value), value != feed.slug else {
                    throw Feed.InvalidSetting(.holidays(value), message: "holidays: '\(value)' must be the slug of another feed (lower-case letters, digits and dashes); "
                                              + "a feed file in feeds/ may also name an http(s) calendar")
                }
                feed.holidays = value.isEmpty ? nil : value
            },
            FeedSettingRule(\.language, read: { $0.language?.code }) { (value, feed) throws(Feed.InvalidSetting) in
                if value.isEmpty { feed.language = nil; return }
                guard let known = Language.named(value) else {
                    throw Feed.InvalidSetting(message: "language: '\(value)' is not a language tminus speaks (use one of \(Language.codes.joined(separator: ", ")))")
                }
                feed.language = known
            },
            FeedSettingRule(\.sort, read: \.sort.rawValue) { (value, feed) throws(Feed.InvalidSetting) in
                guard let sort = FeedSnapshot.Sort(rawValue: value) else {
                    throw Feed.InvalidSetting(message: "sort: '\(value)' must be \(FeedSnapshot.Sort.allCases.map(\.rawValue).joined(separator: " or "))")
                }
                feed.sort = sort
            },
            FeedSettingRule(\.alarms, read: \.includeAlarms) { value, feed in feed.includeAlarms = value },
            FeedSettingRule(\.refresh, read: { $0.refreshInterval?.description }) { (value, feed) throws(Feed.InvalidSetting) in
                // Empty or `auto`: from how often the feed changes (RefreshHint).
                feed.refreshInterval = value.isEmpty || value.lowercased() == "auto" ? nil : try Feed.validInterval(value)
            },
            FeedSettingRule(\.countdown, read: { feed in
                switch feed.countdownMode {
                case .daily(let days): CountdownSettings(mode: "daily", days: days, maxEvents: feed.countdownMaxEvents, title: feed.countdownTitle)
                case .milestones(let marks):
                    CountdownSettings(mode: "milestones", milestones: marks, maxEvents: feed.countdownMaxEvents, title: feed.countdownTitle)
                }
            }) { (value, feed) throws(Feed.InvalidSetting) in
                if value.mode != nil || value.days != nil || value.milestones != nil {
                    feed.countdownMode = try Feed.validCountdownMode(value.mode, days: value.days, milestones: value.milestones)
                }
                if let maxEvents = value.maxEvents { feed.countdownMaxEvents = try Feed.validMaxEvents(maxEvents) }
                if let title = value.title { feed.countdownTitle = try Self.countdownTitle(title) }
            },
            FeedSettingRule(\.celebrate, read: { CelebrationSettings(halfBirthdays: $0.celebrations.halfBirthdays, days: $0.celebrations.dayCounts) }) {
                (value, feed) throws(Feed.InvalidSetting) in
                if let half = value.halfBirthdays { feed.celebrations.halfBirthdays = half }
                if let days = value.days {
                    guard days.count <= 20, days.allSatisfy({ (1...100_000).contains($0) }) else {
                        throw Feed.InvalidSetting(.celebrateRange, message: "celebrate days must be at most 20 day counts from 1 to 100000")
                    }
                    feed.celebrations = Celebrations(halfBirthdays: feed.celebrations.halfBirthdays, dayCounts: days)
                }
            },
            FeedSettingRule(\.categories, read: { $0.categoryColors.isEmpty ? nil : $0.categoryColors }) { (value, feed) throws(Feed.InvalidSetting) in
                for (name, color) in value {
                    let name = SafeText.clean(name).trimmingCharacters(in: .whitespaces)
                    guard !name.isEmpty, name.count <= 100 else { throw Feed.InvalidSetting(.categoryName, message: "a category name must have 1 to 100 characters") }
                    feed.categoryColors[name] = try Feed.validColor(color)
                }
            },
        ]
    }
}
