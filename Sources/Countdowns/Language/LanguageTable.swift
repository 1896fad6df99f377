/// One language's words, as its table in Tables/{code}.json holds them.
/// Patterns put the number where `{n}` (or the whole amount where `{amount}`,
/// a percentage where `{percent}`) stands; a form without `{n}` is a word that
/// says its number itself (Arabic "يومان", two days).
struct LanguageTable: Codable, Sendable, Hashable {
    /// BCP 47: "de", "zh-Hans".
    var code: String
    /// The language's own name for itself ("Deutsch").
    var name: String
    /// The ICU locale dates are formatted in ("de_DE").
    var locale: String
    var rightToLeft: Bool?
    /// CLDR rules for each category the language uses, except `other`, which is what none of them match.
    var plurals: [PluralCategory: String]
    /// Per unit (`day`, `week`, `month`, `year`, `workday`), a pattern per plural category.
    var units: [String: [PluralCategory: String]]
    var today: String
    /// A timed countdown whose start has passed and whose end has not.
    var now: String
    var completed: String
    var cancelled: String
    /// Wraps an amount that lies behind: "{amount} ago", "vor {amount}".
    var ago: String
    /// The unit line under a past count on a card: "{unit} ago".
    var agoLabel: String
    /// "({percent}% done)", after a countdown calendar title.
    var percentDone: String
    /// The parts of a detailed amount: `years`, `months`, `days`, `hours`, `minutes`.
    var detailed: [String: String]
    /// The public feed page's own words, by key (`subscribe`, `footer` …).
    var page: [String: String]
}
