import Countdowns
import Hummingbird

/// The language a request is answered in: `?lang=` (a language tminus does not
/// speak is a 400, so a typo is seen), then the feed's `language:`, then, for
/// pages and cards only, the browser's `Accept-Language`; English otherwise.
/// The result is one of `Language.all`, so it can be part of a cache key.
package enum ViewerLanguage {
    package static func resolve(_ request: Request, feed: Feed, negotiating: Bool) throws -> Language {
        try resolve(request, feedLanguage: feed.language, negotiating: negotiating)
    }

    /// The same for a page of no one feed (the index): `?lang=`, then `Accept-Language` when negotiating.
    package static func resolve(_ request: Request, feedLanguage: Language?, negotiating: Bool) throws -> Language {
        if let raw = request.uri.queryParameters.get("lang") {
            guard raw.utf8.count <= 35, let language = Language.named(raw) else {
                throw HTTPError(.badRequest, message: "lang must be one of \(Language.codes.joined(separator: ", "))")
            }
            return language
        }
        if let language = feedLanguage { return language }
        if negotiating, let header = request.headers[.acceptLanguage], let language = Language.negotiate(String(header.prefix(512))) {
            return language
        }
        return .english
    }
}
