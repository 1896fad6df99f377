import Countdowns
import Foundation

/// A source's include/exclude rules on categories and on a summary pattern.
struct SourceFilter: Sendable {
    var includeCategories: Set<String>?
    var includeSummary: String?
    var excludeCategories: Set<String>
    var excludeSummary: String?

    struct InvalidPattern: Error, CustomStringConvertible {
        var pattern: String
        var description: String { "summary pattern '\(pattern)' is not a valid regular expression" }
    }

    init(include: FeedDefinition.Filter?, exclude: FeedDefinition.Filter?) throws {
        includeCategories = include?.categories.map { Set($0.map { $0.lowercased() }) }
        excludeCategories = Set((exclude?.categories ?? []).map { $0.lowercased() })
        includeSummary = include?.summary
        excludeSummary = exclude?.summary
        for pattern in [includeSummary, excludeSummary].compactMap({ $0 }) {
            guard (try? NSRegularExpression(pattern: pattern)) != nil else { throw InvalidPattern(pattern: pattern) }
        }
    }

    /// Keeps everything (sources added from the web app have no filter).
    static let none = SourceFilter()

    private init() {
        includeCategories = nil
        excludeCategories = []
    }

    var isEmpty: Bool { includeCategories == nil && includeSummary == nil && excludeCategories.isEmpty && excludeSummary == nil }

    func accepts(_ countdown: Countdown) -> Bool {
        let categories = Set(countdown.categories.map { $0.lowercased() })
        if let include = includeCategories, include.isDisjoint(with: categories) { return false }
        if let pattern = includeSummary, !Self.matches(pattern, countdown.title) { return false }
        if !excludeCategories.isDisjoint(with: categories) { return false }
        if let pattern = excludeSummary, Self.matches(pattern, countdown.title) { return false }
        return true
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
