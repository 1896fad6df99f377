import Countdowns
import CountdownStore
import Foundation
import Mustache
import Pages

/// `/`: the public feeds, each with its subscribe links (template `public-index`),
/// in the viewer's language (`?lang=`, else `Accept-Language`).
package enum IndexPage {
    /// One feed as the template reads it, looked up by name (`MustacheParent`)
    /// rather than through Mirror: with 600 feeds, the Mirror lookups made
    /// rendering the index most of the cost of creating a feed (issue #27).
    package struct Entry: MustacheParent {
        package var slug: String
        package var name: String
        /// "3 countdowns", "3 отсчёта".
        package var count: String
        package var webcal: String
        package var https: String

        package func child(named name: String) -> Any? {
            switch name {
            case "slug": slug
            case "name": self.name
            case "count": count
            case "webcal": webcal
            case "https": https
            default: nil
            }
        }
    }

    package struct View {
        package var feeds: [Entry]
        package var isEmpty: Bool
        package var lang: String
        package var dir: String
        package var tagline: String
        package var subscribe: String
        package var empty: String
        /// The way in to the web app, where feeds are made and managed.
        package var app: String
    }

    package static func render(feeds: [(feed: Feed, count: Int, links: FeedPage.Links)], pages: WebPages, language: Language) -> String {
        let entries = feeds.map { Entry(slug: $0.feed.slug, name: $0.feed.name, count: language.countdowns($0.count),
                                        webcal: $0.links.webcal, https: $0.links.https) }
        let view = View(feeds: entries, isEmpty: entries.isEmpty, lang: language.code, dir: language.isRightToLeft ? "rtl" : "ltr",
                        tagline: language.page("indexTagline"), subscribe: language.page("subscribe"), empty: language.page("indexEmpty"),
                        app: language.page("indexApp"))
        return pages.english.library.render(view, withTemplate: "public-index") ?? ""
    }

    /// The page as served, for the public feeds among `feeds`; Last-Modified is their latest change.
    package static func representation(of feeds: [StoredFeed], settings: RenderSettings, language: Language) -> Representation {
        let shown = feeds.filter(\.feed.isPublic)
        let html = render(feeds: shown.map { ($0.feed, $0.countdownCount, FeedPage.links(baseURL: settings.baseURL, path: "/feeds/\($0.feed.slug)")) },
                          pages: settings.pages, language: language)
        return Representation(bytes: Array(html.utf8), contentType: "text/html; charset=utf-8",
                              lastModified: shown.map(\.updatedAt).max() ?? Date(timeIntervalSince1970: 0),
                              cacheControl: "public, max-age=60", extraHeaders: PageHeaders.page)
    }
}
