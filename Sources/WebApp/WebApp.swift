import Catalog
import Countdowns
import CountdownStore
import Foundation
import HTTPSupport
import Hummingbird
import HummingbirdAuth
import ICalendar
import Logging
import Notices
import Pages
import Services
import Subscriptions

/// The countdown app in the browser, under `/app`: server-rendered pages
/// (Mustache templates) whose forms work without JavaScript; `/app/static/app.js`
/// only adds the live preview and drag and drop. It writes through the same
/// store and catalog as the admin API, so a change shows on the public pages,
/// the calendars and the JSON at once.
package struct WebApp: PartsRoutes, Sendable {
    package let parts: ServerParts
    package let pages: WebPages
    package let csrf: CSRFToken
    package let throttle: SignInThrottle
    /// Wrong second-factor codes per person, from any address and session:
    /// ten an hour (a waiting session used from ten addresses had fifty codes
    /// checked in under a second, issue #59).
    package let codeThrottle = SignInThrottle(limit: 10, window: 3600)
    /// Wrong passwords per login, from any address: ten a minute (40 for one
    /// login from 8 addresses took 21 s, issue #59). Past that the login waits
    /// out the minute; the real person is delayed, never locked out.
    package let loginThrottle = SignInThrottle(limit: 10, window: 60)
    /// Checks of a signed-in person's current password (changing it, turning
    /// the second factor off): five a minute per person.
    package let currentPasswordThrottle = SignInThrottle(limit: 5, window: 60)
    package let trustForwardedFor: Bool
    /// `--open-signup`: anyone may make an account, whatever the setting says.
    package let openSignup: Bool
    /// `--trusted-proxy` and `--user-header`: the proxy signs people in.
    package let proxySignIn: ProxySignIn?

    package init(parts: ServerParts, pages: WebPages, csrf: CSRFToken, throttle: SignInThrottle, trustForwardedFor: Bool, openSignup: Bool = false,
                proxySignIn: ProxySignIn? = nil) {
        self.parts = parts
        self.pages = pages
        self.csrf = csrf
        self.throttle = throttle
        self.trustForwardedFor = trustForwardedFor
        self.openSignup = openSignup
        self.proxySignIn = proxySignIn
    }

    /// Before sign-in, nobody; behind `RequireSignInMiddleware`, the signed-in person.
    package static let principal: Principal = .anonymous
    /// Cookies get `Secure` when the public address is https.
    package var secureCookies: Bool { self.settings.baseURL.lowercased().hasPrefix("https://") }

    package static let sessionLifetime: Duration = .seconds(14 * 86_400)

    package func register(on router: Router<ServerContext>, sessions: any PersistDriver) {
        let app = router.group("app", context: WebAppContext.self)
        let cookie = SessionCookieParameters(name: WebAppContext.sessionCookieName, path: "/app", secure: secureCookies, sameSite: .strict)
        app.add(middleware: SessionMiddleware<WebAppContext>(
            storage: sessions, configuration: .init(sessionCookieParameters: cookie, keyPrefix: "session:", defaultSessionExpiration: Self.sessionLifetime)))
        app.add(middleware: AppLanguageMiddleware())
        if let proxySignIn {
            app.add(middleware: ProxySignInMiddleware(proxy: proxySignIn, service: parts.service.acting(as: .system)))
        }
        app.add(middleware: SessionPersonMiddleware(service: parts.service.acting(as: .system)))
        app.add(middleware: CSRFCookieMiddleware(secure: secureCookies))
        app.add(middleware: WebErrorMiddleware(app: self))
        app.add(middleware: SameOriginMiddleware(baseURL: self.settings.baseURL, pages: pages))
        app.add(middleware: CSRFCheckMiddleware(csrf: csrf, pages: pages, maxMultipartBytes: max(self.maxBodyBytes, self.service.limits.maxImageBytes) + (64 << 10)))
        StaticFiles.register(on: app)
        SignInPages(app: self).register(on: app)
        AccountPages(app: self).register(on: app)
        AppLanguageSwitch(app: self).register(on: app)
        let signedIn = app.group().add(middleware: RequireSignInMiddleware(pages: pages))
        FeedPages(app: self).register(on: signedIn)
        CountdownPages(app: self).register(on: signedIn)
        ImportPage(app: self).register(on: signedIn)
        SourceRulesPage(app: self).register(on: signedIn)
        AgendaPages(app: self).register(on: signedIn)
        FocusPage(app: self).register(on: signedIn)
        AccountSettingsPages(app: self).register(on: signedIn)
        SpacePages(app: self).register(on: signedIn)
        BusyPage(app: self).register(on: signedIn)
        SpaceHistoryPages(app: self).register(on: signedIn)
        PeoplePages(app: self).register(on: signedIn)
    }

    // MARK: helpers every page uses

    /// The words of the request's language (`AppLanguageMiddleware`).
    package func words(_ context: WebAppContext) -> WebWords {
        pages.words(context)
    }

    /// Renders `template` inside the layout in the request's language, with
    /// the flash message shown once. `title` is the page's own part (" — tminus" follows).
    package func render(_ template: String, title: String, section: String = "feeds", _ page: Any, context: WebAppContext,
                status: HTTPResponse.Status = .ok) -> HTMLPage {
        var flash: String?
        var undo: String?
        context.sessions.withLockedSession { data in
            guard data?.flash != nil else { return }
            flash = data?.flash
            undo = data?.undo?.title
            data?.flash = nil
        }
        let chrome = PageContext(title: title, csrf: csrf.token(for: context.csrfCookie, session: context.boundSession), signedIn: context.isSignedIn,
                                 signedInAs: context.person.map { words(context)["layout.signedInAs", ["name": $0.displayName]] },
                                 isAdmin: context.person?.access.isAdmin ?? false, flash: flash, undo: undo, section: section, back: context.path,
                                 languages: LanguageChoice.all(current: context.language), page: page)
        return pages.render(template, chrome, in: pages.localized(context.language), status: status)
    }

    /// A 303 to `location`, with a line for the next page.
    package func redirect(_ location: String, flash: String, context: WebAppContext) -> Response {
        context.sessions.withLockedSession { $0?.flash = flash }
        return .redirect(to: location, type: .normal)
    }

    /// The feed `slug`, compiled, if the signed-in person may read it (else
    /// 404, as for a feed that does not exist).
    package func compiled(_ slug: String, _ context: WebAppContext) async throws -> CompiledFeed {
        guard Feed.isValidSlug(slug) else {
            throw HTTPError(.notFound, message: words(context)["error.noFeed", ["slug": String(slug.prefix(64))]])
        }
        try await service.authorize(.readFeed(slug))
        guard let compiled = try await self.catalog.readable(slug: slug) else {
            throw HTTPError(.notFound, message: words(context)["error.noFeed", ["slug": String(slug.prefix(64))]])
        }
        return compiled
    }

    /// Whether the signed-in person may do `permission`: what a page shows controls for.
    package func allows(_ permission: Permission) async -> Bool {
        (try? await service.authorize(permission)) != nil
    }

    /// The feeds the signed-in person may read, as the catalog last read them.
    package func readableFeeds() async throws -> [StoredFeed] {
        try await service.readable(catalog.storedFeeds)
    }

    /// The feeds the signed-in person may change (where a countdown may move to).
    package func editableFeeds() async throws -> [StoredFeed] {
        try await service.editable(catalog.storedFeeds)
    }

    /// The feed named by the route's `{slug}`.
    package func compiled(_ context: WebAppContext) async throws -> CompiledFeed {
        try await compiled(context.parameters.get("slug") ?? "", context)
    }

    /// Remaining time now in `zone`, its words ("Today", "3 Tage") in `language`.
    package func calculator(_ zone: Zone, language: Language = .english) -> RemainingTimeCalculator {
        RemainingTimeCalculator(now: self.clock(), zone: zone, maxOccurrences: self.settings.maxOccurrences, language: language)
    }

    package func id(_ context: WebAppContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw HTTPError(.notFound, message: words(context)["error.noCountdown"]) }
        return id
    }
}
