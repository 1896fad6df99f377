import Countdowns
import Foundation
import ICalendar
import Mustache

/// The public HTML page of a feed's countdown cards (template `public-feed`).
/// Numbers are rendered on the server (so it works without JavaScript);
/// /assets/tminus.js recounts them in the viewer's own zone every minute.
/// Subscribe links for every client.
enum FeedPage {
    struct Links {
        var webcal: String
        var https: String
        var google: String
        var countdown: String
        var json: String
    }

    static func links(baseURL: String, path: String) -> Links {
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
    struct Card: MustacheParent {
        var state: String
        var from: String
        var to: String
        var ink: String
        var start: String
        var unit: String
        var live: String
        var image: String?
        var big: String
        var length: String
        var word: String
        var title: String
        var date: String
        var dateLine: String
        var cardPath: String
        var percent: Int?
        var progressLabel: String

        func child(named name: String) -> Any? {
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
    struct More {
        var url: String
        var label: String
    }

    struct View {
        var name: String
        var description: String?
        var links: Links
        var cards: [Card]
        var isEmpty: Bool
        var more: More?
        /// The page's language (`<html lang>`), its direction, and its own words.
        var lang: String
        var dir: String
        var words: [String: String]
        /// The unit words /assets/tminus.js recounts cards with, as JSON.
        var scriptWords: String
    }

    static func render(feed: Feed, rows: [(Countdown, RemainingTime)], links: Links, cardPath: (Countdown) -> String,
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
        for key in ["subscribe", "google", "https", "countdownCalendar", "json", "svgCard", "empty"] { words[key] = language.page(key) }
        words["footer"] = language.page("footer", ["zone": feed.timeZone])
        let scriptWords = language.scriptWordsJSON
        let view = View(name: feed.name, description: feed.description, links: links, cards: cards, isEmpty: cards.isEmpty, more: more,
                        lang: language.code, dir: language.isRightToLeft ? "rtl" : "ltr", words: words, scriptWords: scriptWords)
        return pages.english.library.render(view, withTemplate: "public-feed") ?? ""
    }
}
