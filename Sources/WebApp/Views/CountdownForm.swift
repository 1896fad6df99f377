import Countdowns
import CountdownStore
import Foundation
import ICalendar
import MultipartKit
import Pages

/// The countdown form as posted (multipart, for the image) and as shown again.
/// It becomes a `CountdownDraft`, the same document the admin API and
/// `tminus add` use, so the rules and messages are the same everywhere.
package struct CountdownForm: PostedForm, TemplateView {
    package var csrf: String?
    /// The feed it is in (a different one moves it).
    package var feed: String?
    package var kind: String?
    package var title: String?
    package var date: String?
    package var time: String?
    package var timeZone: String?
    /// none, daily, weekly, monthly, yearly, every, nth, lastday or custom.
    package var `repeat`: String?
    package var everyCount: String?
    package var everyUnit: String?
    package var nthOrdinal: String?
    package var nthWeekday: String?
    package var rrule: String?
    package var clamp: String?
    /// When the counted span began (for progress).
    package var from: String?
    package var direction: String?
    package var unit: String?
    package var useColors: String?
    package var color1: String?
    package var color2: String?
    package var textColor: String?
    package var imageURL: String?
    package var image: Data?
    package var removeImage: String?
    package var categories: String?
    package var notes: String?
    package var url: String?
    package var location: String?
    /// An alarm offset such as `-PT15M` or `-P1D`; empty for none.
    package var alarm: String?
    package var priority: String?

    package init() {}

    /// The form filled in from a saved countdown.
    package init(_ countdown: Countdown, feed: String) {
        self.feed = feed
        kind = countdown.kind.rawValue
        title = countdown.title
        date = countdown.target.civilDate.iso
        if !countdown.isAllDay {
            time = String(format: "%02d:%02d", countdown.target.local.hour, countdown.target.local.minute)
            switch countdown.target {
            case .floating: timeZone = "floating"
            case .utc: timeZone = "UTC"
            default: timeZone = countdown.target.tzid
            }
        }
        switch countdown.repeatRule {
        case .none: `repeat` = RepeatChoice.none.rawValue
        case .every(1, let unit, let clamped):
            `repeat` = RepeatChoice.simple(everyOne: unit.rawValue)?.rawValue
            clamp = clamped ? "on" : nil
        case .every(let count, let unit, let clamped):
            `repeat` = RepeatChoice.every.rawValue; everyCount = String(count); everyUnit = unit.rawValue + "s"; clamp = clamped ? "on" : nil
        case .nthWeekday(let ordinal, let weekday, 1):
            `repeat` = RepeatChoice.nth.rawValue; nthOrdinal = String(ordinal); nthWeekday = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][weekday.rawValue]
        case .lastDayOfMonth(1): `repeat` = RepeatChoice.lastDay.rawValue
        case .calendarYearly(let calendar) where ["CHINESE", "HEBREW", "ISLAMIC-CIVIL"].contains(calendar.name):
            `repeat` = RepeatPhrase.describe(countdown.repeatRule)
        default: `repeat` = RepeatChoice.custom.rawValue; rrule = countdown.repeatRule.rrule(startingOn: countdown.target.civilDate)
        }
        direction = countdown.direction.rawValue
        from = countdown.countsFrom?.iso
        unit = countdown.displayUnit.rawValue
        if !countdown.presentation.gradient.isEmpty {
            useColors = "on"
            color1 = countdown.presentation.gradient.first
            color2 = countdown.presentation.gradient.count > 1 ? countdown.presentation.gradient[1] : countdown.presentation.gradient.first
        }
        textColor = countdown.presentation.textColor
        if let image = countdown.presentation.image, !image.hasPrefix(StoredImage.scheme) { imageURL = image }
        categories = countdown.categories.joined(separator: ", ")
        notes = countdown.notes
        url = countdown.url
        location = countdown.location
        alarm = countdown.alarms.first?.description
        priority = countdown.priority.map(String.init)
    }

    /// The repeat phrase or rule the picker stands for.
    package func repeatChoice(_ words: WebWords) throws(CountdownDraft.Invalid) -> (phrase: String?, rrule: String?) {
        guard let choice = RepeatChoice(rawValue: `repeat` ?? "none") else {
            throw .init(field: .repeat, message: "'\(`repeat` ?? "")' is not a repeat choice")
        }
        switch choice {
        case .none, .daily, .weekly, .monthly, .yearly, .chinese, .hebrew, .islamic: return (choice.rawValue, nil)
        case .every:
            guard let count = everyCount.nonEmpty.flatMap({ Int($0) }), (1...1000).contains(count) else {
                throw .init(field: .repeat, message: words["countdown.everyRange"])
            }
            return ("every \(count) \(everyUnit.nonEmpty ?? "weeks")", nil)
        case .nth: return ("\(nthOrdinal.nonEmpty ?? "1") \(nthWeekday.nonEmpty ?? "friday")".replacingOccurrences(of: "-1 ", with: "last "), nil)
        case .lastDay: return ("last day", nil)
        case .custom:
            guard let rule = rrule.nonEmpty else { throw .init(field: .rrule, message: words["countdown.writeRule"]) }
            return (nil, rule.hasPrefix("RRULE:") ? String(rule.dropFirst(6)) : rule)
        }
    }

    /// The draft every field of the form stands for (a full replacement: empty
    /// fields clear what they hold). The image is handled by the caller.
    package func draft(_ words: WebWords) throws(CountdownDraft.Invalid) -> CountdownDraft {
        var draft = CountdownDraft()
        draft.title = title ?? ""
        draft.date = date.nonEmpty ?? ""
        draft.kind = kind == "task" ? .task : .event
        if let time = time.nonEmpty {
            draft.time = time
            draft.timeZone = timeZone.nonEmpty
        } else {
            draft.allDay = true
        }
        let (phrase, rule) = try repeatChoice(words)
        if let rule { draft.rrule = rule } else { draft.repeat = phrase }
        draft.clamp = clamp.isChecked
        draft.direction = direction == "up" ? .up : .down
        draft.from = from.nonEmpty ?? ""
        guard let unit = DisplayUnit(rawValue: unit.nonEmpty ?? "dynamic") else { throw .init(field: .unit, message: "'\(unit ?? "")' is not a display unit") }
        draft.unit = unit
        if useColors.isChecked {
            draft.colors = [color1.nonEmpty ?? "#007AFF", color2.nonEmpty ?? color1.nonEmpty ?? "#5AC8FA"]
            draft.textColor = textColor.nonEmpty ?? "#FFFFFF"
        } else {
            draft.colors = []
            draft.textColor = ""
        }
        if let link = imageURL.nonEmpty { draft.image = link } else if removeImage.isChecked { draft.image = "" }
        draft.categories = (categories ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        draft.notes = notes ?? ""
        draft.url = url.nonEmpty ?? ""
        draft.location = location ?? ""
        draft.alarms = alarm.nonEmpty.map { [$0] } ?? []
        if let priority = priority.nonEmpty {
            guard let value = Int(priority) else { throw .init(field: .priority, message: words["countdown.priorityRange"]) }
            draft.priority = value
        } else if kind == "task" {
            draft.priority = 0
        }
        return draft
    }

    /// The uploaded file, when one was chosen.
    var imageBytes: Data? {
        guard let image, !image.isEmpty else { return nil }
        return image
    }

    package var templateValues: [String: Any] {
        ["isTask": kind == "task", "colorsChecked": useColors.isChecked, "clampChecked": clamp.isChecked, "countingUp": direction == "up",
         "color1Value": color1.nonEmpty ?? "#007AFF", "color2Value": color2.nonEmpty ?? "#5AC8FA", "textColorValue": textColor.nonEmpty ?? "#FFFFFF",
         "removeChecked": removeImage.isChecked, "image": NSNull()]
    }
}
