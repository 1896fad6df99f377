import Countdowns
import Foundation
import ICalendar

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

    /// One card as the template reads it.
    struct Card {
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
    }

    struct View {
        var name: String
        var description: String?
        var links: Links
        var cards: [Card]
        var isEmpty: Bool
        var timeZone: String
    }

    static func render(feed: Feed, rows: [(Countdown, RemainingTime)], links: Links, cardPath: (Countdown) -> String,
                       imageURL: (String) -> String?, pages: WebPages) -> String {
        let cards = rows.map { countdown, remaining in
            let face = CardFace(countdown: countdown, remaining: remaining)
            return Card(state: remaining.state.rawValue, from: face.gradient.0, to: face.gradient.1, ink: face.textColor,
                        start: remaining.occurrence?.isoStart ?? remaining.date.iso, unit: remaining.unit.rawValue,
                        live: countdown.status == .active && !remaining.isCountingUp ? "1" : "0",
                        image: countdown.presentation.image.flatMap(imageURL), big: face.big, length: face.length.rawValue, word: face.unit,
                        title: face.title, date: remaining.date.iso, dateLine: face.dateLine, cardPath: cardPath(countdown),
                        percent: face.percent)
        }
        let view = View(name: feed.name, description: feed.description, links: links, cards: cards, isEmpty: cards.isEmpty, timeZone: feed.timeZone)
        return pages.library.render(view, withTemplate: "public-feed") ?? ""
    }
}
