import Countdowns
import Foundation
import ICalendar

/// The include/exclude half of a rule set. An `include` keeps an event only
/// when each of its conditions holds; an `exclude` drops it when any does.
///
/// Conditions: categories; patterns on the summary, the description and the
/// location; the status; all-day or timed; the length; the days it happens on
/// (`DateWindow`). Patterns are `LinearPattern`s, compiled once when the feed
/// file is loaded and matched in time linear in the text: a pattern like
/// `(a+)+$` against a long title took a backtracking engine exponential time
/// (issue #26).
package struct SourceFilter: Sendable {
    /// One `include:` or `exclude:` block, checked and compiled.
    package struct Conditions: Sendable {
        package var categories: Set<String>?
        package var summary: LinearPattern?
        package var description: LinearPattern?
        package var location: LinearPattern?
        /// iCalendar STATUS values, lower case (`EventStatus`).
        package var status: Set<String>?
        package var allDay: Bool?
        /// The shortest and longest length, in seconds.
        package var atLeast: Int?
        package var atMost: Int?
        package var window: DateWindow?

        package init(_ filter: FilterText?) throws {
            categories = filter?.categories.map { Set($0.map { $0.lowercased() }) }
            summary = try Self.compile(filter?.summary, "summary")
            description = try Self.compile(filter?.description, "description")
            location = try Self.compile(filter?.location, "location")
            if let statuses = filter?.status {
                let lowered = statuses.map { $0.lowercased() }
                if let unknown = lowered.first(where: { !EventStatus.names.contains($0) }) {
                    throw Invalid(description: "status '\(unknown)' is not one of \(EventStatus.names.sorted().joined(separator: ", "))")
                }
                status = Set(lowered)
            }
            allDay = filter?.allDay
            if let length = filter?.duration {
                func seconds(_ raw: String?, _ key: String) throws -> Int? {
                    guard let raw else { return nil }
                    guard let duration = ICalDuration(parsing: raw), !duration.isNegative else {
                        throw Invalid(description: "duration.\(key): '\(raw)' is not a duration such as PT30M or P1D")
                    }
                    return duration.days * 86_400 + duration.seconds
                }
                atLeast = try seconds(length.atLeast, "atLeast")
                atMost = try seconds(length.atMost, "atMost")
                guard atLeast != nil || atMost != nil else { throw Invalid(description: "duration: needs atLeast:, atMost: or both") }
            }
            do {
                window = try DateWindow(after: filter?.after, before: filter?.before, from: filter?.from, to: filter?.to)
            } catch { throw Invalid(description: "\(error)") }
        }

        package static func compile(_ pattern: String?, _ field: String) throws -> LinearPattern? {
            guard let pattern else { return nil }
            do { return try LinearPattern(pattern) } catch let invalid as LinearPattern.Invalid {
                throw Invalid(description: "\(field) pattern '\(pattern)' is not usable: \(invalid.reason)")
            }
        }

        package var isEmpty: Bool { conditions.isEmpty }

        /// Each condition given, by the key it was written under, in order.
        package var conditions: [String] {
            var names: [String] = []
            if categories != nil { names.append("categories") }
            if summary != nil { names.append("summary") }
            if description != nil { names.append("description") }
            if location != nil { names.append("location") }
            if status != nil { names.append("status") }
            if allDay != nil { names.append("allDay") }
            if atLeast != nil || atMost != nil { names.append("duration") }
            if let window { names.append(window.keys) }
            return names
        }

        /// The first condition that holds (`wanted: true`) or fails (`false`), by its key.
        /// Patterns check `budget` as they read (a long description stops when it is spent).
        package func first(_ wanted: Bool, for countdown: Countdown, in context: RuleContext, budget: WorkBudget) throws(WorkBudget.Exhausted) -> String? {
            lazy var lowered = Set(countdown.categories.map { $0.lowercased() })
            let check = { () throws(WorkBudget.Exhausted) in try budget.check() }
            if let categories, categories.isDisjoint(with: lowered) != wanted { return "categories" }
            if let summary, try summary.matches(countdown.title, check: check) == wanted { return "summary" }
            if let description, (try countdown.notes.map { text throws(WorkBudget.Exhausted) in try description.matches(text, check: check) } ?? false) == wanted {
                return "description"
            }
            if let location, (try countdown.location.map { text throws(WorkBudget.Exhausted) in try location.matches(text, check: check) } ?? false) == wanted {
                return "location"
            }
            if let status, status.contains(EventStatus.of(countdown)) == wanted { return "status" }
            if let allDay, (countdown.isAllDay == allDay) == wanted { return "allDay" }
            if atLeast != nil || atMost != nil {
                let length = EventLength.seconds(of: countdown)
                if (length >= (atLeast ?? 0) && length <= (atMost ?? .max)) == wanted { return "duration" }
            }
            if let window, window.contains(countdown, in: context) == wanted { return window.keys }
            return nil
        }
    }

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    package var include: Conditions
    package var exclude: Conditions

    package init(include: FilterText?, exclude: FilterText?) throws {
        self.include = try Conditions(include)
        self.exclude = try Conditions(exclude)
    }

    /// Keeps everything.
    package static let none = try! SourceFilter(include: nil, exclude: nil)

    package var isEmpty: Bool { include.isEmpty && exclude.isEmpty }

    /// Why the filter drops `countdown` ("include.location", "exclude.status"), or nil when it keeps it.
    package func rejection(of countdown: Countdown, in context: RuleContext, budget: WorkBudget) throws(WorkBudget.Exhausted) -> String? {
        if let failed = try include.first(false, for: countdown, in: context, budget: budget) { return "include.\(failed)" }
        if let held = try exclude.first(true, for: countdown, in: context, budget: budget) { return "exclude.\(held)" }
        return nil
    }
}
