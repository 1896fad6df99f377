import ICalendar

/// Changes to a countdown as people give them (CLI options, admin-API JSON):
/// every field is optional and only the given ones change. Validation names the field.
public struct CountdownDraft: Sendable, Codable, Equatable {
    public var title: String?
    /// `YYYY-MM-DD`.
    public var date: String?
    /// `HH:MM`; without it the countdown is all-day.
    public var time: String?
    /// True makes a timed countdown all-day (a form that leaves the time empty).
    public var allDay: Bool?
    /// Zone of `time` (Olson name), or `floating`; default: the feed's zone.
    public var timeZone: String?
    /// An end date (all-day, inclusive) or an `HH:MM` end time on the same day.
    public var end: String?
    /// A preset phrase: `yearly`, `every 2 weeks`, `last friday` …
    public var `repeat`: String?
    public var clamp: Bool?
    /// `YYYY-MM-DD`: when the counted span began (its `progress` starts there); empty clears it.
    public var from: String?
    public var rrule: String?
    /// One or two `#RRGGBB`.
    public var colors: [String]?
    public var textColor: String?
    /// An image URI or `tminus-image:` reference (uploads are stored first).
    public var image: String?
    public var categories: [String]?
    /// Offsets like `-P2D`.
    public var alarms: [String]?
    public var unit: DisplayUnit?
    public var direction: Direction?
    public var notes: String?
    public var url: String?
    public var location: String?
    public var kind: Countdown.Kind?
    public var priority: Int?
    public var status: CountdownStatus?

    public init() {}

    /// A field of the draft, named as the JSON of the admin API names it.
    public enum Field: String, Sendable, CaseIterable {
        case title, date, time, timeZone, end, rrule, `repeat`, from, colors, textColor, image, alarms, url, priority, unit
    }

    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public var field: Field
        /// English, as the API and the command line print it.
        public var message: String
        /// What is wrong, typed, so that the web app can say it in the page's language.
        public var reason: Reason
        public var description: String { "\(field.rawValue): \(message)" }

        /// A reason the other layers name themselves (a rule's parse error, a link's problem): shown as written.
        public init(field: Field, message: String) {
            self.field = field
            self.message = message
            reason = .other
        }

        init(field: Field, _ reason: Reason) {
            self.field = field
            self.reason = reason
            message = reason.english
        }

        /// Two refusals are the same when they say the same: the reason only types what the message says.
        public static func == (lhs: Invalid, rhs: Invalid) -> Bool { lhs.field == rhs.field && lhs.message == rhs.message }
    }

    /// Why a draft's field was refused. The values are the text as it was typed.
    public enum Reason: Sendable, Equatable {
        case required
        case requiredDate
        case empty
        case titleTooLong(count: Int, limit: Int)
        case notADate(String)
        case notATime(String)
        case unknownZone(String)
        case endBeforeStart(String)
        case endNotAfterStart(String)
        case endFormat
        case fromNotBefore(String, date: String)
        case colors
        case notAColor(String)
        case notADuration(String)
        case priorityRange
        /// Named in `message` only.
        case other

        var english: String {
            switch self {
            case .required: "is required"
            case .requiredDate: "is required, as YYYY-MM-DD"
            case .empty: "is empty"
            case .titleTooLong(let count, let limit): "is \(count) characters; at most \(limit) are kept (put the rest in the notes)"
            case .notADate(let text): CivilDate.problem(with: text) ?? "is not a date"
            case .notATime(let text): "'\(text)' is not a time of day (HH:MM, from 00:00 to 23:59)"
            case .unknownZone(let text): "'\(text)' is not a known time zone"
            case .endBeforeStart(let text): "\(text) is before the start"
            case .endNotAfterStart(let text): "\(text) is not after the start time"
            case .endFormat: "must be a date (YYYY-MM-DD) for all-day countdowns, or a time (HH:MM) for timed ones"
            case .fromNotBefore(let text, let date): "\(text) must be before the countdown's date (\(date))"
            case .colors: "must be one or two #RRGGBB colours, or none for the palette's"
            case .notAColor(let text): "'\(text)' is not #RRGGBB"
            case .notADuration(let text): "'\(text)' is not a duration like -P2D"
            case .priorityRange: "must be 0 to 9"
            case .other: ""
            }
        }
    }

    static func parseTime(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (hour, minute)
    }

    /// A new countdown from a draft that has at least a title and a date.
    public func makeCountdown(uid: String, feedZone: String) throws(Invalid) -> Countdown {
        guard let title, !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw Invalid(field: .title, .required) }
        guard title.count <= SafeText.maxTitleCharacters else { throw Self.tooLong(title) }
        guard let date else { throw Invalid(field: .date, .requiredDate) }
        guard let day = CivilDate(parsing: date) else { throw Invalid(field: .date, .notADate(date)) }
        var countdown = Countdown(uid: uid, title: SafeText.clean(title), target: .date(day), kind: kind ?? .event)
        try apply(to: &countdown, feedZone: feedZone)
        return countdown
    }

    static func tooLong(_ title: String) -> Invalid {
        Invalid(field: .title, .titleTooLong(count: title.count, limit: SafeText.maxTitleCharacters))
    }

    public func apply(to countdown: inout Countdown, feedZone: String) throws(Invalid) {
        if let title {
            guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw Invalid(field: .title, .empty) }
            guard title.count <= SafeText.maxTitleCharacters else { throw Self.tooLong(title) }
            countdown.title = SafeText.clean(title)
        }
        if let kind { countdown.kind = kind }
        // A zone is checked even where an all-day countdown does not use it: a typo is not ignored.
        if let timeZone, timeZone != "floating", Zone.named(timeZone) == nil { throw Invalid(field: .timeZone, .unknownZone(timeZone)) }
        if date != nil || time != nil || timeZone != nil || allDay == true {
            let wasAllDay = countdown.isAllDay
            var day = countdown.target.civilDate
            if let date {
                guard let parsed = CivilDate(parsing: date) else { throw Invalid(field: .date, .notADate(date)) }
                day = parsed
            }
            var clock: (Int, Int)? = countdown.isAllDay || allDay == true ? nil : (countdown.target.local.hour, countdown.target.local.minute)
            if let time {
                guard let parsed = Self.parseTime(time) else { throw Invalid(field: .time, .notATime(time)) }
                clock = parsed
            }
            if let (hour, minute) = clock {
                let local = LocalDateTime(date: day, hour: hour, minute: minute)
                let name = timeZone ?? countdown.target.tzid ?? feedZone
                if name == "floating" { countdown.target = .floating(local) } else {
                    guard let zone = Zone.named(name) else { throw Invalid(field: .timeZone, .unknownZone(name)) }
                    countdown.target = zone.isUTC ? .utc(local) : .zoned(local, tzid: zone.identifier)
                }
            } else {
                countdown.target = .date(day)
            }
            if countdown.isAllDay != wasAllDay {
                // An end of the other kind no longer fits.
                countdown.end = nil
                countdown.duration = nil
            }
        }
        if let end {
            if let endDate = CivilDate(parsing: end), countdown.isAllDay {
                guard endDate >= countdown.target.civilDate else { throw Invalid(field: .end, .endBeforeStart(end)) }
                countdown.end = .date(endDate.adding(days: 1))
            } else if let (hour, minute) = Self.parseTime(end), !countdown.isAllDay {
                let local = LocalDateTime(date: countdown.target.civilDate, hour: hour, minute: minute)
                guard local > countdown.target.local else { throw Invalid(field: .end, .endNotAfterStart(end)) }
                countdown.end = countdown.target.with(local: local)
            } else {
                throw Invalid(field: .end, .endFormat)
            }
            countdown.duration = nil
        }
        if let rrule {
            do { _ = try RecurrenceRule(parsing: rrule) } catch { throw Invalid(field: .rrule, message: error.message) }
            countdown.repeatRule = Repeat(rrule: rrule, startingOn: countdown.target.civilDate)
        } else if let phrase = `repeat` {
            do { countdown.repeatRule = try RepeatPhrase.parse(phrase, clamp: clamp ?? false) } catch {
                throw Invalid(field: .repeat, message: error.description)
            }
        } else if let clamp, case .every(let interval, let unit, _) = countdown.repeatRule {
            // Either way: `--no-clamp` takes back what `--clamp` set (issue #40).
            countdown.repeatRule = .every(interval: interval, unit: unit, clamp: clamp)
        }
        if let from {
            if from.isEmpty { countdown.countsFrom = nil } else {
                guard let day = CivilDate(parsing: from) else { throw Invalid(field: .from, .notADate(from)) }
                guard day < countdown.target.civilDate else {
                    throw Invalid(field: .from, .fromNotBefore(from, date: countdown.target.civilDate.iso))
                }
                countdown.countsFrom = day
            }
        }
        if let colors {
            // No colours means the palette's, as an unticked "Use my colours" says (an empty list clears them).
            let parsed = colors.compactMap(Presentation.normalizeHex)
            guard (0...2).contains(colors.count), parsed.count == colors.count else {
                throw Invalid(field: .colors, .colors)
            }
            countdown.presentation.gradient = parsed
        }
        if let textColor, textColor.isEmpty {
            countdown.presentation.textColor = nil
        } else if let textColor {
            guard let hex = Presentation.normalizeHex(textColor) else { throw Invalid(field: .textColor, .notAColor(textColor)) }
            countdown.presentation.textColor = hex
        }
        if let image {
            guard image.isEmpty || SafeLink.isAllowed(image, as: .image) else {
                throw Invalid(field: .image, message: SafeLink.problem(image, as: .image))
            }
            countdown.presentation.image = image.isEmpty ? nil : image
        }
        if let categories { countdown.categories = categories.map(SafeText.clean).filter { !$0.isEmpty } }
        if let alarms {
            var offsets: [ICalDuration] = []
            for alarm in alarms {
                guard let offset = ICalDuration(parsing: alarm) else { throw Invalid(field: .alarms, .notADuration(alarm)) }
                offsets.append(offset)
            }
            countdown.alarms = offsets
        }
        if let unit { countdown.displayUnit = unit }
        if let direction { countdown.direction = direction }
        if let notes { countdown.notes = notes.isEmpty ? nil : SafeText.clean(notes) }
        if let url {
            guard url.isEmpty || SafeLink.isAllowed(url, as: .url) else { throw Invalid(field: .url, message: SafeLink.problem(url, as: .url)) }
            countdown.url = url.isEmpty ? nil : url
        }
        if let location { countdown.location = location.isEmpty ? nil : SafeText.clean(location) }
        if let priority {
            guard (0...9).contains(priority) else { throw Invalid(field: .priority, .priorityRange) }
            countdown.priority = priority
        }
        if let status { countdown.status = status }
    }
}
