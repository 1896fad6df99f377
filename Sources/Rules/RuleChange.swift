import Countdowns
import Foundation
import ICalendar

/// The `change:` half of a rule set: what happens to an event that passes.
/// Per source, so a merged feed can show which calendar each event came from
/// ("School: Maths final"). Everything is checked and compiled when the feed
/// file is loaded; applying it is pure.
///
/// The order is fixed, whatever the order in the file: replacements, then
/// prefix and suffix, then categories, colour, stripped parts and the alarm.
/// Moved or changed instances of a repeating event (its RECURRENCE-ID
/// overrides) get the same title and stripping as the series.
package struct RuleChange: Sendable {
    /// What `strip:` and `keep:` name, and the properties each one is.
    package enum Part: String, CaseIterable, Sendable {
        case description, location, url, attendees, organizer, alarms, attachments, comments, contacts, conference

        package var propertyName: String {
            switch self {
            case .description: "DESCRIPTION"
            case .location: "LOCATION"
            case .url: "URL"
            case .attendees: "ATTENDEE"
            case .organizer: "ORGANIZER"
            case .alarms: "VALARM"
            case .attachments: "ATTACH"
            case .comments: "COMMENT"
            case .contacts: "CONTACT"
            case .conference: "CONFERENCE"
            }
        }
    }

    /// `replace:` entries: a pattern in one text field, replaced literally.
    package struct Replacement: Sendable {
        package enum Field: String, Sendable { case summary, description, location }
        package var field: Field
        package var pattern: LinearPattern
        package var with: String
    }

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    package var prefix: String?
    package var suffix: String?
    package var categories: [String]?
    package var addCategories: [String] = []
    /// A CSS3 colour name, as RFC 7986's COLOR wants.
    package var color: String?
    package var strip: Set<Part> = []
    package var replacements: [Replacement] = []
    /// Added to the event's alarms (negative: before the start).
    package var alarm: ICalDuration?

    package static let none = RuleChange()

    package var isEmpty: Bool {
        prefix == nil && suffix == nil && categories == nil && addCategories.isEmpty && color == nil && strip.isEmpty
            && replacements.isEmpty && alarm == nil
    }

    package init() {}

    package init(_ change: ChangeText?) throws {
        guard let change else { return }
        func text(_ raw: String?, _ key: String) throws -> String? {
            guard let raw else { return nil }
            guard raw.count <= 200, !raw.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) else {
                throw Invalid(description: "change.\(key) must be at most 200 characters on one line")
            }
            return raw
        }
        prefix = try text(change.prefix, "prefix")
        suffix = try text(change.suffix, "suffix")
        func names(_ raw: [String]?, _ key: String) throws -> [String]? {
            guard let raw else { return nil }
            let trimmed = raw.map { $0.trimmingCharacters(in: .whitespaces) }
            guard trimmed.allSatisfy({ !$0.isEmpty && !$0.contains(",") && $0.count <= 100 }) else {
                throw Invalid(description: "change.\(key): a category is 1 to 100 characters without a comma")
            }
            return trimmed
        }
        categories = try names(change.categories, "categories")
        addCategories = try names(change.addCategories, "addCategories") ?? []
        if let raw = change.color {
            guard let name = CSSColor.name(for: raw) else { throw Invalid(description: "change.color '\(raw)' is neither #RRGGBB nor a CSS colour name") }
            color = name
        }
        func parts(_ raw: [String], _ key: String) throws -> Set<Part> {
            Set(try raw.map { name in
                guard let part = Part(rawValue: name.lowercased()) else {
                    throw Invalid(description: "change.\(key): '\(name)' is not one of \(Part.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return part
            })
        }
        switch (change.strip, change.keep) {
        case (let stripped?, nil): strip = try parts(stripped, "strip")
        case (nil, let kept?): strip = Set(Part.allCases).subtracting(try parts(kept, "keep"))
        case (nil, nil): break
        default: throw Invalid(description: "change: strip: and keep: say the same thing two ways; choose one")
        }
        replacements = try (change.replace ?? []).enumerated().map { index, entry in
            let field = entry.field ?? "summary"
            guard let parsed = Replacement.Field(rawValue: field) else {
                throw Invalid(description: "change.replace[\(index)].field '\(field)' is not summary, description or location")
            }
            do {
                return Replacement(field: parsed, pattern: try LinearPattern(entry.pattern), with: entry.with ?? "")
            } catch let invalid as LinearPattern.Invalid {
                throw Invalid(description: "change.replace[\(index)] pattern '\(entry.pattern)' is not usable: \(invalid.reason)")
            }
        }
        if let raw = change.alarm {
            guard let duration = ICalDuration(parsing: raw) else {
                throw Invalid(description: "change.alarm '\(raw)' is not a duration before the start, such as -P1D or -PT30M")
            }
            alarm = duration
        }
    }

    /// Applies the change; returns what it changed, by key, for a dry run.
    /// Replacements check `budget` as they read.
    package func apply(to countdown: inout Countdown, budget: WorkBudget) throws(WorkBudget.Exhausted) -> [String] {
        var changed: [String] = []
        func note(_ key: String, _ did: Bool) { if did && !changed.contains(key) { changed.append(key) } }
        for replacement in replacements {
            switch replacement.field {
            case .summary:
                note("replace", try replace(&countdown.title, replacement, budget))
                for index in countdown.overrides.indices { _ = try replaceProperty("SUMMARY", in: &countdown.overrides[index], replacement, budget) }
            case .description:
                if var notes = countdown.notes { note("replace", try replace(&notes, replacement, budget)); countdown.notes = notes }
                for index in countdown.overrides.indices { _ = try replaceProperty("DESCRIPTION", in: &countdown.overrides[index], replacement, budget) }
            case .location:
                if var location = countdown.location { note("replace", try replace(&location, replacement, budget)); countdown.location = location }
                for index in countdown.overrides.indices { _ = try replaceProperty("LOCATION", in: &countdown.overrides[index], replacement, budget) }
            }
        }
        if prefix != nil || suffix != nil {
            countdown.title = (prefix ?? "") + countdown.title + (suffix ?? "")
            for index in countdown.overrides.indices {
                guard var summary = countdown.overrides[index].first("SUMMARY") else { continue }
                summary.value = TextEscaping.escape((prefix ?? "") + summary.text + (suffix ?? ""))
                countdown.overrides[index].set("SUMMARY", summary)
            }
            note("prefix", prefix != nil)
            note("suffix", suffix != nil)
        }
        if let categories, countdown.categories != categories {
            countdown.categories = categories
            note("categories", true)
        }
        for name in addCategories where !countdown.categories.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
            countdown.categories.append(name)
            note("addCategories", true)
        }
        if let color, countdown.calendarColor != color {
            countdown.calendarColor = color
            note("color", true)
        }
        for part in Part.allCases where strip.contains(part) { note("strip.\(part.rawValue)", stripPart(part, from: &countdown)) }
        if let alarm, !countdown.alarms.contains(alarm) {
            countdown.alarms.append(alarm)
            note("alarm", true)
        }
        return changed
    }

    private func replace(_ text: inout String, _ replacement: Replacement, _ budget: WorkBudget) throws(WorkBudget.Exhausted) -> Bool {
        let replaced = try replacement.pattern.replacingMatches(in: text, with: replacement.with) { () throws(WorkBudget.Exhausted) in try budget.check() }
        defer { text = replaced }
        return replaced != text
    }

    private func replaceProperty(_ name: String, in component: inout Component, _ replacement: Replacement,
                                 _ budget: WorkBudget) throws(WorkBudget.Exhausted) -> Bool {
        guard var property = component.first(name) else { return false }
        var text = property.text
        guard try replace(&text, replacement, budget) else { return false }
        property.value = TextEscaping.escape(text)
        component.set(name, property)
        return true
    }

    /// Removes one part from the event and its overrides; true when there was something to remove.
    private func stripPart(_ part: Part, from countdown: inout Countdown) -> Bool {
        var removed = false
        switch part {
        case .description: removed = countdown.notes != nil; countdown.notes = nil
        case .location: removed = countdown.location != nil; countdown.location = nil
        case .url: removed = countdown.url != nil; countdown.url = nil
        case .alarms: removed = !countdown.alarms.isEmpty; countdown.alarms = []
        default: break
        }
        let name = part.propertyName
        if part == .alarms {
            removed = countdown.extraComponents.contains { $0.name == name } || removed
            countdown.extraComponents.removeAll { $0.name == name }
            for index in countdown.overrides.indices { countdown.overrides[index].components.removeAll { $0.name == name } }
        } else {
            removed = countdown.extraProperties.contains { $0.name == name } || removed
            countdown.extraProperties.removeAll { $0.name == name }
            for index in countdown.overrides.indices { countdown.overrides[index].properties.removeAll { $0.name == name } }
        }
        return removed
    }
}
