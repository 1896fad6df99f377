import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Rules
import Services
import Yams

/// One file in `feeds/`: a feed and where its countdowns come from. YAML is
/// decoded into these typed fields, so a string like `no` stays a string.
package struct FeedDefinition: Decodable, Sendable {
    package typealias Filter = FilterText
    package typealias Change = ChangeText

    /// `rules:` of the whole feed: applied after each source's own, then duplicates are settled.
    package struct Rules: Codable, Sendable {
        package var include: Filter?
        package var exclude: Filter?
        package var change: Change?
        package var dedupe: Dedupe?
    }

    /// `dedupe:` — `by: uid | title-and-start`, and the sources in the order they win.
    package struct Dedupe: Codable, Sendable {
        package var by: String?
        package var prefer: [String]?
    }

    package struct Source: Decodable, Sendable {
        /// A local calendar, relative to the definition file.
        package var file: String?
        /// An http(s) calendar (a Google "secret address", a school timetable …).
        package var url: String?
        /// What the dry run and `dedupe.prefer` call it; the file's name or the URL's host by default.
        package var name: String?
        package var include: Filter?
        package var exclude: Filter?
        package var change: Change?
        /// How often a URL source is fetched again (ISO 8601 duration), default PT1H.
        package var refresh: String?
        /// How a URL source logs in; its secrets are named, never written here.
        package var auth: Auth?
    }

    /// `auth:` of a URL source. Each secret comes from a file (`passwordFile`,
    /// `tokenFile`, `file`, relative to the definition) or an environment
    /// variable (`passwordEnv`, `tokenEnv`, `env`); written inline, it is refused.
    package struct Auth: Decodable, Sendable {
        package struct Basic: Decodable, Sendable {
            package var username: String
            package var password: String?
            package var passwordFile: String?
            package var passwordEnv: String?
        }

        package struct Token: Decodable, Sendable {
            package var token: String?
            package var tokenFile: String?
            package var tokenEnv: String?
        }

        package struct Value: Decodable, Sendable {
            package var value: String?
            package var file: String?
            package var env: String?
        }

        package var basic: Basic?
        package var bearer: Token?
        package var headers: [String: Value]?
    }

    /// One `notify:` entry: exactly one of `webhook:`, `ntfy:` or `mqtt:` (a
    /// URL), with its secrets named as a source's are (`NoticeTarget`).
    package struct Notify: Decodable, Sendable {
        package var webhook: String?
        package var ntfy: String?
        package var mqtt: String?
        /// The webhook's HMAC key.
        package var secret: String?
        package var secretFile: String?
        package var secretEnv: String?
        /// ntfy's access token.
        package var token: String?
        package var tokenFile: String?
        package var tokenEnv: String?
        /// The broker's login.
        package var username: String?
        package var password: String?
        package var passwordFile: String?
        package var passwordEnv: String?
        /// `milestones`, `changes` (both by default; an MQTT target keeps sensors instead).
        package var on: [String]?
        /// Days left that are milestones (the feed's `countdown.milestones`, else 7, 3, 1, 0).
        package var milestones: [Int]?
        /// MQTT: the topics' root (`tminus`), and Home Assistant discovery (on, under `homeassistant`).
        package var topic: String?
        package var homeAssistant: Bool?
        package var discoveryPrefix: String?
    }

    package var slug: String?
    /// Name, zone, colour, countdown calendar …: the same document the admin API takes.
    package var settings: FeedSettingsDocument
    package var sources: [Source]?
    package var rules: Rules?
    package var notify: [Notify]?

    package enum CodingKeys: String, CodingKey, CaseIterable { case slug, sources, rules, notify }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        slug = try container.decodeIfPresent(String.self, forKey: .slug)
        sources = try container.decodeIfPresent([Source].self, forKey: .sources)
        rules = try container.decodeIfPresent(Rules.self, forKey: .rules)
        notify = try container.decodeIfPresent([Notify].self, forKey: .notify)
        settings = try FeedSettingsDocument(from: decoder)
    }
}

/// A definition checked and resolved against its file's location.
package struct LoadedFeedDefinition: Sendable {
    package struct Source: Sendable {
        package var location: String
        package var isURL: Bool
        package var refresh: TimeInterval
        /// The source's rules, then the feed's.
        package var rules: SourceRules
        /// How a URL source logs in (`auth:`), nil for none.
        package var credentials: SourceCredentials? = nil
        /// What the dry run and `dedupe.prefer` call it.
        package var name: String = ""
        /// Which of the feed's sources keeps an event several carry (nil with one source).
        package var duplicates: DuplicatePolicy? = nil
        /// A digest of the rules as written (the source's and the feed's, as
        /// sorted JSON; a subscription's text): kept with each import
        /// (`importedWith`), and when the rules differ from those, the source is
        /// fetched again in full, since a 304 would keep the old rules' result.
        package var rulesFingerprint = ""
        /// Why it is not fetched: a subscription whose stored rules no longer
        /// compile is reported as failing, never imported without its rules.
        package var problem: String? = nil
    }

    package var file: String
    package var feed: Feed
    package var sources: [Source]
    /// Old spellings that still work, to log.
    package var warnings: [String] = []
    /// Where the feed's notices go (`notify:`).
    package var notices: [NoticeTarget] = []
    /// Feeds this file makes for itself: `holidays: https://…` becomes a private
    /// feed `{slug}-holidays` with that URL as its source.
    package var companions: [LoadedFeedDefinition] = []
}

package struct FeedDefinitionError: Error, CustomStringConvertible {
    package var file: String
    package var message: String
    /// The line the problem is on, when one line is to blame (from 1).
    package var line: Int? = nil
    /// `feeds/school.yaml:3: `souces` is not a feed setting; did you mean `sources`?`
    package var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}

package enum FeedDefinitionLoader {
    /// Every `*.yaml` / `*.yml` in the folder, sorted; one bad file is reported, not fatal.
    package static func load(directory: URL) -> (definitions: [LoadedFeedDefinition], errors: [FeedDefinitionError]) {
        let files = ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { ["yaml", "yml"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        var definitions: [LoadedFeedDefinition] = []
        var errors: [FeedDefinitionError] = []
        for file in files {
            do {
                let definition = try load(file: file)
                definitions.append(definition)
                definitions += definition.companions
            } catch let error as FeedDefinitionError { errors.append(error) } catch {
                errors.append(FeedDefinitionError(file: file.path, message: "\(error)"))
            }
        }
        var seen = Set<String>()
        definitions = definitions.filter { definition in
            if seen.insert(definition.feed.slug).inserted { return true }
            errors.append(FeedDefinitionError(file: definition.file, message: "slug '\(definition.feed.slug)' is already defined by another file"))
            return false
        }
        return (definitions, errors)
    }

    package static func load(file: URL) throws -> LoadedFeedDefinition {
        try load(text: try String(contentsOf: file, encoding: .utf8), file: file)
    }

    /// Reads a definition from its text; `file` names it in errors and anchors `file:` sources.
    package static func load(text: String, file: URL) throws -> LoadedFeedDefinition {
        let path = file.path
        func fail(_ message: String) -> FeedDefinitionError { FeedDefinitionError(file: path, message: message) }
        let raw: FeedDefinition
        do {
            // Composed with a ceiling first: a file of nested aliases could otherwise take the server's memory.
            let node = try BoundedYAML.compose(text) ?? ""
            if let unknown = FeedDefinition.keys.firstUnknownKey(in: node) {
                throw FeedDefinitionError(file: path, message: unknown.description, line: unknown.line)
            }
            raw = try YAMLDecoder().decode(FeedDefinition.self, from: node)
        } catch let error as FeedDefinitionError {
            throw error
        } catch {
            throw fail("not a valid feed definition: \(error)")
        }
        let slug = raw.slug ?? file.deletingPathExtension().lastPathComponent
        guard Feed.isValidSlug(slug) else { throw fail("slug '\(slug)' must be lower-case letters, digits and dashes") }
        var feed = Feed(slug: slug)
        var settings = raw.settings
        var companions: [LoadedFeedDefinition] = []
        if let holidays = settings.holidays, let url = URL(string: holidays), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            // A holiday calendar by address: fetched and refreshed like any URL source, in a feed of its own.
            let companion = slug + "-holidays"
            guard Feed.isValidSlug(companion) else { throw fail("holidays: the feed made for '\(holidays)' needs a shorter slug than '\(slug)'") }
            var holidayFeed = Feed(slug: companion, name: (settings.name ?? slug) + " — holidays", timeZone: "UTC", isPublic: false)
            holidayFeed.description = "Days off for \(slug), from \(holidays) (made by feeds/\(file.lastPathComponent))"
            companions.append(LoadedFeedDefinition(file: path, feed: holidayFeed, sources: [
                .init(location: holidays, isURL: true, refresh: 86_400, rules: .none, name: "holidays"),
            ]))
            settings.holidays = companion
        }
        do { try settings.apply(to: &feed) } catch { throw fail(error.message) }
        var sources: [LoadedFeedDefinition.Source] = []
        let feedRules: RuleSet
        do {
            feedRules = RuleSet(label: "rules", filter: try SourceFilter(include: raw.rules?.include, exclude: raw.rules?.exclude),
                                change: try RuleChange(raw.rules?.change))
        } catch { throw fail("rules: \(error)") }
        for (index, source) in (raw.sources ?? []).enumerated() {
            let label = "sources[\(index)]"
            guard (source.file == nil) != (source.url == nil) else { throw fail("\(label) needs exactly one of file: or url:") }
            let every: ICalDuration
            do { every = try Feed.validInterval(source.refresh ?? "PT1H", minimumSeconds: 60) } catch { throw fail("\(label).refresh: \(error.message)") }
            let own: RuleSet
            do {
                own = RuleSet(label: label, filter: try SourceFilter(include: source.include, exclude: source.exclude), change: try RuleChange(source.change))
            } catch { throw fail("\(label): \(error)") }
            let rules = SourceRules(levels: [own, feedRules].filter { !$0.isEmpty })
            let fingerprint = Self.fingerprint(source.include, source.exclude, source.change, raw.rules)
            let name = source.name ?? source.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? source.url.flatMap { URL(string: $0)?.host } ?? label
            if let url = source.url {
                guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else {
                    throw fail("\(label).url '\(url)' is not an http(s) URL")
                }
                // The URL goes to logs, health and the database: a password in it would too.
                guard parsed.user == nil, parsed.password == nil else {
                    throw fail("\(label).url holds a user name or password: give them under auth: (basic: with passwordFile or passwordEnv)")
                }
                let credentials = try source.auth.map { try Self.credentials($0, label: "\(label).auth", file: file, fail: fail) }
                sources.append(.init(location: url, isURL: true, refresh: TimeInterval(every.days * 86_400 + every.seconds), rules: rules,
                                     credentials: credentials, name: name, rulesFingerprint: fingerprint))
            } else if let relative = source.file {
                guard source.auth == nil else { throw fail("\(label).auth is for url: sources") }
                let resolved = URL(fileURLWithPath: relative, relativeTo: file.deletingLastPathComponent()).standardizedFileURL.path
                sources.append(.init(location: resolved, isURL: false, refresh: 0, rules: rules, name: name))
            }
        }
        try Self.settleDuplicates(raw.rules?.dedupe, of: &sources, fail: fail)
        let notices = NoticeTarget.numbered(try (raw.notify ?? []).enumerated().map { index, entry in
            try Self.noticeTarget(entry, label: "notify[\(index)]", feed: feed, file: file, fail: fail)
        })
        let warnings = raw.settings.deprecatedKeys.map { "\(path): '\($0)' is an old spelling; write 'timeZone'" }
        return LoadedFeedDefinition(file: path, feed: feed, sources: sources, warnings: warnings, notices: notices, companions: companions)
    }
}

extension FeedDefinitionLoader {
    /// What a source's rules say, as one digest to compare with the last import's.
    package static func fingerprint(_ include: FeedDefinition.Filter?, _ exclude: FeedDefinition.Filter?, _ change: FeedDefinition.Change?,
                            _ feed: FeedDefinition.Rules?) -> String {
        struct All: Encodable {
            var include: FeedDefinition.Filter?
            var exclude: FeedDefinition.Filter?
            var change: FeedDefinition.Change?
            var feed: FeedDefinition.Rules?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return SHA256Hex.of((try? encoder.encode(All(include: include, exclude: exclude, change: change, feed: feed))) ?? Data())
    }

    /// Gives every source of a feed with several the same `DuplicatePolicy`:
    /// by UID unless `dedupe.by` says otherwise, the sources named in
    /// `dedupe.prefer` first and the rest in file order. Names must be unique
    /// once `prefer` refers to them.
    package static func settleDuplicates(_ dedupe: FeedDefinition.Dedupe?, of sources: inout [LoadedFeedDefinition.Source],
                                 fail: (String) -> FeedDefinitionError) throws {
        let by = dedupe?.by ?? DuplicatePolicy.Key.uid.rawValue
        guard let key = DuplicatePolicy.Key(rawValue: by) else {
            throw fail("rules.dedupe.by '\(by)' is not one of \(DuplicatePolicy.Key.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var order = Array(sources.indices)
        if let prefer = dedupe?.prefer {
            var preferred: [Int] = []
            for name in prefer {
                let matches = sources.indices.filter { sources[$0].name == name }
                guard matches.count == 1 else {
                    throw fail(matches.isEmpty
                        ? "rules.dedupe.prefer: no source is named '\(name)' (sources are named \(sources.map { "'\($0.name)'" }.joined(separator: ", ")); give one a name:)"
                        : "rules.dedupe.prefer: \(matches.count) sources are named '\(name)'; give them different name:s")
                }
                guard !preferred.contains(matches[0]) else { throw fail("rules.dedupe.prefer names '\(name)' twice") }
                preferred.append(matches[0])
            }
            order = preferred + order.filter { !preferred.contains($0) }
        }
        guard sources.count > 1 else { return }
        var decorations: [String: DuplicatePolicy.Decoration] = [:]
        for source in sources {
            let change = source.rules.levels.first { $0.label.hasPrefix("sources[") }?.change
            if change?.prefix != nil || change?.suffix != nil {
                decorations[source.location] = .init(prefix: change?.prefix ?? "", suffix: change?.suffix ?? "")
            }
        }
        let policy = DuplicatePolicy(key: key, preference: order.map { sources[$0].location }, decorations: decorations)
        for index in sources.indices { sources[index].duplicates = policy }
    }

    /// `auth:` checked: one place for each secret, never the secret itself,
    /// and each named file or variable there now (it is read again at each fetch).
    /// The one place a secret is named: a file (relative to the definition)
    /// or an environment variable, checked now; `keys` are its two spellings
    /// in the file. Written inline, it is refused.
    package static func secret(_ inline: String?, file path: String?, env: String?, at place: String, keys: (file: String, env: String), definition file: URL,
                       fail: (String) -> FeedDefinitionError) throws -> SourceCredentials.Secret {
        guard inline == nil else {
            throw fail("\(place): a secret is never written in a feed file; name a file (\(keys.file)) or an environment variable (\(keys.env))")
        }
        let secret: SourceCredentials.Secret
        switch (path, env) {
        case (let path?, nil): secret = .file(URL(fileURLWithPath: path, relativeTo: file.deletingLastPathComponent()).standardizedFileURL.path)
        case (nil, let name?): secret = .environment(name)
        default: throw fail("\(place) needs exactly one of \(keys.file) or \(keys.env)")
        }
        do { _ = try secret.read() } catch { throw fail("\(place): \(error)") }
        return secret
    }

    package static func credentials(_ auth: FeedDefinition.Auth, label: String, file: URL,
                            fail: (String) -> FeedDefinitionError) throws -> SourceCredentials {
        func secret(_ inline: String?, file path: String?, env: String?, at place: String, keys: (file: String, env: String)) throws -> SourceCredentials.Secret {
            try Self.secret(inline, file: path, env: env, at: place, keys: keys, definition: file, fail: fail)
        }
        var credentials = SourceCredentials()
        if let basic = auth.basic {
            guard !basic.username.isEmpty, !basic.username.contains(":"), !basic.username.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                throw fail("\(label).basic.username must be non-empty, without ':' or control characters")
            }
            credentials.basic = .init(username: basic.username,
                                      password: try secret(basic.password, file: basic.passwordFile, env: basic.passwordEnv, at: "\(label).basic",
                                                           keys: ("passwordFile", "passwordEnv")))
        }
        if let bearer = auth.bearer {
            guard auth.basic == nil else { throw fail("\(label): basic: and bearer: both set Authorization; choose one") }
            credentials.bearer = try secret(bearer.token, file: bearer.tokenFile, env: bearer.tokenEnv, at: "\(label).bearer", keys: ("tokenFile", "tokenEnv"))
        }
        // RFC 9110's token characters, what a header name is made of.
        let token = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for (name, value) in (auth.headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(token.contains) else { throw fail("\(label).headers: '\(name)' is not a header name") }
            guard !["host", "content-length", "transfer-encoding", "connection"].contains(name.lowercased()) else {
                throw fail("\(label).headers: \(name) is set by tminus itself")
            }
            credentials.headers.append(.init(name: name, value: try secret(value.value, file: value.file, env: value.env, at: "\(label).headers.\(name)",
                                                                          keys: ("file", "env"))))
        }
        guard credentials != SourceCredentials() else { throw fail("\(label) is empty: give basic:, bearer: or headers:") }
        return credentials
    }
}

extension FeedDefinitionLoader {
    /// A `notify:` entry checked: one URL of a known kind, its secrets named,
    /// its events and milestone days known.
    package static func noticeTarget(_ entry: FeedDefinition.Notify, label: String, feed: Feed, file: URL,
                             fail: (String) -> FeedDefinitionError) throws -> NoticeTarget {
        let given = [("webhook", entry.webhook), ("ntfy", entry.ntfy), ("mqtt", entry.mqtt)].compactMap { key, value in value.map { (key, $0) } }
        guard given.count == 1, let (kind, raw) = given.first else { throw fail("\(label) needs exactly one of webhook:, ntfy: or mqtt:") }
        guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw fail("\(label).\(kind) '\(raw)' is not a URL")
        }
        guard url.user == nil, url.password == nil else { throw fail("\(label).\(kind) holds a login: name its secret instead (passwordFile, tokenFile …)") }
        var events = Set(NoticeTarget.Event.allCases)
        if let on = entry.on {
            events = Set(try on.map { name in
                guard let event = NoticeTarget.Event(rawValue: name) else { throw fail("\(label).on: '\(name)' is not milestones or changes") }
                return event
            })
        }
        var milestones = NoticeTarget.defaultMilestones
        if case .milestones(let marks) = feed.countdownMode { milestones = Set(marks) }
        if let days = entry.milestones {
            guard !days.isEmpty, days.allSatisfy({ (0...3650).contains($0) }) else { throw fail("\(label).milestones: days from 0 to 3650") }
            milestones = Set(days)
        }
        func secret(_ inline: String?, _ path: String?, _ env: String?, _ keys: (String, String)) throws -> SourceCredentials.Secret {
            try Self.secret(inline, file: path, env: env, at: label, keys: (file: keys.0, env: keys.1), definition: file, fail: fail)
        }
        let target: NoticeTarget.Kind
        switch kind {
        case "webhook":
            guard ["http", "https"].contains(scheme) else { throw fail("\(label).webhook must be an http(s) URL") }
            target = .webhook(url: raw, secret: try secret(entry.secret, entry.secretFile, entry.secretEnv, ("secretFile", "secretEnv")))
        case "ntfy":
            guard ["http", "https"].contains(scheme), url.pathComponents.count >= 2 else {
                throw fail("\(label).ntfy must be a topic's http(s) URL, such as https://ntfy.sh/my-countdowns")
            }
            let token = entry.token != nil || entry.tokenFile != nil || entry.tokenEnv != nil
                ? try secret(entry.token, entry.tokenFile, entry.tokenEnv, ("tokenFile", "tokenEnv")) : nil
            target = .ntfy(url: raw, token: token)
        default:
            guard ["mqtt", "mqtts"].contains(scheme) else { throw fail("\(label).mqtt must be an mqtt:// or mqtts:// URL") }
            let password = entry.password != nil || entry.passwordFile != nil || entry.passwordEnv != nil
                ? try secret(entry.password, entry.passwordFile, entry.passwordEnv, ("passwordFile", "passwordEnv")) : nil
            guard password == nil || entry.username != nil else { throw fail("\(label): a broker password needs a username:") }
            let topic = entry.topic ?? "tminus"
            let topicCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/")
            guard !topic.isEmpty, topic.unicodeScalars.allSatisfy(topicCharacters.contains), !topic.hasPrefix("/"), !topic.hasSuffix("/") else {
                throw fail("\(label).topic '\(topic)' must be letters, digits, _, - and inner /")
            }
            let prefix = entry.homeAssistant == false ? nil : (entry.discoveryPrefix ?? "homeassistant")
            if let prefix, prefix.isEmpty || !prefix.unicodeScalars.allSatisfy(topicCharacters.contains) {
                throw fail("\(label).discoveryPrefix '\(prefix)' must be letters, digits, _, - and /")
            }
            target = .mqtt(MQTTSettings(host: host, port: url.port ?? (scheme == "mqtts" ? 8883 : 1883), tls: scheme == "mqtts",
                                        username: entry.username, password: password, topic: topic, discoveryPrefix: prefix))
        }
        return NoticeTarget(kind: target, events: events, milestones: milestones, label: NoticeTarget.label(kind, url))
    }
}

/// Checks the text of a `feeds/*.yaml` definition as the server would load it:
/// nil when it is usable, else the message the server would log. (The fuzz
/// harness calls this; it reads nothing from disk.)
public enum FeedDefinitionCheck {
    public static func problem(in text: String, file: String = "feed.yaml") -> String? {
        do { _ = try FeedDefinitionLoader.load(text: text, file: URL(fileURLWithPath: file)); return nil } catch { return "\(error)" }
    }
}
