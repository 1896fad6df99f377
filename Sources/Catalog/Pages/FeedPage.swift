import Countdowns
import Foundation
import ICalendar
import Mustache
import Pages

/// The public HTML page of a feed's countdown cards (template `public-feed`).
/// Numbers are rendered on the server (so it works without JavaScript);
/// /assets/tminus.js recounts them in the viewer's own zone every minute.
/// Subscribe links for every client.
package enum FeedPage {
    package struct Links {
        package var webcal: String
        package var https: String
        package var google: String
        package var countdown: String
        package var json: String
    }

    package static func links(baseURL: String, path: String) -> Links {
        let https = baseURL + path + ".ics"
        let webcal = https.replacingOccurrences(of: "https://", with: "webcal://").replacingOccurrences(of: "http://", with: "webcal://")
        let google = "https://calendar.google.com/calendar/render?cid=" + (webcal.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? webcal)
        return Links(webcal: webcal, https: https, google: google, countdown: baseURL + path + "/countdown.ics", json: baseURL + path + ".json")
    }

    /// One card as the template reads it. Looked up by name (`MustacheParent`),
    /// not through Mirror: Mustache's Mirror lookup reflects the whole card for
    /// every tag, and a 300-card page took 190 ms to render that way (release
    /// build, idle machine), so a feed edited a few times a second kept the page
    /// rendering and pushed the soak test's p99 past 250 ms.
    package struct Card: MustacheParent {
        package var state: String
        package var from: String
        package var to: String
        package var ink: String
        package var start: String
        package var unit: String
        package var live: String
        package var image: String?
        package var big: String
        package var length: String
        package var word: String
        package var title: String
        package var date: String
        package var dateLine: String
        package var cardPath: String
        package var percent: Int?
        package var progressLabel: String

        package func child(named name: String) -> Any? {
            switch name {
            case "state": state
            case "from": from
            case "to": to
            case "ink": ink
            case "start": start
            case "unit": unit
            case "live": live
            case "image": image
            case "big": big
            case "length": length
            case "word": word
            case "title": title
            case "date": date
            case "dateLine": dateLine
            case "cardPath": cardPath
            case "percent": percent
            case "progressLabel": progressLabel
            default: nil
            }
        }
    }

    /// The link to the next cards, on a feed longer than one page.
    package struct More {
        package var url: String
        package var label: String
    }

    package struct View {
        package var name: String
        package var description: String?
        package var links: Links
        package var cards: [Card]
        package var isEmpty: Bool
        package var more: More?
        /// The categories the link builder suggests.
        package var categories: [String]
        /// The page's language (`<html lang>`), its direction, and its own words.
        package var lang: String
        package var dir: String
        package var words: [String: String]
        /// The unit words /assets/tminus.js recounts cards with, as JSON.
        package var scriptWords: String
    }

    /// The link builder's words (issue #39).
    static let tuneWords = ["tuneLink", "tuneCategories", "tuneExclude", "tuneFrom", "tuneTo", "tunePast", "tuneZone", "tuneRollover",
                            "tuneReminders", "tuneRemindersFeed", "tuneRemindersNone", "tuneRemindersDay", "tuneRemindersHour", "tuneResult", "tuneHint"]

    package static func render(feed: Feed, rows: [(Countdown, RemainingTime)], links: Links, cardPath: (Countdown) -> String,
                       imageURL: (String) -> String?, pages: WebPages, language: Language = .english, more: More? = nil) -> String {
        let cards = rows.map { countdown, remaining in
            let face = CardFace(countdown: countdown, remaining: remaining, language: language)
            return Card(state: remaining.state.rawValue, from: face.gradient.0, to: face.gradient.1, ink: face.textColor,
                        start: remaining.occurrence?.isoStart ?? remaining.date.iso, unit: remaining.unit.rawValue,
                        live: countdown.status == .active && !remaining.isCountingUp ? "1" : "0",
                        image: countdown.presentation.image.flatMap(imageURL), big: face.big, length: face.length.rawValue, word: face.unit,
                        title: face.title, date: remaining.date.iso, dateLine: face.dateLine, cardPath: cardPath(countdown),
                        percent: face.percent, progressLabel: language.page("progress", ["percent": String(face.percent ?? 0)]))
        }
        var words: [String: String] = [:]
        for key in ["subscribe", "google", "https", "countdownCalendar", "json", "svgCard", "empty"] + Self.tuneWords { words[key] = language.page(key) }
        words["footer"] = language.page("footer", ["zone": feed.timeZone])
        let scriptWords = language.scriptWordsJSON
        // The link builder offers the categories this page shows (lower-cased, as links are read).
        let categories = Array(Set(rows.flatMap { $0.0.categories.map { $0.lowercased() } })).sorted()
        let view = View(name: feed.name, description: feed.description, links: links, cards: cards, isEmpty: cards.isEmpty, more: more, categories: categories,
                        lang: language.code, dir: language.isRightToLeft ? "rtl" : "ltr", words: words, scriptWords: scriptWords)
        return pages.english.library.render(view, withTemplate: "public-feed") ?? ""
    }
}
