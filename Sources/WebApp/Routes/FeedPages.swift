import Catalog
import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import Pages
import Subscriptions

/// The list of feeds (`/app`), one feed's page, and the feed form: create,
/// edit (slug fixed: it is in every subscriber's URL), delete, and tokens for
/// private links (shown once, revocable).
package struct FeedPages: Sendable {
    package let app: WebApp

    package struct FeedsView: TemplateView {
        package struct Row: TemplateView {
            package var slug: String
            package var name: String
            package var count: Int
            package var isPublic: Bool
            package var color: String
            package var tasks: TaskCounts
            package var templateValues: [String: Any] { ["hasOverdue": tasks.overdue > 0, "hasOpenTasks": tasks.open > 0] }
        }
        package var feeds: [Row]
        package var templateValues: [String: Any] { ["isEmpty": feeds.isEmpty] }
    }

    package struct FormView: TemplateView {
        package var form: FeedForm
        package var isNew: Bool
        package var action: String
        package var error: String?
        package var zones: [String]
        /// Where a new feed may go: the person's own, or a space they may add feeds to.
        package var owners: [SpacePages.SpaceView.Choice] = []
        package var templateValues: [String: Any] { ["hasOwners": owners.count > 1] }
    }

    package struct DeleteView {
        package var slug: String
        package var name: String
        package var count: Int
    }

    package struct LabelForm: PostedForm {
        package var csrf: String?
        package var label: String?
    }

    package struct TokenForm: PostedForm {
        package var csrf: String?
        package var label: String?
        package var visibility: String?
    }


    package struct SourceForm: PostedForm {
        package var csrf: String?
        package var location: String?
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("") { request, context in try await self.list(context).response(from: request, context: context) }
        app.get("feeds/new") { request, context in
            let owners = try await self.owners(selected: request.uri.queryParameters.get("space").map { String($0) }, context)
            return self.app.render("feed-form", title: self.app.words(context)["feedForm.new"],
                                   FormView(form: FeedForm(), isNew: true, action: "/app/feeds", zones: TimeZoneChoices.all, owners: owners),
                                   context: context)
        }
        app.post("feeds") { request, context in try await self.create(request, context) }
        app.get("feeds/{slug}") { request, context in try await self.show(context).response(from: request, context: context) }
        app.get("feeds/{slug}/edit") { _, context in
            let compiled = try await self.app.compiled(context)
            // Who may delete the feed may give it to a space, or take it back.
            var owners: [SpacePages.SpaceView.Choice] = []
            if await self.app.allows(.deleteFeed(compiled.slug)) {
                let spaceId = self.app.catalog.stored(slug: compiled.slug)?.spaceId
                let current = try await self.app.service.spaces().first { $0.space.id == spaceId }?.space.slug
                owners = try await self.owners(selected: current, context)
            }
            return self.app.render("feed-form", title: self.app.words(context)["feedForm.editTitle", ["name": compiled.feed.name]],
                                   FormView(form: FeedForm(compiled.feed), isNew: false, action: "/app/feeds/\(compiled.slug)/edit",
                                            zones: TimeZoneChoices.all, owners: owners), context: context)
        }
        app.post("feeds/{slug}/move") { request, context in
            let compiled = try await self.app.compiled(context)
            let form = try await WebForm.decode(FeedForm.self, request, limit: 4 << 10)
            try await self.app.service.moveFeed(compiled.slug, toSpace: form.space.nonEmpty)
            self.app.logger.info("feed moved", metadata: ["feed": "\(compiled.slug)", "space": "\(form.space.nonEmpty ?? "-")"])
            return self.app.redirect("/app/feeds/\(compiled.slug)", flash: self.app.words(context)["flash.feedMoved", ["name": compiled.feed.name]],
                                     context: context)
        }
        app.post("feeds/{slug}/edit") { request, context in try await self.update(request, context) }
        app.get("feeds/{slug}/delete") { _, context in
            let compiled = try await self.app.compiled(context)
            return self.app.render("feed-delete", title: self.app.words(context)["feedDelete.title", ["name": compiled.feed.name]],
                                   DeleteView(slug: compiled.slug, name: compiled.feed.name, count: compiled.series.count), context: context)
        }
        app.post("feeds/{slug}/delete") { request, context in
            let compiled = try await self.app.compiled(context)
            try await self.app.service.deleteFeed(slug: compiled.slug)
            self.app.logger.info("feed deleted", metadata: ["feed": "\(compiled.slug)"])
            return self.app.redirect("/app", flash: self.app.words(context)["flash.feedDeleted", ["name": compiled.feed.name]],
                                     context: context)
        }
        app.post("feeds/{slug}/tokens") { request, context in try await self.createToken(request, context) }
        app.get("feeds/{slug}/export") { _, context in
            // The exported calendar as a download, private feeds included.
            let compiled = try await self.app.compiled(context)
            var download = compiled.exported
            download.contentDisposition = "attachment; filename=\"\(compiled.slug).ics\""
            download.cacheControl = "private, no-store"
            return download
        }
        app.post("feeds/{slug}/refresh") { request, context in
            let compiled = try await self.app.compiled(context)
            try await self.app.sources.refresh(feed: compiled.slug)
            return self.app.redirect("/app/feeds/\(compiled.slug)#sources", flash: self.app.words(context)["flash.fetched"], context: context)
        }
        app.get("feeds/{slug}/rules") { request, context in try await self.rules(context).response(from: request, context: context) }
        app.post("feeds/{slug}/unsubscribe") { request, context in
            let compiled = try await self.app.compiled(context)
            let form = try await WebForm.decode(SourceForm.self, request, limit: 8 << 10)
            try await self.app.sources.unsubscribe(feed: compiled.slug, location: form.location ?? "")
            return self.app.redirect("/app/feeds/\(compiled.slug)#sources", flash: self.app.words(context)["flash.unsubscribed"], context: context)
        }
        app.post("feeds/{slug}/tokens/{id}/revoke") { request, context in
            let compiled = try await self.app.compiled(context)
            let id = try self.app.id(context)
            try await self.app.service.revokeFeedToken(feed: compiled.slug, id: id)
            return self.app.redirect("/app/feeds/\(compiled.slug)#tokens", flash: self.app.words(context)["flash.revoked"], context: context)
        }
    }

    private func list(_ context: WebAppContext) async throws -> HTMLPage {
        // Names and counts come from the catalog; open tasks from the feeds compiled for it (`feedsToSum`).
        let feeds = try await app.readableFeeds()
        let compiled = Dictionary(await app.catalog.feedsToSum(of: feeds).feeds.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = feeds.map { stored in
            let tasks = compiled[stored.feed.slug].map { compiled in
                TaskCounts(rows: FeedSnapshot.rows(compiled.series, calculator: app.calculator(compiled.feed.zone)), now: app.clock())
            }
            return FeedsView.Row(slug: stored.feed.slug, name: stored.feed.name, count: stored.countdownCount, isPublic: stored.feed.isPublic,
                                 color: stored.feed.color ?? "#8E8E93", tasks: tasks ?? TaskCounts())
        }
        return app.render("feeds", title: app.words(context)["nav.feeds"], FeedsView(feeds: rows), context: context)
    }

    package func view(_ compiled: CompiledFeed, newToken: FeedView.NewToken? = nil, words: WebWords) async throws -> FeedView {
        let calculator = app.calculator(compiled.feed.zone, language: words.language)
        let rows = FeedSnapshot.rows(compiled.series, calculator: calculator)
        let base = app.settings.baseURL
        let links = FeedPage.links(baseURL: base, path: "/feeds/\(compiled.slug)")
        let slug = compiled.slug
        // A space's feed is several people's: each countdown says who added it.
        let shared = app.catalog.stored(slug: slug)?.spaceId != nil
        let tokens = try await app.service.feedTokens(feed: slug)
        let sources = try await app.service.sources(feed: slug)
        let subscriptions = try await app.service.subscriptions(feed: slug)
        let urlSources = Set(app.loader.urlSources.filter { $0.feed == compiled.slug }.map(\.source.location))
        let sourceRows = sources.map { source in
            let subscription = subscriptions.first { $0.location == source.location }
            // A source of the feed file has its rules there; a subscription has them here.
            let ownRules = subscription != nil && !app.loader.isDefined(feed: slug, location: source.location)
            return FeedView.SourceRow(location: source.location, isURL: urlSources.contains(source.location), subscribed: subscription != nil,
                                      lastSuccess: source.lastSuccessAt.map(AppDates.text) ?? words["common.never"], lastError: source.lastError,
                                      rulesLink: ownRules ? "/app/feeds/\(slug)/sources/rules?location="
                                          + (source.location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") : nil,
                                      hasRules: subscription?.rules != nil)
        }
        var shown: [FeedView.Link] = []
        if compiled.feed.isPublic {
            shown = [.init(label: words["feed.linkHTTPS"], url: links.https), .init(label: words["feed.linkCountdown"], url: links.countdown),
                     .init(label: words["feed.linkJSON"], url: links.json), .init(label: words["feed.linkPage"], url: base + "/feeds/\(compiled.slug)")]
        }
        var view = FeedView(slug: compiled.slug, name: compiled.feed.name, description: compiled.feed.description, timeZone: compiled.feed.timeZone,
                        isPublic: compiled.feed.isPublic, color: compiled.feed.color ?? "#8E8E93", links: shown,
                        webcal: compiled.feed.isPublic ? links.webcal : nil, google: compiled.feed.isPublic ? links.google : nil,
                        qr: compiled.feed.isPublic ? QRCode.svg(for: links.webcal, label: words["feed.qrFeed", ["name": compiled.feed.name]]) : nil,
                        countdowns: rows.map { CountdownRow(countdown: $0.0, remaining: $0.1, imageURL: { app.settings.imageURL($0) }, words: words,
                                                            showAddedBy: shared) },
                        tokens: tokens.map { FeedView.TokenRow($0, words) }, sources: sourceRows,
                        notices: FeedView.NoticeRow.rows(feed: slug, notices: app.notices,
                                                         targets: app.loader.noticeTargets.first { $0.slug == slug }?.targets ?? [], words: words),
                        hasURLSources: !urlSources.isEmpty, newToken: newToken, tasks: TaskCounts(rows: rows, now: calculator.now),
                        budgetWarnings: try await OutputBudget.measure(compiled, renderer: app.renderer).warnings,
                        canEdit: await app.allows(.editFeed(slug)), canManageSources: await app.allows(.manageSources(slug)),
                        canDelete: await app.allows(.deleteFeed(slug)))
        if app.loader.undefinedFeeds.contains(slug) { view.fileRemoved = [slug] }
        view.undated = try await app.service.undatedTasks(feed: slug).map { FeedView.UndatedTask(title: $0.title, saved: AppDates.text($0.savedAt)) }
        return view
    }

    /// The rules' preview: what `tminus rules test` prints, as a page.
    private func rules(_ context: WebAppContext) async throws -> HTMLPage {
        let compiled = try await app.compiled(context)
        let words = app.words(context)
        var view = RulesView(slug: compiled.slug, name: compiled.feed.name)
        do {
            let report = try await app.sources.previewRules(feed: compiled.slug)
            if report.sources.isEmpty { view.problem = words["rules.noSources"] } else { view.fill(report, words) }
        } catch {
            view.problem = "\(error)"
        }
        return app.render("rules", title: words["rules.title", ["name": compiled.feed.name]], view, context: context)
    }

    private func show(_ context: WebAppContext) async throws -> HTMLPage {
        let compiled = try await app.compiled(context)
        return app.render("feed", title: compiled.feed.name, try await view(compiled, words: app.words(context)), context: context)
    }

    private func create(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let form = try await WebForm.decode(FeedForm.self, request, limit: 16 << 10)
        let slug = (form.slug.nonEmpty ?? Slug.make(from: form.name ?? "")).lowercased()
        let words = app.words(context)
        func failed(_ message: String) async throws -> Response {
            let owners = try await owners(selected: form.space, context)
            return try app.render("feed-form", title: words["feedForm.new"],
                                  FormView(form: form, isNew: true, action: "/app/feeds", error: message, zones: TimeZoneChoices.all, owners: owners),
                                  context: context, status: .unprocessableContent).response(from: request, context: context)
        }
        guard Feed.isValidSlug(slug) else { return try await failed(words["feedForm.badSlug", ["slug": String(slug.prefix(64))]]) }
        var feed = Feed(slug: slug)
        do { try form.document(words).apply(to: &feed) } catch { return try await failed(Self.text(of: error, words)) }
        do {
            try await app.service.createFeed(feed, inSpace: form.space.nonEmpty)
        } catch let error as StoreError where error == .feedExists(slug) { return try await failed(words["feedForm.exists", ["slug": slug]]) }
        app.logger.info("feed created", metadata: ["feed": "\(slug)"])
        return app.redirect("/app/feeds/\(slug)", flash: words["flash.feedCreated", ["name": feed.name]], context: context)
    }

    /// "Me" and the spaces the person may add feeds to, for a new feed's "Belongs to".
    private func owners(selected: String?, _ context: WebAppContext) async throws -> [SpacePages.SpaceView.Choice] {
        var choices = [SpacePages.SpaceView.Choice(value: "", label: app.words(context)["feedForm.personal"], selected: selected.nonEmpty == nil)]
        for (space, role) in try await app.service.spaces() where role == .owner || role == .editor || context.person?.access.isAdmin == true {
            choices.append(.init(value: space.slug, label: space.name, selected: space.slug == selected))
        }
        return choices
    }

    private func update(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let compiled = try await app.compiled(context)
        var form = try await WebForm.decode(FeedForm.self, request, limit: 16 << 10)
        form.slug = compiled.slug
        var feed = compiled.feed
        let words = app.words(context)
        do { try form.document(words).apply(to: &feed) } catch {
            return try app.render("feed-form", title: words["feedForm.editTitle", ["name": compiled.feed.name]],
                                  FormView(form: form, isNew: false, action: "/app/feeds/\(compiled.slug)/edit", error: Self.text(of: error, words),
                                           zones: TimeZoneChoices.all), context: context, status: .unprocessableContent).response(from: request, context: context)
        }
        try await app.service.saveFeed(feed)
        return app.redirect("/app/feeds/\(compiled.slug)", flash: words["flash.feedSaved"], context: context)
    }

    private func createToken(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let compiled = try await app.compiled(context)
        let words = app.words(context)
        let form = try await WebForm.decode(TokenForm.self, request, limit: 4 << 10)
        let label = String(SafeText.clean(form.label.nonEmpty ?? "link").prefix(80))
        let visibility = try Visibility(naming: form.visibility.nonEmpty)
        let (secret, _) = try await app.service.createFeedToken(feed: compiled.slug, label: label, visibility: visibility)
        let path = "/t/\(secret)/feeds/\(compiled.slug)"
        let links = FeedPage.links(baseURL: app.settings.baseURL, path: path)
        let made = FeedView.NewToken(label: label, https: links.https, webcal: links.webcal, page: app.settings.baseURL + path,
                                     qr: QRCode.svg(for: links.webcal, label: words["feed.qrToken", ["label": label]]))
        app.logger.info("feed token created", metadata: ["feed": "\(compiled.slug)", "visibility": "\(visibility.rawValue)"])
        return try app.render("feed", title: compiled.feed.name, try await view(compiled, newToken: made, words: words), context: context,
                              status: .created).response(from: request, context: context)
    }

    /// A refused setting as the feed form shows it, in the page's language; a
    /// reason only the model names (in English, as the API prints it) as written.
    package static func text(of error: Feed.InvalidSetting, _ words: WebWords) -> String {
        switch error.reason {
        case .unknownZone(let text): words["setting.unknownZone", ["text": String(text.prefix(64))]]
        case .notAColor(let text): words["setting.notAColor", ["text": String(text.prefix(40))]]
        case .maxEventsRange(let value): words["setting.maxEventsRange", ["value": String(value)]]
        case .daysRange(let value): words["setting.daysRange", ["value": String(value)]]
        case .milestonesRange: words["setting.milestonesRange"]
        case .holidays(let text): words["setting.holidays", ["text": String(text.prefix(64))]]
        case .celebrateRange: words["setting.celebrateRange"]
        case .categoryName: words["setting.categoryName"]
        case .other: error.message
        }
    }
}

/// A feed slug from a name: "Family birthdays!" → "family-birthdays".
package enum Slug {
    package static func make(from name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        var slug = ""
        for scalar in folded.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) { slug.unicodeScalars.append(scalar) }
            else if !slug.isEmpty, !slug.hasSuffix("-") { slug += "-" }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return String(slug.prefix(64))
    }
}

/// The zones the forms offer: the system's zone list (the same names `Zone.named` accepts).
package enum TimeZoneChoices {
    package static let all: [String] = TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") || $0 == "UTC" }.sorted()
}
