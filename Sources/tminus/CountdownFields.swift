import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import ICalendar

/// The options `add` and `edit` share; each one given overrides that field.
struct CountdownFields: ParsableArguments {
    @Option(help: "The date, YYYY-MM-DD.") var date: String?
    @Option(help: "A time, HH:MM (without it the countdown is all-day).") var time: String?
    @Option(help: "The zone of --time (Olson name); 'floating' means the viewer's zone. Default: the feed's zone.") var tz: String?
    @Option(help: "End date (all-day, inclusive) or HH:MM end time on the same day.") var end: String?
    @Option(help: "none, daily, weekly, monthly, yearly, 'every N days|weeks|months|years', 'last friday', '2nd tuesday', 'last day'.")
    var `repeat`: String?
    @Flag(help: "For the 29th–31st and 29 February: use the month's last day instead of skipping.") var clamp = false
    @Option(help: "A raw RRULE instead of a preset, e.g. FREQ=WEEKLY;BYDAY=MO,WE.") var rrule: String?
    @Option(help: "Two gradient colours, '#RRGGBB,#RRGGBB'.") var colors: String?
    @Option(help: "Text colour, #RRGGBB.") var textColor: String?
    @Option(help: "An image: an https URL, or a local png/jpeg/gif/webp/svg file to upload.") var image: String?
    @Option(help: "A category (tag); repeat for several.") var category: [String] = []
    @Option(parsing: .unconditionalSingleValue, help: "An alarm offset before the target, e.g. -P2D or -PT30M; repeat for several.")
    var alarm: [String] = []
    @Option(help: "Display unit: dynamic, days, weeks, months, years, detailed.") var unit: DisplayUnit?
    @Flag(help: "Count up (time since) instead of down.") var up = false
    @Option(help: "Notes.") var notes: String?
    @Option(help: "A link.") var url: String?
    @Option(help: "A place.") var location: String?
    @Flag(help: "A task (VTODO) due on --date rather than an event.") var task = false
    @Option(help: "Task priority, 1 (highest) to 9.") var priority: Int?

    func validate() throws {
        if let date, CivilDate(parsing: date) == nil { throw ValidationError("--date '\(date)' is not YYYY-MM-DD") }
        if let time, Self.parseTime(time) == nil { throw ValidationError("--time '\(time)' is not HH:MM") }
        if let tz, tz != "floating", Zone.named(tz) == nil { throw ValidationError("--tz '\(tz)' is not a known time zone") }
        if let colors {
            let parts = colors.split(separator: ",").map(String.init)
            guard (1...2).contains(parts.count), parts.allSatisfy({ Presentation.normalizeHex($0) != nil }) else {
                throw ValidationError("--colors '\(colors)' must be one or two #RRGGBB colours separated by a comma")
            }
        }
        if let textColor, Presentation.normalizeHex(textColor) == nil { throw ValidationError("--text-color '\(textColor)' is not #RRGGBB") }
        for offset in alarm where ICalDuration(parsing: offset) == nil {
            throw ValidationError("--alarm '\(offset)' is not a duration like -P2D or -PT30M")
        }
        if let rrule {
            do { _ = try RecurrenceRule(parsing: rrule) } catch { throw ValidationError("--rrule: \(error)") }
        }
        if let `repeat` {
            do { _ = try RepeatPhrase.parse(`repeat`) } catch { throw ValidationError("--repeat: \(error)") }
        }
        if let priority, !(1...9).contains(priority) { throw ValidationError("--priority must be 1 to 9") }
    }

    static func parseTime(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return (hour, minute)
    }

    /// Applies the given options to a countdown (new or loaded).
    func apply(to countdown: inout Countdown, feedZone: String, store: CountdownStore) throws {
        if date != nil || time != nil || tz != nil {
            let day = date.flatMap { CivilDate(parsing: $0) } ?? countdown.target.civilDate
            // A timed countdown keeps its clock time when only the date changes.
            let clock = time.flatMap(Self.parseTime) ?? (countdown.isAllDay ? nil : (countdown.target.local.hour, countdown.target.local.minute))
            if let (hour, minute) = clock {
                let local = LocalDateTime(date: day, hour: hour, minute: minute)
                let name = tz ?? countdown.target.tzid ?? feedZone
                if name == "floating" { countdown.target = .floating(local) }
                else if let zone = Zone.named(name), !zone.isUTC { countdown.target = .zoned(local, tzid: zone.identifier) }
                else { countdown.target = .utc(local) }
            } else {
                countdown.target = .date(day)
            }
        }
        if let end {
            if let endDate = CivilDate(parsing: end), countdown.isAllDay {
                guard endDate >= countdown.target.civilDate else { throw CLIError("--end \(end) is before the start") }
                countdown.end = .date(endDate.adding(days: 1))
            } else if let (hour, minute) = Self.parseTime(end), !countdown.isAllDay {
                let local = LocalDateTime(date: countdown.target.civilDate, hour: hour, minute: minute)
                guard local > countdown.target.local else { throw CLIError("--end \(end) is not after the start time") }
                countdown.end = countdown.target.with(local: local)
            } else {
                throw CLIError("--end must be a date (YYYY-MM-DD) for all-day countdowns, or a time (HH:MM) for timed ones")
            }
            countdown.duration = nil
        }
        if let rrule { countdown.repeatRule = Repeat(rrule: rrule, startingOn: countdown.target.civilDate) }
        else if let phrase = `repeat` { countdown.repeatRule = try RepeatPhrase.parse(phrase, clamp: clamp) }
        else if clamp, case .every(let interval, let unit, _) = countdown.repeatRule {
            countdown.repeatRule = .every(interval: interval, unit: unit, clamp: true)
        }
        if let colors { countdown.presentation.gradient = colors.split(separator: ",").compactMap { Presentation.normalizeHex(String($0)) } }
        if let textColor { countdown.presentation.textColor = Presentation.normalizeHex(textColor) }
        if let image { countdown.presentation.image = try Self.imageReference(image, store: store) }
        if !category.isEmpty { countdown.categories = category }
        if !alarm.isEmpty { countdown.alarms = alarm.compactMap { ICalDuration(parsing: $0) } }
        if let unit { countdown.displayUnit = unit }
        if up { countdown.direction = .up }
        if let notes { countdown.notes = notes }
        if let url { countdown.url = url }
        if let location { countdown.location = location }
        if let priority { countdown.priority = priority }
    }

    static func imageReference(_ value: String, store: CountdownStore) throws -> String {
        if value.hasPrefix("https://") || value.hasPrefix("http://") { return value }
        guard let bytes = FileManager.default.contents(atPath: value) else { throw CLIError("--image \(value): not a URL and no such file") }
        guard let type = CountdownStore.imageType(of: bytes) else { throw CLIError("--image \(value): not a png, jpeg, gif, webp or svg image") }
        return try store.storeImage(bytes, mimeType: type)
    }
}

extension DisplayUnit: ExpressibleByArgument {}
