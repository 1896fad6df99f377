import Countdowns
import Foundation
import Pages

/// The feed form as posted (every field a string, as browsers send them) and
/// as shown again: it turns into the same `FeedSettingsDocument` that
/// `feeds/*.yaml` and the admin API use, so one set of rules checks all three.
package struct FeedForm: PostedForm, TemplateView {
    package var csrf: String?
    package var slug: String?
    /// The space a new feed belongs to (empty: the person's own).
    package var space: String?
    package var name: String?
    package var description: String?
    package var timeZone: String?
    package var color: String?
    package var isPublic: String?
    package var mode: String?
    package var days: String?
    package var milestones: String?
    package var maxEvents: String?
    /// The countdown calendar's event titles, `{title}` and `{amount}` filled in.
    package var countdownTitle: String?
    package var alarms: String?
    /// Hours between client polls (REFRESH-INTERVAL).
    package var refreshHours: String?
    /// One category a line: `Birthday #FF2D55`.
    package var categoryColors: String?
    package var halfBirthdays: String?
    /// Day counts celebrated for count-ups, separated by commas.
    package var celebrateDays: String?
    /// A language code; empty for each viewer's.
    package var language: String?
    /// Days off for working days, separated by commas ("sat, sun").
    package var weekend: String?
    /// The slug of the feed that holds the holidays; empty for none.
    package var holidays: String?
    /// `remaining` or `title`: the order of the public page and JSON.
    package var sort: String?

    package init(csrf: String? = nil) {
        self.csrf = csrf
        halfBirthdays = "on"
        celebrateDays = Celebrations.defaultDayCounts.map(String.init).joined(separator: ", ")
    }

    /// The form filled in from a feed (for editing).
    package init(_ feed: Feed) {
        slug = feed.slug
        name = feed.name
        description = feed.description
        timeZone = feed.timeZone
        color = feed.color
        isPublic = feed.isPublic ? "on" : nil
        switch feed.countdownMode {
        case .daily(let count): mode = "daily"; days = String(count)
        case .milestones(let marks): mode = "milestones"; milestones = marks.map(String.init).joined(separator: ", ")
        }
        maxEvents = String(feed.countdownMaxEvents)
        countdownTitle = feed.countdownTitle
        alarms = feed.includeAlarms ? "on" : nil
        if let interval = feed.refreshInterval {
            let seconds = interval.days * 86_400 + interval.seconds
            refreshHours = seconds % 3600 == 0 ? String(seconds / 3600) : String(format: "%.2f", Double(seconds) / 3600)
        }
        categoryColors = feed.categoryColors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "\n")
        halfBirthdays = feed.celebrations.halfBirthdays ? "on" : nil
        celebrateDays = feed.celebrations.dayCounts.map(String.init).joined(separator: ", ")
        language = feed.language?.code
        weekend = feed.weekend.dayNames.joined(separator: ", ")
        holidays = feed.holidays
        sort = feed.sort.rawValue
    }

    /// The settings document, or the field that is wrong and why.
    package func document(_ words: WebWords) throws(Feed.InvalidSetting) -> FeedSettingsDocument {
        var document = FeedSettingsDocument()
        guard let name = name.nonEmpty else { throw Feed.InvalidSetting(message: words["feedForm.needsName"]) }
        document.name = SafeText.clean(name)
        document.description = description.map(SafeText.clean) ?? ""
        document.timeZone = timeZone.nonEmpty ?? "UTC"
        document.color = color.nonEmpty
        document.public = isPublic.isChecked
        document.alarms = alarms.isChecked
        if let hours = refreshHours.nonEmpty {
            guard let value = Double(hours), value >= 0.25, value <= 24 * 30 else {
                throw Feed.InvalidSetting(message: "refresh every must be a number of hours from 0.25 to 720")
            }
            document.refresh = "PT\(Int((value * 60).rounded()))M"
        } else {
            document.refresh = "auto"
        }
        var countdown = FeedSettingsDocument.CountdownSettings(mode: mode.nonEmpty ?? "daily")
        if let days = days.nonEmpty {
            guard let value = Int(days) else { throw Feed.InvalidSetting(message: words["feedForm.wholeDays"]) }
            countdown.days = value
        }
        if countdown.mode == "milestones", let text = milestones.nonEmpty {
            let marks = text.split(whereSeparator: { $0 == "," || $0 == " " }).map { Int($0) }
            guard !marks.isEmpty, marks.allSatisfy({ $0 != nil }) else {
                throw Feed.InvalidSetting(message: words["feedForm.badMilestones"])
            }
            countdown.milestones = marks.compactMap { $0 }
        }
        if let maxEvents = maxEvents.nonEmpty {
            guard let value = Int(maxEvents) else { throw Feed.InvalidSetting(message: words["feedForm.badMaxEvents"]) }
            countdown.maxEvents = value
        }
        countdown.title = countdownTitle ?? ""
        document.countdown = countdown
        var colors: [String: String] = [:]
        for line in (categoryColors ?? "").split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            guard let hash = text.lastIndex(of: "#") else {
                throw Feed.InvalidSetting(message: "category colours: write each as a name and a colour, such as “Birthday #FF2D55” (line “\(text)”)")
            }
            let name = text[..<hash].trimmingCharacters(in: CharacterSet(charactersIn: " :=\t"))
            colors[name] = String(text[hash...])
        }
        if !colors.isEmpty { document.categories = colors }
        let counts = (celebrateDays ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map { Int($0) }
        guard counts.allSatisfy({ $0 != nil }) else { throw Feed.InvalidSetting(message: words["feedForm.badCelebrate"]) }
        document.celebrate = .init(halfBirthdays: halfBirthdays.isChecked, days: counts.compactMap { $0 })
        document.language = language ?? ""
        if let weekend = weekend.nonEmpty {
            document.weekend = weekend.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        }
        document.holidays = holidays.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        document.sort = sort.nonEmpty
        return document
    }

    package var templateValues: [String: Any] {
        ["isDaily": (mode ?? "daily") == "daily", "isMilestones": mode == "milestones", "publicChecked": isPublic.isChecked,
         "alarmsChecked": alarms.isChecked, "sortByTitle": sort == FeedSnapshot.Sort.title.rawValue, "colorValue": color.nonEmpty ?? "#007AFF", "halfChecked": halfBirthdays.isChecked,
         "viewerLanguage": language.nonEmpty == nil,
         "languages": Language.all.map { ["value": $0.code, "label": "\($0.name) (\($0.code))", "selected": $0.code == language] }]
    }
}
