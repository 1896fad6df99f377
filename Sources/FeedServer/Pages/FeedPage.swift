import Countdowns
import Foundation
import ICalendar

/// The HTML page of a feed's countdown cards. Numbers are rendered on the
/// server (so it works without JavaScript); /assets/tminus.js recounts them in
/// the viewer's own zone every minute. Subscribe links for every client.
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

    static func render(feed: Feed, rows: [(Countdown, RemainingTime)], links: Links, cardPath: (Countdown) -> String,
                       imageURL: (String) -> String?) -> String {
        var cards = ""
        for (countdown, remaining) in rows {
            let face = CardFace(countdown: countdown, remaining: remaining)
            let start = remaining.occurrence?.isoStart ?? remaining.date.iso
            let image = countdown.presentation.image.flatMap(imageURL).map { "<img class=\"photo\" src=\"\(HTMLEscape.text($0))\" alt=\"\">" } ?? ""
            cards += """
                <article class="card state-\(remaining.state.rawValue)" style="--from:\(face.gradient.0);--to:\(face.gradient.1);--ink:\(face.textColor)" data-start="\(start)" data-unit="\(remaining.unit.rawValue)" data-live="\(countdown.status == .active && !remaining.isCountingUp ? "1" : "0")">
                <div class="circle">\(image)<span class="number">\(HTMLEscape.text(face.big))</span><span class="unit">\(HTMLEscape.text(face.unit))</span></div>
                <h2>\(HTMLEscape.text(face.title))</h2>
                <time datetime="\(remaining.date.iso)">\(HTMLEscape.text(face.dateLine))</time>
                <a class="svg" href="\(HTMLEscape.text(cardPath(countdown)))">SVG card</a>
                </article>

                """
        }
        if rows.isEmpty { cards = "<p class=\"empty\">No countdowns in this feed yet.</p>" }
        let head = "<link rel=\"alternate\" type=\"text/calendar\" title=\"\(HTMLEscape.text(feed.name))\" href=\"\(HTMLEscape.text(links.https))\">\n"
        return HTMLDocument.render(title: "\(feed.name) — tminus", head: head, body: """
            <header>
            <p class="crumbs"><a href="/">tminus</a></p>
            <h1>\(HTMLEscape.text(feed.name))</h1>
            \(feed.description.map { "<p class=\"description\">\(HTMLEscape.text($0))</p>" } ?? "")
            <nav class="subscribe" aria-label="Subscribe">
            <a class="button" href="\(HTMLEscape.text(links.webcal))">Subscribe (webcal)</a>
            <a class="button" href="\(HTMLEscape.text(links.google))">Add to Google Calendar</a>
            <a class="button secondary" href="\(HTMLEscape.text(links.https))">https link</a>
            <a class="button secondary" href="\(HTMLEscape.text(links.countdown))">Countdown calendar</a>
            <a class="button secondary" href="\(HTMLEscape.text(links.json))">JSON</a>
            </nav>
            </header>
            <main class="cards">
            \(cards)</main>
            <footer>Times in \(HTMLEscape.text(feed.timeZone)) until your browser recounts them in yours.</footer>
            <script src="/assets/tminus.js" defer></script>

            """)
    }
}
