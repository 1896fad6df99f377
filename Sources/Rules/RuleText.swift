import Foundation

// The rules as written, in a feed file's YAML or a subscription's rules box;
// `SourceFilter` and `RuleChange` compile them. Strings stay strings until a
// rule reads them, so `no` is never a Bool.

/// `include:` / `exclude:` (`SourceFilter`).
package struct FilterText: Codable, Sendable {
    package var categories: [String]?
    /// Regular expressions (`LinearPattern`) matched against the summary, the description and the location.
    package var summary: String?
    package var description: String?
    package var location: String?
    /// iCalendar STATUS values: tentative, confirmed, cancelled, needs-action, completed, in-process.
    package var status: [String]?
    package var allDay: Bool?
    package var duration: Length?
    /// The days it happens on (`DateWindow`): dates, or days from today (`-7d`, `+365d`).
    package var after: String?
    package var before: String?
    package var from: String?
    package var to: String?

    package struct Length: Codable, Sendable {
        package var atLeast: String?
        package var atMost: String?
    }
}

/// `change:` (`RuleChange`).
package struct ChangeText: Codable, Sendable {
    package struct Replace: Codable, Sendable {
        package var field: String?
        package var pattern: String
        package var with: String?
    }

    package var prefix: String?
    package var suffix: String?
    package var categories: [String]?
    package var addCategories: [String]?
    package var color: String?
    package var strip: [String]?
    package var keep: [String]?
    package var replace: [Replace]?
    package var alarm: String?
}
