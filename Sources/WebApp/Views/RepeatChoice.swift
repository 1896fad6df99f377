/// The countdown form's repeat picker: each choice, its value in the form (what
/// the browser sends back) and the key of its words. One list, read by the
/// picker, the form's reading of a countdown and its reading of a submitted form.
package enum RepeatChoice: String, CaseIterable, Sendable {
    case none, daily, weekly, monthly, yearly
    /// Every N days, weeks, months or years.
    case every
    /// The Nth weekday of the month ("2 tuesday", "last friday").
    case nth
    case lastDay = "lastday"
    case chinese = "yearly chinese"
    case hebrew = "yearly hebrew"
    case islamic = "yearly islamic"
    /// A rule written by hand (RRULE).
    case custom

    /// The key of its label in the words (`repeat.chinese`).
    package var wordKey: String {
        switch self {
        case .chinese: "repeat.chinese"
        case .hebrew: "repeat.hebrew"
        case .islamic: "repeat.islamic"
        default: "repeat.\(rawValue)"
        }
    }

    /// The choice for a simple repeat phrase ("weekly"), when there is one.
    package static func simple(everyOne unit: String) -> RepeatChoice? {
        ["day": .daily, "week": .weekly, "month": .monthly, "year": .yearly][unit]
    }
}
