import Countdowns
import Foundation

/// A source's include/exclude rules: on categories, and patterns on the
/// summary, the description and the location. An `include` keeps a countdown
/// only when each of its conditions holds; an `exclude` drops it when any does.
///
/// Patterns are `LinearPattern`s, compiled once when the feed file is loaded
/// and matched in time linear in the text: a pattern like `(a+)+$` against a
/// long title took a backtracking engine exponential time (issue #26).
struct SourceFilter: Sendable {
    /// One `include:` or `exclude:` block, checked and compiled.
    struct Conditions: Sendable {
        var categories: Set<String>?
        var summary: LinearPattern?
        var description: LinearPattern?
        var location: LinearPattern?

        init(_ filter: FeedDefinition.Filter?) throws {
            categories = filter?.categories.map { Set($0.map { $0.lowercased() }) }
            func compile(_ pattern: String?, _ field: String) throws -> LinearPattern? {
                guard let pattern else { return nil }
                do { return try LinearPattern(pattern) } catch let invalid as LinearPattern.Invalid {
                    throw InvalidPattern(field: field, pattern: pattern, reason: invalid.reason)
                }
            }
            summary = try compile(filter?.summary, "summary")
            description = try compile(filter?.description, "description")
            location = try compile(filter?.location, "location")
        }

        var isEmpty: Bool { categories == nil && summary == nil && description == nil && location == nil }

        /// The result of each condition given, in order.
        func results(_ countdown: Countdown, categories lowered: Set<String>) -> [Bool] {
            var results: [Bool] = []
            if let categories { results.append(!categories.isDisjoint(with: lowered)) }
            if let summary { results.append(summary.matches(countdown.title)) }
            if let description { results.append(countdown.notes.map(description.matches) ?? false) }
            if let location { results.append(countdown.location.map(location.matches) ?? false) }
            return results
        }
    }

    struct InvalidPattern: Error, CustomStringConvertible {
        var field: String
        var pattern: String
        var reason: String
        var description: String { "\(field) pattern '\(pattern)' is not usable: \(reason)" }
    }

    var include: Conditions
    var exclude: Conditions

    init(include: FeedDefinition.Filter?, exclude: FeedDefinition.Filter?) throws {
        self.include = try Conditions(include)
        self.exclude = try Conditions(exclude)
    }

    /// Keeps everything (sources added from the web app have no filter).
    static let none = try! SourceFilter(include: nil, exclude: nil)

    var isEmpty: Bool { include.isEmpty && exclude.isEmpty }

    func accepts(_ countdown: Countdown) -> Bool {
        let categories = Set(countdown.categories.map { $0.lowercased() })
        guard include.results(countdown, categories: categories).allSatisfy({ $0 }) else { return false }
        return !exclude.results(countdown, categories: categories).contains(true)
    }
}
