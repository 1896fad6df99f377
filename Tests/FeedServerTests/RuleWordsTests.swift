import Countdowns
import Foundation
import ICalendar
import Pages
import ServerTestSupport
import Testing
import WebApp

/// Issue #40: an imported repeat reads as words in the app, in each language,
/// for the rules people have; any other rule is shown as written.
struct RuleWordsTests {
    static func words(_ code: String) throws -> WebWords {
        let folder = try #require(WebPages.resourceFolder("Words"))
        let english = try WebWords.load(.english, from: folder, over: nil)
        return code == "en" ? english : try WebWords.load(try #require(Language.named(code)), from: folder, over: english)
    }

    @Test(arguments: [
        ("FREQ=WEEKLY;BYDAY=WE;UNTIL=20270616T130000Z", "every Wednesday until 16 June 2027"),
        ("FREQ=WEEKLY;BYDAY=MO,FR", "every Monday and Friday"),
        ("FREQ=WEEKLY;BYDAY=FR,MO,WE", "every Monday, Wednesday and Friday"),
        ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday (Monday to Friday)"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "every 2 weeks on Tuesday"),
        ("FREQ=DAILY;INTERVAL=3;COUNT=10", "every 3 days, 10 times"),
        ("FREQ=WEEKLY;COUNT=1", "Every week, 1 time"),
        ("FREQ=MONTHLY;BYDAY=2TU", "second Tuesday of the month"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "last Friday of the month"),
        ("FREQ=MONTHLY;INTERVAL=3;BYDAY=1MO", "first Monday, every 3 months"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15", "every month on day 1 and 15"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "The last day of every month"),
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "the last of Monday, Tuesday, Wednesday, Thursday and Friday in each month"),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "fourth Thursday of November"),
        ("FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=16", "every year on 16 June"),
    ])
    func aRuleInEnglish(rule: String, said: String) throws {
        #expect(RuleWords.text(written: rule, try Self.words("en")) == said)
    }

    @Test(arguments: [
        ("de", "FREQ=WEEKLY;BYDAY=WE;UNTIL=20270616T130000Z", "jeden Mittwoch bis 16. Juni 2027"),
        ("ru", "FREQ=WEEKLY;INTERVAL=2", "раз в 2 недели"),
        ("ru", "FREQ=DAILY;COUNT=5", "Каждый день, 5 раз"),
        ("ja", "FREQ=WEEKLY;BYDAY=MO,FR", "毎週月曜日、金曜日"),
        ("ar", "FREQ=DAILY;COUNT=2", "كل يوم، مرتان"),
    ])
    func aRuleInOtherLanguages(code: String, rule: String, said: String) throws {
        #expect(RuleWords.text(written: rule, try Self.words(code)) == said)
    }

    /// Hours, week numbers and other calendars are left as written: no half-true sentence.
    @Test func aRuleOutsideTheWordsIsShownAsWritten() throws {
        let english = try Self.words("en")
        for rule in ["FREQ=DAILY;BYHOUR=9,17", "FREQ=YEARLY;BYWEEKNO=20", "FREQ=MONTHLY;BYDAY=5MO", "RSCALE=HEBREW;FREQ=YEARLY"] {
            #expect(RuleWords.text(written: rule, english) == rule)
        }
    }

    /// The form reads a custom rule aloud as it is typed: in the page's
    /// language where the words cover it, else in English, naming every part.
    @Test func theFormsReadingSpeaksThePagesLanguageWhereItCan() throws {
        let start = CivilDate(year: 2027, month: 1, day: 6)
        #expect(RuleWords.reading("FREQ=WEEKLY;BYDAY=WE", startingOn: start, try Self.words("de")) == "Jeden Mittwoch")
        #expect(RuleWords.reading("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR", startingOn: start, try Self.words("en")) == "Every 2 weeks on Monday and Friday")
        #expect(RuleWords.reading("FREQ=DAILY;BYHOUR=9", startingOn: start, try Self.words("de")).hasPrefix("Every day"))
        #expect(RuleWords.reading("FREQ=WEEKLY;BYDAY=XX", startingOn: start, try Self.words("de")).contains("BYDAY=XX: XX is not a weekday"))
    }
}
