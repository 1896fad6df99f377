import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// Issue #26: categories get colours that are told apart, legible on the light
/// and the dark page, and a colour the user set always wins.
struct CategoryPaletteTests {
    /// WCAG 2.1 relative luminance and contrast ratio.
    static func contrast(_ a: String, _ b: String) -> Double {
        func linear(_ channel: Int) -> Double {
            let value = Double(channel) / 255
            return value <= 0.03928 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        func luminance(_ hex: String) -> Double {
            let value = Int(hex.dropFirst(), radix: 16)!
            let red: Double = linear((value >> 16) & 255), green: Double = linear((value >> 8) & 255), blue: Double = linear(value & 255)
            return 0.2126 * red + 0.7152 * green + 0.0722 * blue
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test(arguments: CategoryPalette.colors + [CategoryPalette.uncategorised])
    func everyColourIsLegibleOnTheLightAndTheDarkPage(_ color: String) {
        for background in ["#FFFFFF", "#121214", "#1E1E22"] {
            #expect(Self.contrast(color, background) >= 3, "\(color) on \(background): \(Self.contrast(color, background))")
        }
    }

    @Test func theColoursAreAllDifferent() {
        #expect(Set(CategoryPalette.colors).count == CategoryPalette.colors.count)
        #expect(!CategoryPalette.colors.contains(CategoryPalette.uncategorised))
    }

    /// The bug: a hash of the name into eight colours made Bill and Birthday
    /// both purple, and Exam and Holiday the same green as Uncategorised.
    @Test func billAndBirthdayAreNoLongerBothPurple() {
        let names = ["Bill", "Birthday", "Exam", "Holiday", "Travel", "Work"]
        let colors = CategoryPalette.assign(names, set: [:])
        #expect(Set(names.compactMap { colors[$0] }).count == names.count)
        #expect(!colors.values.contains(CategoryPalette.uncategorised))
    }

    @Test func aColourTheUserSetWinsAndIsNotGivenToAnother() {
        let mine = CategoryPalette.colors[0]
        let colors = CategoryPalette.assign(["Alpha", "Beta", "Gamma"], set: ["Gamma": mine.lowercased()])
        #expect(colors["Gamma"] == mine.lowercased())
        #expect(colors["Alpha"] != mine && colors["Beta"] != mine && colors["Alpha"] != colors["Beta"])
    }

    @Test func pastTwelveNamesThePaletteStartsAgain() {
        let names = (1...14).map { "Category \($0)" }
        let colors = CategoryPalette.assign(names, set: [:])
        #expect(Set(names.prefix(12).compactMap { colors[$0] }).count == 12)
        #expect(colors["Category 13"] != nil && colors["Category 14"] != colors["Category 13"])
    }

    /// The statistics page and the timeline colour a category alike.
    @Test func statisticsAndTimelineAgree() throws {
        let zone = try #require(Zone.named("Europe/Berlin"))
        let now = Date(timeIntervalSince1970: 1_795_338_000)
        func countdown(_ uid: String, _ category: String, day: Int) -> CountdownSeries {
            var countdown = Countdown(uid: uid, title: uid, target: .date(CivilDate(year: 2026, month: 11, day: day)))
            countdown.categories = [category]
            return CountdownSeries(countdown, preparedAt: now, floatingZone: zone, maxOccurrences: 100)
        }
        let feeds = [Agenda.FeedSeries(slug: "home", name: "Home", color: nil, categoryColors: ["Work": "#123456"],
                                       series: [countdown("bill", "Bill", day: 23), countdown("birthday", "Birthday", day: 24),
                                                countdown("work", "Work", day: 25)])]
        let statistics = CategoryStatistics(feeds: feeds, span: CategoryStatistics.Span(.month, containing: CivilDate(year: 2026, month: 11, day: 1)),
                                            zone: zone, now: now)
        let agenda = Agenda(feeds: feeds, from: CivilDate(year: 2026, month: 11, day: 22), dayCount: 7, zone: zone, now: now)
        var byTitle: [String: String] = [:]
        for entry in agenda.days.flatMap(\.entries) where byTitle[entry.title] == nil { byTitle[entry.title] = entry.color }
        for category in statistics.categories {
            let title = category.name == "Bill" ? "bill" : category.name == "Birthday" ? "birthday" : "work"
            #expect(byTitle[title] == category.color, "\(category.name)")
        }
        #expect(byTitle["work"] == "#123456")
        #expect(byTitle["bill"] != byTitle["birthday"])
    }
}
