import ArgumentParser
import Countdowns
import CountdownStore
import Foundation
import Services
import ICalendar

/// The options `add` and `edit` share; each one given overrides that field.
struct CountdownFields: ParsableArguments {
    @Option(help: "The date, YYYY-MM-DD.") var date: String?
    @Option(help: "A time, HH:MM (without it the countdown is all-day).") var time: String?
    @Option(help: "The zone of --time (Olson name); 'floating' means the viewer's zone. Default: the feed's zone.") var tz: String?
    @Option(help: "End date (all-day, inclusive) or HH:MM end time on the same day.") var end: String?
    @Option(help: "none, daily, weekly, monthly, yearly, 'every N days|weeks|months|years', 'last friday', '2nd tuesday', 'last day'.")
    var `repeat`: String?
    @Flag(inversion: .prefixedNo, help: "For the 29th–31st and 29 February: use the month's last day instead of skipping (--no-clamp: skip).")
    var clamp: Bool?
    @Option(help: "When the counted span began, YYYY-MM-DD (a term's first day): shows how much of it has passed. Empty clears it.")
    var from: String?
    @Option(help: "A raw RRULE instead of a preset, e.g. FREQ=WEEKLY;BYDAY=MO,WE.") var rrule: String?
    @Option(help: "Two gradient colours, '#RRGGBB,#RRGGBB'.") var colors: String?
    @Option(help: "Text colour, #RRGGBB.") var textColor: String?
    @Option(help: "An image: an https URL, or a local png/jpeg/gif/webp/svg file to upload.") var image: String?
    @Option(help: "A category (tag); repeat for several.") var category: [String] = []
    @Option(parsing: .unconditionalSingleValue, help: "An alarm offset before the target, e.g. -P2D or -PT30M; repeat for several.")
    var alarm: [String] = []
    @Option(help: "Display unit: dynamic, days, weeks, months, years, detailed, or workdays (the feed's working days).") var unit: DisplayUnit?
    @Flag(help: "--up counts the time since the date; --down (the default) the time until it.") var direction: Direction?
    @Option(help: "Notes.") var notes: String?
    @Option(help: "A link.") var url: String?
    @Option(help: "A place.") var location: String?
    @Flag(help: "--task: a task (VTODO) due on --date; --event (the default): an event.") var kind: Countdown.Kind?
    @Option(help: "Task priority, 1 (highest) to 9.") var priority: Int?

    /// The options as a draft; `apply` in the Countdowns module does the rest.
    func draft(title: String? = nil) -> CountdownDraft {
        var draft = CountdownDraft()
        draft.title = title
        draft.date = date
        draft.time = time
        draft.timeZone = tz
        draft.end = end
        draft.repeat = `repeat`
        draft.clamp = clamp
        draft.from = from
        draft.rrule = rrule
        draft.colors = colors.map { $0.split(separator: ",").map(String.init) }
        draft.textColor = textColor
        draft.categories = category.isEmpty ? nil : category
        draft.alarms = alarm.isEmpty ? nil : alarm
        draft.unit = unit
        draft.direction = direction
        draft.notes = notes
        draft.url = url
        draft.location = location
        draft.kind = kind
        draft.priority = priority
        return draft
    }

    /// The countdown the options stand for: `existing` edited, or a new one (the
    /// draft's conversion, in Services). A local image file is checked here and
    /// returned, to be kept in the same transaction as the countdown.
    func countdown(editing existing: Countdown?, title: String? = nil, feedZone: String, limits: StoreLimits) throws -> (Countdown, ImageUpload?) {
        var draft = draft(title: title)
        var upload: ImageUpload?
        if let image {
            if image.hasPrefix("https://") || image.hasPrefix("http://") { draft.image = image } else {
                upload = try Self.imageUpload(image, limits: limits)
                draft.image = upload?.reference
            }
        }
        do { return (try draft.countdown(editing: existing, feedZone: feedZone), upload) } catch {
            throw ValidationError("\(Self.option(error.field)): \(error.message)")
        }
    }

    /// A refused field named as the user typed it (`--tz`, not `--time-zone`).
    static func option(_ field: CountdownDraft.Field) -> String {
        switch field {
        case .timeZone: "--tz"
        case .alarms: "--alarm"
        default: "--" + field.rawValue.kebab
        }
    }

    static func imageUpload(_ path: String, limits: StoreLimits) throws -> ImageUpload {
        guard let bytes = FileManager.default.contents(atPath: path) else { throw CLIError("--image \(path): not a URL and no such file", status: .noInput) }
        do { return try ImageUpload(sniffing: bytes, limits: limits) } catch { throw CLIError("--image \(path): \(error)") }
    }
}

extension DisplayUnit: ExpressibleByArgument {}
extension Direction: EnumerableFlag {}
extension Countdown.Kind: EnumerableFlag {
    public static var allCases: [Countdown.Kind] { [.event, .task] }
}

extension String {
    /// `textColor` → `text-color`, for naming CLI options in messages.
    var kebab: String { reduce(into: "") { out, c in if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) } } }
}
