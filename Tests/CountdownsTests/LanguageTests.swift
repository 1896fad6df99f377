import Foundation
import Testing
import TestSupport
import ICalendar
@testable import Countdowns

/// The languages tminus speaks: CLDR plural categories (checked against
/// babel), words for every category a language uses, and how a tag or an
/// Accept-Language header picks a language.
struct LanguageTests {
    /// 0 to 200, and the millions where French, Spanish, Italian and Portuguese switch to "many".
    static let numbers = Array(0...200) + [1_000, 1_000_000, 2_000_000, 1_000_001]

    @Test(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
    func pluralCategoriesMatchBabel() async throws {
        let script = Corpus.packageRoot.appendingPathComponent("Tests/interop/plural_check.py").path
        let answer = try await PythonChecker.run(["languages": Language.codes, "numbers": Self.numbers], script: script)
        for language in Language.all {
            let babel = try #require(answer[language.code] as? [String], "babel knows \(language.code)")
            let ours = Self.numbers.map { language.category($0).rawValue }
            let differences = zip(Self.numbers, zip(ours, babel)).filter { $1.0 != $1.1 }.prefix(5).map { "\($0): tminus \($1.0), babel \($1.1)" }
            #expect(differences.isEmpty, "\(language.code): \(differences.joined(separator: "; "))")
        }
    }

    @Test func thirteenLanguagesShip() {
        #expect(Language.codes == ["en", "de", "fr", "es", "it", "pt", "nl", "hu", "pl", "ru", "ja", "zh-Hans", "ar"])
        #expect(Language.all.filter(\.isRightToLeft).map(\.code) == ["ar"])
    }

    /// Each category a language's rules produce has its own form of every unit, so no
    /// count falls back to another category's word.
    @Test func everyCategoryHasEveryUnit() {
        for language in Language.all {
            let used = Set(Self.numbers.map(language.category))
            for unit in ["day", "week", "month", "year", "workday", "countdown", "time"] {
                let forms = language.table.units[unit] ?? [:]
                #expect(used.isSubset(of: Set(forms.keys)), "\(language.code) \(unit) lacks \(used.subtracting(forms.keys))")
            }
            for key in ["subscribe", "google", "https", "countdownCalendar", "json", "svgCard", "empty", "footer", "progress", "calendarName",
                        "calendarDescription", "calendarReduced", "calendarFull", "calendarMilestones", "calendarTargetDay", "calendarLeftOut",
                        "indexTagline", "indexEmpty", "indexApp"] {
                #expect(language.table.page[key] != nil, "\(language.code) page lacks \(key)")
            }
        }
    }

    /// The public index counts each feed's countdowns in the viewer's language.
    @Test(arguments: [("en", 1, "1 countdown"), ("en", 4, "4 countdowns"), ("ru", 2, "2 отсчёта"), ("ru", 5, "5 отсчётов"),
                      ("pl", 22, "22 odliczania"), ("pl", 25, "25 odliczań"), ("ar", 2, "عدّان تنازليان"), ("ja", 3, "カウントダウン 3件")])
    func countdownsAreCountedInEachLanguage(code: String, n: Int, text: String) throws {
        #expect(try #require(Language.named(code)).countdowns(n) == text)
    }

    @Test(arguments: [
        ("pl", 1, "1 dzień"), ("pl", 2, "2 dni"), ("pl", 5, "5 dni"), ("pl", 22, "22 dni"),
        ("pl", 3, "3 miesiące"), ("pl", 12, "12 miesięcy"), ("pl", 22, "22 miesiące"), ("pl", 25, "25 miesięcy"),
        ("ru", 1, "1 день"), ("ru", 3, "3 дня"), ("ru", 11, "11 дней"), ("ru", 21, "21 день"), ("ru", 112, "112 дней"),
        ("ar", 0, "0 يوم"), ("ar", 1, "يوم واحد"), ("ar", 2, "يومان"), ("ar", 3, "3 أيام"), ("ar", 11, "11 يومًا"), ("ar", 100, "100 يوم"),
        ("ja", 1, "1日"), ("ja", 30, "30日"), ("zh-Hans", 2, "2天"),
        ("fr", 0, "0 jour"), ("fr", 2, "2 jours"), ("pt", 0, "0 dia"), ("de", 1, "1 Tag"), ("de", 0, "0 Tage"), ("hu", 5, "5 nap"),
    ])
    func daysFollowThePluralRules(code: String, count: Int, expected: String) throws {
        let language = try #require(Language.named(code))
        let unit: DisplayUnit = expected.contains("mies") ? .months : .days
        #expect(language.quantity(count, unit) == expected)
    }

    @Test func textsOnACardSayTodayAgoAndCompleted() throws {
        let german = try #require(Language.named("de"))
        let breakdown = Breakdown(years: 0, months: 0, days: 4, hours: 0, minutes: 0)
        #expect(DisplayText.render(state: .past, status: .active, unit: .days, amount: 4, breakdown: breakdown, timed: false, countingUp: false,
                                   language: german) == "4 Tage her")
        #expect(DisplayText.render(state: .today, status: .active, unit: .days, amount: 0, breakdown: breakdown, timed: false, countingUp: false,
                                   language: german) == "Heute")
        #expect(DisplayText.render(state: .upcoming, status: .completed, unit: .days, amount: 4, breakdown: breakdown, timed: false, countingUp: false,
                                   language: try #require(Language.named("ru"))) == "Завершено")
        #expect(DisplayText.detailed(Breakdown(years: 1, months: 2, days: 3, hours: 4, minutes: 0), timed: true, language: try #require(Language.named("ja")))
            == "1年 2か月 3日 4時間")
        #expect(try #require(Language.named("de")).quantity(1000, .days, grouped: true) == "1.000 Tage")
        #expect(Language.english.quantity(1000, .days, grouped: true) == "1,000 days")
    }

    @Test func datesFollowTheLocale() throws {
        let day = CivilDate(year: 2026, month: 11, day: 24)
        #expect(try #require(Language.named("de")).format(day).contains("24. Nov"))
        #expect(try #require(Language.named("ja")).format(day).contains("2026年11月24日"))
        #expect(try #require(Language.named("fr")).format(day).contains("24 nov"))
    }

    @Test(arguments: [
        ("de", "de"), ("de-AT", "de"), ("DE_ch", "de"), ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"),
        ("pt-BR", "pt"), ("ar-EG", "ar"), ("en-US", "en"),
    ])
    func tagsNameALanguage(tag: String, code: String) {
        #expect(Language.named(tag)?.code == code)
    }

    @Test func unknownTagsAndTraditionalChineseNameNone() {
        for tag in ["xx", "zh-Hant", "zh-TW", "", "klingon-for-ever-and-ever"] { #expect(Language.named(tag) == nil, "\(tag)") }
    }

    @Test func acceptLanguageIsReadByQuality() {
        #expect(Language.negotiate("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")?.code == "fr")
        #expect(Language.negotiate("sv-SE, de;q=0.5, en;q=0.4")?.code == "de", "the first one tminus speaks")
        #expect(Language.negotiate("en;q=0.3, ru")?.code == "ru", "quality, not order")
        #expect(Language.negotiate("de;q=0, sv") == nil, "q=0 means not this one")
        #expect(Language.negotiate("") == nil)
    }
}
