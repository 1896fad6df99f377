import ICalendar
import Foundation

/// A language tminus speaks: its words and plural rules (a table in
/// Tables/{code}.json, read once) and the ICU locale dates are formatted in.
/// `Language.english` is the default everywhere; `named` and `negotiate`
/// resolve what a feed setting, `?lang=` or `Accept-Language` asks for.
public struct Language: Sendable, Hashable, CustomStringConvertible {
    let table: LanguageTable
    /// Plural rules in CLDR's order of categories, parsed once.
    let rules: [(PluralCategory, PluralRule)]
    public let locale: Locale
    /// "Tue, 24 Nov 2026" in this locale, in UTC (days are `CivilDate`s); made once.
    let dateStyle: Date.FormatStyle

    public var code: String { table.code }
    public var name: String { table.name }
    public var isRightToLeft: Bool { table.rightToLeft ?? false }
    public var description: String { code }

    public static func == (lhs: Language, rhs: Language) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    init(table: LanguageTable) throws {
        self.table = table
        rules = try PluralCategory.allCases.compactMap { category in
            try table.plurals[category].map { (category, try PluralRule($0)) }
        }
        locale = Locale(identifier: table.locale)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        dateStyle = Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, calendar: calendar, timeZone: calendar.timeZone)
            .weekday(.abbreviated)
    }

    /// Every language shipped, by code; read from the tables on first use.
    public static let all: [Language] = {
        let codes = ["en", "de", "fr", "es", "it", "pt", "nl", "hu", "pl", "ru", "ja", "zh-Hans", "ar"]
        return codes.map { code in
            // Installed (share/tminus) or beside the binary first; else the build folder, which only
            // Bundle.module knows (a copy of a development binary elsewhere, as `make valgrind` runs).
            let folder = ResourceFolder.find("Tables", in: "tminus_Countdowns.resources")
                ?? Bundle.module.url(forResource: "Tables", withExtension: nil)?.path
            guard let folder, let data = FileManager.default.contents(atPath: folder + "/\(code).json") else {
                fatalError("the language table \(code).json is missing: install tminus_Countdowns.resources in /usr/share/tminus or beside the tminus binary")
            }
            do { return try Language(table: JSONDecoder().decode(LanguageTable.self, from: data)) } catch {
                fatalError("the language table \(code).json is broken: \(error)")
            }
        }
    }()

    public static let english = all[0]

    public static var codes: [String] { all.map(\.code) }

    /// A language by BCP 47 tag: "de", "de-AT" and "de_CH" are German;
    /// "zh", "zh-CN" and "zh-Hans-CN" are Simplified Chinese; nil when tminus does not speak it.
    public static func named(_ tag: String) -> Language? {
        let parts = tag.replacingOccurrences(of: "_", with: "-").lowercased().split(separator: "-").map(String.init)
        guard let primary = parts.first, primary.count <= 8 else { return nil }
        if primary == "zh" {
            // Traditional Chinese is not shipped: zh-Hant, zh-TW and zh-HK do not fall back to Simplified.
            let traditional = parts.contains("hant") || parts.contains("tw") || parts.contains("hk") || parts.contains("mo")
            return traditional ? nil : all.first { $0.code == "zh-Hans" }
        }
        return all.first { $0.code == primary }
    }

    /// The best language for an `Accept-Language` header ("de-CH, fr;q=0.8,
    /// en;q=0.5"), by quality; nil when none is spoken. At most 16 entries are read.
    public static func negotiate(_ header: String) -> Language? {
        var ranked: [(quality: Double, order: Int, language: Language)] = []
        for (order, entry) in header.split(separator: ",").prefix(16).enumerated() {
            let fields = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = fields.first, !tag.isEmpty else { continue }
            let quality = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0, let language = named(tag) { ranked.append((quality, order, language)) }
        }
        return ranked.min { ($0.quality, -$0.order) > ($1.quality, -$1.order) }?.language
    }

    // MARK: Words

    /// The CLDR plural category of a whole number.
    public func category(_ n: Int) -> PluralCategory {
        rules.first { $0.1.holds(for: abs(n)) }?.0 ?? .other
    }

    /// The pattern for `n` of `unit` ("day", "week", "month", "year", "workday").
    func pattern(_ unit: String, _ n: Int) -> String {
        let forms = table.units[unit] ?? [:]
        return forms[category(n)] ?? forms[.other] ?? "{n}"
    }

    /// "3 days", "3 Tage", "3日", "يومان". `grouped` writes the number as the
    /// locale groups digits ("1,000 days", "1.000 Tage") instead of plainly.
    public func quantity(_ n: Int, _ unit: DisplayUnit, grouped: Bool = false) -> String {
        pattern(Self.key(unit), n).replacingOccurrences(of: "{n}", with: grouped ? groupedDigits(n) : String(n))
    }

    /// "1 countdown", "5 отсчётов", "عدّان تنازليان": how many countdowns a feed has, for the public index.
    public func countdowns(_ n: Int) -> String {
        pattern("countdown", n).replacingOccurrences(of: "{n}", with: String(n))
    }

    /// "3 times", "3-mal", "3 раза", "مرتان": how often a repeat happens (its COUNT).
    public func times(_ n: Int) -> String {
        pattern("time", n).replacingOccurrences(of: "{n}", with: String(n))
    }

    /// Kept apart from `quantity` so that plain counts never touch Foundation's
    /// number formatting (whose first use valgrind reports inside the Swift runtime).
    private func groupedDigits(_ n: Int) -> String { n.formatted(.number.locale(locale)) }

    /// The unit word for `n` without the number ("days", "Tage", "日"), for a card's unit line.
    public func unitWord(_ n: Int, _ unit: DisplayUnit) -> String {
        pattern(Self.key(unit), n).replacingOccurrences(of: "{n}", with: "").trimmingCharacters(in: .whitespaces)
    }

    static func key(_ unit: DisplayUnit) -> String {
        switch unit {
        case .weeks: "week"
        case .months: "month"
        case .years: "year"
        case .workdays: "workday"
        default: "day"
        }
    }

    public var today: String { table.today }
    public var now: String { table.now }
    public var completed: String { table.completed }
    public var cancelled: String { table.cancelled }

    /// One of the public page's words (`subscribe`, `google`, `https`, `countdownCalendar`,
    /// `json`, `svgCard`, `empty`, `footer`, `progress`), with `{name}` placeholders filled.
    public func page(_ key: String, _ values: [String: String] = [:]) -> String {
        var text = table.page[key] ?? Language.english.table.page[key] ?? key
        for (name, value) in values { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// The unit words a page's script needs to recount cards in the browser:
    /// per unit, the word for each plural category, and "today".
    public var scriptWords: [String: [String: String]] {
        var words: [String: [String: String]] = ["today": ["other": today]]
        for unit in ["day", "week", "month", "year"] {
            words[unit] = Dictionary(uniqueKeysWithValues: (table.units[unit] ?? [:]).map { category, pattern in
                (category.rawValue, Self.capitalized(pattern.replacingOccurrences(of: "{n}", with: "").trimmingCharacters(in: .whitespaces)))
            })
        }
        return words
    }

    /// `scriptWords` as the JSON a page carries in its `data-words` attribute.
    public var scriptWordsJSON: String {
        (try? JSONSerialization.data(withJSONObject: scriptWords, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// "days" → "Days": a card's unit line starts with a capital, in scripts that have them.
    public static func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    public func ago(_ amount: String) -> String { table.ago.replacingOccurrences(of: "{amount}", with: amount) }

    public func agoLabel(_ unit: String) -> String { table.agoLabel.replacingOccurrences(of: "{unit}", with: unit) }

    public func percentDone(_ percent: Int) -> String { table.percentDone.replacingOccurrences(of: "{percent}", with: String(percent)) }

    /// One part of a detailed amount ("2y", "2 J.", "2年"): `part` is years, months, days, hours or minutes.
    func detailedPart(_ n: Int, _ part: String) -> String {
        (table.detailed[part] ?? "{n}").replacingOccurrences(of: "{n}", with: String(n))
    }

    /// "Tue, 24 Nov 2026", "Di., 24. Nov. 2026", "2026年11月24日(火)": a day in this locale.
    public func format(_ date: CivilDate) -> String {
        Date(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400).formatted(dateStyle)
    }
}
