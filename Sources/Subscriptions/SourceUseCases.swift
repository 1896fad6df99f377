import CountdownStore
import Foundation
import Rules
import Services

/// The use cases of a feed's sources, written once for the admin API and the
/// web app: import an address (and keep fetching it), import a file through
/// rules, fetch a feed's sources now, change a subscription's rules, stop one.
/// Each runs as the service's principal (`CountdownService.acting(as:)`);
/// what a commit changed reaches the server through the service's events,
/// so no handler refreshes or reloads anything.
package struct SourceUseCases: Sendable {
    package let service: CountdownService
    package let loader: FeedLoader
    package let fetcher: CalendarFetcher
    package let secrets: SecretKeeper?

    package init(service: CountdownService, loader: FeedLoader, fetcher: CalendarFetcher, secrets: SecretKeeper?) {
        self.service = service
        self.loader = loader
        self.fetcher = fetcher
        self.secrets = secrets
    }

    /// Why a source's use case was refused; nothing was changed. Each caller words it its own way.
    package enum Refusal: Error, CustomStringConvertible {
        /// The address is one of the feed file's sources: it is changed there.
        case definedInFile(feed: String, location: String)
        /// The feed does not keep fetching that address.
        case notSubscribed(feed: String, location: String)
        case invalidRules(SubscriptionRules.Invalid)
        case remote(RemoteCalendar.Refusal)
        /// The feed's rules were previewed often just now: each preview fetches its sources.
        case previewedTooOften(feed: String, wait: Int)

        package var description: String {
            switch self {
            case .definedInFile(let feed, let location): "\(location) is a source of feed '\(feed)' in its feed file; change it there"
            case .notSubscribed(let feed, let location): "feed '\(feed)' does not keep fetching \(location.prefix(300))"
            case .invalidRules(let invalid): "rules: \(invalid.description)"
            case .remote(let refusal): refusal.description
            case .previewedTooOften(let feed, let wait):
                "the rules of feed '\(feed)' were previewed several times just now (each preview fetches its sources): try again in \(wait) s"
            }
        }
    }

    /// An address as someone typed it, with the login to fetch it with.
    package struct Address: Sendable {
        package var url: String
        package var username: String?
        package var password: String?
        package var token: String?

        package init(url: String, username: String? = nil, password: String? = nil, token: String? = nil) {
            self.url = url
            self.username = username
            self.password = password
            self.token = token
        }
    }

    /// Rules as they are kept, or the refusal naming the key.
    package static func checked(_ rules: String?) throws(Refusal) -> SubscriptionRules.Checked? {
        do { return try SubscriptionRules.checked(rules) } catch { throw .invalidRules(error) }
    }

    /// Fetches `address` once with its login and imports it into `slug`
    /// through `rules`; with `keep`, the feed keeps fetching it (its login
    /// sealed for that feed and address), in the same transaction as the import.
    package func importAddress(_ address: Address, intoFeed slug: String, rules text: String?, strict: Bool, keep: Bool) async throws -> ImportReport {
        // Fetching reaches the network: for administrators and space owners.
        try await service.authorize(.manageSources(slug))
        if keep, loader.isDefined(feed: slug, location: address.url) { throw Refusal.definedInFile(feed: slug, location: address.url) }
        let rules = try Self.checked(text)
        let bytes: [UInt8]
        let sealed: String?
        do {
            let remote = try RemoteCalendar(url: address.url, username: address.username, password: address.password, token: address.token)
            // A login kept with the subscription is sealed before it leaves this function.
            sealed = keep ? try remote.sealedLogin(secrets, feed: slug) : nil
            bytes = try await remote.fetch(with: fetcher)
        } catch {
            throw Refusal.remote(error)
        }
        var options = ImportOptions(strict: strict, source: address.url, sync: keep, createFeed: false)
        let (apply, importedWith) = await loader.importRules(feed: slug, location: address.url, given: rules)
        options.rules = apply
        guard keep else { return try await service.importCalendar(bytes, intoFeed: slug, options: options) }
        return try await service.importAndSubscribe(bytes, intoFeed: slug, options: options, location: address.url, login: sealed, rules: rules?.text,
                                                    importedWith: importedWith)
    }

    /// Imports a file someone uploaded into `slug` through `rules`.
    package func importFile(_ bytes: [UInt8], intoFeed slug: String, rules text: String?, strict: Bool) async throws -> ImportReport {
        let rules = try Self.checked(text)
        var options = ImportOptions(strict: strict, source: nil, sync: false, createFeed: false)
        options.rules = await loader.importRules(feed: slug, location: nil, given: rules).apply
        return try await service.importCalendar(bytes, intoFeed: slug, options: options)
    }

    /// What the feed's rules do to each event of its sources, fetched now
    /// (`tminus rules test`); nothing is imported. Fetching reaches the network
    /// with the sources' kept logins: for those who may manage the sources, a
    /// few times a minute per feed.
    package func previewRules(feed slug: String) async throws -> RulesDryRun.Report {
        try await service.authorize(.manageSources(slug))
        if let wait = loader.rulesPreviews.admit(feed: slug, now: service.clock()) { throw Refusal.previewedTooOften(feed: slug, wait: wait) }
        return try await RulesDryRun.run(feed: slug, loader: loader, fetcher: fetcher)
    }

    /// Fetches every URL source of `slug` now (conditional GET), then brings the feeds up to what was fetched.
    package func refresh(feed slug: String) async throws {
        try await service.authorize(.editFeed(slug))
        for (feed, source) in loader.urlSources where feed == slug { await loader.refresh(feed: feed, source: source) }
        await service.events.published(.committed)
    }

    /// The feed's subscription to `location`, or the refusal that says why there is none.
    package func subscription(feed slug: String, location: String) async throws -> SourceSubscription {
        try await service.authorize(.readFeed(slug))
        switch try await loader.rulesHome(feed: slug, location: location) {
        case .subscription(let subscription): return subscription
        case .feedFile: throw Refusal.definedInFile(feed: slug, location: location)
        case .none: throw Refusal.notSubscribed(feed: slug, location: location)
        }
    }

    /// New rules for a subscription (nil or empty: none); its source is then fetched again, in full, before this returns.
    package func changeRules(feed slug: String, location: String, rules text: String?) async throws -> SubscriptionRules.Checked? {
        _ = try await subscription(feed: slug, location: location)
        let rules = try Self.checked(text)
        guard try await service.setSubscriptionRules(feed: slug, location: location, rules: rules?.text) else {
            throw Refusal.notSubscribed(feed: slug, location: location)
        }
        return rules
    }

    /// Stops fetching `location` (what it brought stays).
    package func unsubscribe(feed slug: String, location: String) async throws {
        _ = try await subscription(feed: slug, location: location)
        try await service.unsubscribe(feed: slug, location: location)
    }
}
