import ArgumentParser
import Countdowns
import Foundation
import ICalendar
import Services
import Subscriptions

/// The settings `feeds add` and `feeds edit` share; each one given sets that
/// setting, and what is not given stays as it was (or the default, for a new feed).
struct FeedOptions: ParsableArguments {
    /// Who may read the feed's calendar: anyone with its address, or only the
    /// holders of a secret token link.
    enum Visibility: String, EnumerableFlag {
        case `public`, `private`

        static func help(for value: Visibility) -> ArgumentHelp? {
            switch value {
            case .public: "Anyone with the feed's address may read it (the default for a new feed)."
            case .private: "Serve it only under secret token links."
            }
        }
    }

    @Option(help: "Display name.") var name: String?
    @Option(help: "Description shown by calendar clients (empty clears it).") var description: String?
    @Option(help: "The feed's time zone (Olson name, e.g. Europe/Berlin). Default for a new feed: this system's zone.") var tz: String?
    @Option(help: "Colour, #RRGGBB (empty clears it).") var color: String?
    @Flag var visibility: Visibility?
    @Flag(inversion: .prefixedNo, help: "Include VALARMs in the exported calendar (a new feed has none).") var alarms: Bool?
    @Option(help: "The days that are not working days, for --unit workdays, e.g. fri,sat. (default: sat,sun)")
    var weekend: String?
    @Option(help: "The slug of the feed whose events are holidays when counting working days (empty: none).") var holidays: String?
    @Option(help: ArgumentHelp("The feed's language (\(Language.codes.joined(separator: ", "))); empty: each viewer's.", valueName: "code"))
    var language: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("""
        Any setting as a feed file writes it, repeatable: --set sort=title \
        --set 'countdown={mode: milestones, milestones: [30, 7, 1]}' (settings: \(FeedSettingsDocument.keys.joined(separator: ", "))).
        """, valueName: "key=value"))
    var assignments: [String] = []

    /// The zone a new feed gets without `--tz`: the one this system's clock
    /// shows, as `list` and `occurrences` use (issue #40: one default everywhere).
    static var systemZone: String {
        let identifier = TimeZone.current.identifier
        // Debian without /etc/timezone says "Etc/UTC": the same zone, by its usual name.
        guard !["Etc/UTC", "Etc/GMT", "GMT", "UCT", "Etc/Universal"].contains(identifier), Zone.named(identifier) != nil else { return "UTC" }
        return identifier
    }

    /// Every option checked, on a scratch feed, before anything is opened or written.
    func validate() throws {
        var feed = Feed(slug: "scratch")
        try apply(to: &feed)
    }

    /// Sets what was given; each refusal names the option as typed.
    func apply(to feed: inout Feed) throws {
        if let name {
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("--name: a feed needs a name") }
            feed.name = name
        }
        if let description { feed.description = description.isEmpty ? nil : description }
        if let tz {
            guard let zone = Zone.named(tz) else { throw ValidationError("--tz: '\(tz)' is not a known time zone (an Olson name such as Europe/Berlin)") }
            feed.timeZone = zone.identifier
        }
        if let color {
            if color.isEmpty { feed.color = nil } else {
                guard let hex = Presentation.normalizeHex(color) else { throw ValidationError("--color: '\(color)' is not #RRGGBB") }
                feed.color = hex
            }
        }
        if let visibility { feed.isPublic = visibility == .public }
        if let alarms { feed.includeAlarms = alarms }
        do { try settings.apply(to: &feed) } catch { throw ValidationError("--\(error.message)") }
        let more: FeedSettingsDocument
        do { more = try SettingAssignments.document(assignments) } catch { throw ValidationError(error.description) }
        do { try more.apply(to: &feed) } catch { throw ValidationError("--set \(error.message)") }
    }

    /// `--weekend`, `--holidays` and `--language`, checked by the rules the
    /// feed files and the API use (an empty value clears the setting there too).
    private var settings: FeedSettingsDocument {
        var document = FeedSettingsDocument()
        document.weekend = weekend.map { $0.split(separator: ",").map(String.init) }
        document.holidays = holidays
        document.language = language
        return document
    }

    /// True when no setting was given: `feeds edit` then has nothing to do.
    var isEmpty: Bool {
        name == nil && description == nil && tz == nil && color == nil && visibility == nil && alarms == nil && weekend == nil
            && holidays == nil && language == nil && assignments.isEmpty
    }
}
