import Catalog
import Countdowns
import CountdownStore
import Foundation
import HTTPSupport
import Rules
import StoreFactory
import Subscriptions

/// Everything `tminus serve` is told; tests build one directly.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// `--db`: a SQLite file, or a PostgreSQL shared by several replicas.
    public var database: DatabaseLocation
    /// The `feeds/` folder of definitions; nil serves only what the database holds.
    public var feedsDirectory: String?
    /// A file holding the admin bearer token; when nil, one is generated next to
    /// the SQLite file (on PostgreSQL: the one the database already holds, or a
    /// new one in the working directory).
    public var adminTokenFile: String?
    /// The key that seals logins saved in the web app (`SecretBox`): default
    /// `tminus-secrets-key` beside the SQLite file, made when the first is saved.
    public var secretsKeyFile: String?
    /// Public origin for links (https://countdowns.example.org); default http://host:port.
    public var baseURL: String?
    /// Largest request body accepted (imports), in bytes.
    public var maxBodyBytes: Int
    /// Fetch URL sources in the background.
    public var refreshSources: Bool
    /// Offer gzip to clients that ask for it. Off by default: some Outlook versions choke on it.
    public var gzip: Bool
    /// Byte budget of the cache of clock-dependent renders (JSON, pages, cards,
    /// countdown calendars); compiled feeds come on top.
    public var cacheBytes: Int
    /// Byte budget of the compiled feeds kept in memory (least recently read
    /// first out; the feed read last always stays, whatever its size).
    public var compiledBytes: Int = 128 << 20
    /// Disk for kept exports as files, which a miss of a feed not in memory
    /// reads instead of the store's row (`KeptExportFiles`); 0 turns them off
    /// (the default here, for tests; `tminus serve` gives 1 GB).
    public var exportFilesBytes = 0
    /// Where their folder goes; nil: beside the SQLite database
    /// (`DB.exports`), and none on PostgreSQL (files off: the temporary
    /// folder may be memory).
    public var exportFilesDirectory: String?
    /// Feeds with at least this many countdowns answer a first `.json` page
    /// read by place while not compiled (`FirstPage`, issue #41); a smaller
    /// one compiles in about as long as the read takes.
    public var placedReadFrom = 1_000
    /// How often the store is asked whether another process changed a feed.
    public var pollInterval: Duration = .seconds(1)
    /// Timeouts and the connection limit.
    public var connections = ConnectionLimits()
    /// Let URL sources and URL imports reach loopback, private and link-local
    /// addresses (a home network's calendar server). Off: such fetches are refused.
    public var allowPrivateSources = false
    /// Behind a reverse proxy: the web app's sign-in throttle keys on the last
    /// address of X-Forwarded-For (the one the proxy saw) instead of the peer's.
    public var trustForwardedFor = false
    /// Anyone may make an account at /app/signup, whatever the setting an
    /// administrator turns on in the store says (issue #37; off by default).
    public var openSignup = false
    /// Sign-in by an authenticating proxy (`--trusted-proxy`, `--user-header`); nil: none.
    public var proxySignIn: ProxySignIn?
    /// Proxies in front of tminus that terminate TLS (`--trusted-proxy`): calendar apps'
    /// passwords (HTTP Basic) are taken from them and from loopback only.
    public var trustedProxies: [AddressRange] = []
    /// When set, the process exits this long after a graceful shutdown began,
    /// whatever is still running (`tminus serve` sets 10 s; tests, which run
    /// many servers in one process, leave it nil).
    public var shutdownDeadline: Duration?
    /// The deadline for a whole outbound fetch, body included.
    public var fetchTimeout: Duration = .seconds(60)
    /// Shows the web app's one-time setup link to the person who started the
    /// server (`tminus serve` prints it when standard error is a terminal).
    /// The link is a password-setting capability, so it never goes to the log,
    /// which log shippers copy elsewhere: the log only says that one exists.
    public var showSetupLink: (@Sendable (String) -> Void)?
    /// The build serving (`tminus --version`): exports kept in the store by
    /// another build are rendered again, since its writer may differ.
    public var build = "dev"
    /// What tells two binaries of one commit apart (`tminus serve` sets the
    /// executable's size and time): part of a kept export's variant with
    /// `build`, so a rebuilt binary renders its exports again.
    public var executable = ""
    /// How often feeds with `notify:` are looked at for changes, a new day, a broker to bring in step.
    public var noticeInterval: Duration = .seconds(15)
    /// The first wait before a failed webhook or ntfy notice is tried again (then three times longer each time, at most an hour).
    public var noticeBackoff: Duration = .seconds(10)
    /// The CPU time the rules of one source import may take, past which that
    /// source fails with an error naming the rule and the event.
    public var rulesBudget: Duration = WorkBudget.rulesPerImport
    /// How large a calendar or image may be, and how far repeats are spelled out.
    public var limits = StoreLimits()
    /// Injected clock: rendering and caching depend on "now" only through this.
    public var clock: @Sendable () -> Date
    /// What the background services wait on between their rounds, and a notice
    /// between its retries: the real clock; a test holds one (swift-clocks' `TestClock`)
    /// and moves it on, instead of sleeping.
    public var waitClock: any Clock<Duration> = ContinuousClock()

    public init(host: String = "127.0.0.1", port: Int = 8080, database: DatabaseLocation = .sqlite(path: "tminus.sqlite"), feedsDirectory: String? = nil,
                adminTokenFile: String? = nil, baseURL: String? = nil, maxBodyBytes: Int = 8 << 20, refreshSources: Bool = true,
                gzip: Bool = false, cacheBytes: Int = 64 << 20, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.host = host
        self.port = port
        self.database = database
        self.feedsDirectory = feedsDirectory
        self.adminTokenFile = adminTokenFile
        self.baseURL = baseURL
        self.maxBodyBytes = maxBodyBytes
        self.refreshSources = refreshSources
        self.gzip = gzip
        self.cacheBytes = cacheBytes
        self.clock = clock
    }
}

extension ServerConfiguration {
    /// The same configuration with `allowPrivateSources` on.
    public func allowingPrivateSources(_ allow: Bool = true) -> ServerConfiguration {
        var copy = self
        copy.allowPrivateSources = allow
        return copy
    }
}
