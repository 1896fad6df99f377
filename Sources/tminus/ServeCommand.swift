import ArgumentParser
import FeedServer
import Foundation
import HTTPSupport
import Hummingbird
import Logging
import TminusServer

/// `tminus serve`: the feed server.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve feeds as subscribable calendars, JSON, HTML pages and SVG cards.",
        discussion: """
            Loads the feed definitions in --feeds at start and again on SIGHUP; URL sources are refreshed in the background. The admin API (/api) needs the bearer token from --admin-token-file, or the one generated next to the database at first start (mode 0600).
            """
    )

    @Option(help: .init(ServeEnvironment.help("Address to listen on (0.0.0.0 for every interface).", "host"))) var host = "127.0.0.1"
    @Option(help: .init(ServeEnvironment.help("Port to listen on.", "port"))) var port = 8080
    @OptionGroup var store: StoreOptions
    @Option(help: .init(ServeEnvironment.help("Folder of feed definitions (*.yaml). Default: ./feeds when there is one, as for `rules test`.", "feeds")))
    var feeds: String?

    /// `--feeds`, else `./feeds` when that folder exists (issue #40: one default with `rules test`).
    var feedsFolder: String? {
        if let feeds { return feeds }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: "feeds", isDirectory: &isDirectory) && isDirectory.boolValue ? "feeds" : nil
    }
    @Option(help: .init(ServeEnvironment.help("File with the admin bearer token.", "admin-token-file"))) var adminTokenFile: String?
    @Option(help: .init(ServeEnvironment.help("File with the key that seals logins saved in the web app (default: tminus-secrets-key beside the SQLite file; replicas on PostgreSQL share one).", "secrets-key-file")))
    var secretsKeyFile: String?
    @Option(help: .init(ServeEnvironment.help("Public base URL for links, e.g. https://countdowns.example.org (default http://HOST:PORT).", "base-url"))) var baseURL: String?
    @Option(help: .init(ServeEnvironment.help("Log level: trace, debug, info, notice, warning, error.", "log-level"))) var logLevel: Logger.Level = .info
    @Option(help: .init(ServeEnvironment.help("Log format: text, or json (one object a line, for log shippers).", "log-format"))) var logFormat: LogFormat = .text
    @Option(help: ArgumentHelp(ServeEnvironment.help("Memory for rendered JSON, pages, cards and countdown calendars, in MB.", "cache-mb"),
                               discussion: "Least recently used renders go first when it is full. Compiled feeds (the exported calendars and prepared countdowns) come on top."))
    var cacheMb = 64
    @Option(help: ArgumentHelp(ServeEnvironment.help("Memory for compiled feeds (prepared countdowns and exported calendars), in MB.", "compiled-mb"),
                               discussion: "A feed is compiled when first read after start or a change, and kept while it fits; the least recently read goes first. The feed read last always stays, however large, so a budget smaller than one feed costs a compile per feed switched to, never an error. About 2.5 KB a countdown."))
    var compiledMb = 128
    @Option(help: ArgumentHelp(ServeEnvironment.help("Disk for exported calendars kept as files, in MB (0: off).", "export-files-mb"),
                               discussion: "A feed not in memory answers .ics from a file written the first time its kept export was read from the database, with about a third less CPU a miss than that read. The files go in a folder of this process (removed when it stops, or by the next server to start there), beside a SQLite database unless --export-files-dir says where; on PostgreSQL only with --export-files-dir."))
    var exportFilesMb = 1024
    @Option(help: .init(ServeEnvironment.help("The folder for --export-files-mb (default: the SQLite database's path with .exports).", "export-files-dir")))
    var exportFilesDir: String?
    @Flag(help: .init(ServeEnvironment.help("Gzip calendars and JSON for clients that ask (off by default: some Outlook versions choke on it).", "gzip"))) var gzip = false
    @Flag(help: ArgumentHelp(ServeEnvironment.help("Let URL sources, URL imports and purge hooks reach loopback, private and link-local addresses.", "allow-private-sources"),
                             discussion: "Off by default, so that nobody who can name a URL can make the server read its own network (SSRF). Turn it on for a calendar server on your home network."))
    var allowPrivateSources = false
    @Flag(help: ArgumentHelp(ServeEnvironment.help("Behind a reverse proxy: count web app sign-ins by the last X-Forwarded-For address.", "trust-forwarded-for"),
                             discussion: "Without it every client behind the proxy shares the proxy's address, so one guesser slows everyone's sign-in. Turn it on only when a proxy you run sets the header; a client could forge it otherwise."))
    var trustForwardedFor = false
    @Flag(help: ArgumentHelp(ServeEnvironment.help("Let anyone make an account at /app/signup.", "open-signup"),
                             discussion: "Off by default: people come by invitation links (`tminus users invite`). An administrator can also open sign-up with `tminus users signup open`; this flag opens it while the server runs with it, whatever that setting says."))
    var openSignup = false
    @Option(help: ArgumentHelp(ServeEnvironment.help("A proxy in front of tminus: its address or range (repeat, or separate with commas).", "trusted-proxy"),
                               discussion: "Such as 127.0.0.1, 10.0.0.0/8 or fd00::/8. Calendar apps' app passwords (CalDAV, HTTP Basic) are taken from these addresses and loopback only: the proxy terminates TLS. With --user-header, also a web-app request from one of them that carries the header is signed in as the person it names."))
    var trustedProxy: [String] = []
    @Option(help: ArgumentHelp(ServeEnvironment.help("The header an authenticating proxy names the person in (such as Remote-User).", "user-header"),
                               discussion: "Only from --trusted-proxy addresses; the proxy must set or remove it on every request. The person must have an account (`tminus users add`)."))
    var userHeader: String?
    @Flag(help: ArgumentHelp(ServeEnvironment.help("With --user-header: a login the proxy names that nobody has yet becomes a new person.", "proxy-creates-accounts"),
                             discussion: "Off by default: then such a login gets a page saying to ask an administrator. The new person is no administrator and has no password."))
    var proxyCreatesAccounts = false
    @Option(help: ArgumentHelp(ServeEnvironment.help("Most connections held at once; more wait in the listen backlog.", "max-connections"),
                               discussion: "Default: 1024 (each connection costs about 12 KB), or fewer when the open-file limit is low. Idle and half-sent connections are closed after --request-timeout, freeing their places."))
    var maxConnections: Int?
    @Option(help: .init(ServeEnvironment.help("Seconds before an idle keep-alive connection is closed.", "idle-timeout"))) var idleTimeout = 30
    @Option(help: .init(ServeEnvironment.help("Seconds a client has to send a whole request head.", "request-timeout"))) var requestTimeout = 20
    @Option(help: ArgumentHelp(ServeEnvironment.help("Bytes a second a request body must average, after 10 s of grace.", "min-body-rate"),
                               discussion: "A slower sender is disconnected, so that clients dripping a body cannot hold the server's connections."))
    var minBodyRate = 1_024

    /// `--trusted-proxy`, read.
    func trustedProxies() throws -> [AddressRange] {
        let ranges = trustedProxy.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        do { return try ranges.map { try AddressRange($0) } } catch { throw ValidationError("--trusted-proxy: \(error)") }
    }

    /// `--user-header` with `--trusted-proxy` (the header is believed from the proxy only).
    func proxySignIn() throws -> ProxySignIn? {
        let ranges = trustedProxy.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        switch (ranges.isEmpty, userHeader) {
        case (true, nil):
            if proxyCreatesAccounts { throw ValidationError("--proxy-creates-accounts needs --trusted-proxy and --user-header") }
            return nil
        case (true, _?): throw ValidationError("--user-header needs --trusted-proxy: the header is believed only from the proxy's address")
        case (false, nil):
            if proxyCreatesAccounts { throw ValidationError("--proxy-creates-accounts needs --user-header: name the header the proxy signs people in with") }
            _ = try trustedProxies()
            return nil
        case (false, let header?):
            guard header.count <= 64, header.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ValidationError("--user-header '\(header.prefix(64))' is not a header name")
            }
            do { return ProxySignIn(trusted: try ranges.map { try AddressRange($0) }, header: header, createsAccounts: proxyCreatesAccounts) } catch {
                throw ValidationError("--trusted-proxy: \(error)")
            }
        }
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard (1...65536).contains(cacheMb) else { throw ValidationError("--cache-mb must be 1 to 65536") }
        guard (1...65536).contains(compiledMb) else { throw ValidationError("--compiled-mb must be 1 to 65536") }
        guard (0...1_048_576).contains(exportFilesMb) else { throw ValidationError("--export-files-mb must be 0 to 1048576") }
        if let maxConnections, maxConnections < 16 { throw ValidationError("--max-connections must be at least 16") }
        guard (1...3600).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be 1 to 3600 seconds") }
        guard (1...600).contains(requestTimeout) else { throw ValidationError("--request-timeout must be 1 to 600 seconds") }
        guard (1...(1 << 30)).contains(minBodyRate) else { throw ValidationError("--min-body-rate must be 1 to 1073741824 bytes a second") }
        _ = try proxySignIn()
        if let feeds {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: feeds, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--feeds \(feeds) is not a folder")
            }
        }
    }

    func run() throws {
        try waitFor { try await serve() }
    }

    func serve() async throws {
        switch logFormat {
        case .json: LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        case .text: LoggingSystem.bootstrap { label in TextLogHandler(label: label) }
        }
        var logger = Logger(label: "tminus")
        logger.logLevel = logLevel
        if let problem = PortCheck.problem(host: host, port: port) {
            if logFormat == .json { logger.critical("cannot start", metadata: ["error": "\(problem)"]) } else { printError("error: \(problem)") }
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        var configuration = ServerConfiguration(host: host, port: port,
                                                database: try store.location(), feedsDirectory: feedsFolder, adminTokenFile: adminTokenFile,
                                                baseURL: baseURL, gzip: gzip, cacheBytes: cacheMb << 20)
        configuration.compiledBytes = compiledMb << 20
        configuration.exportFilesBytes = exportFilesMb << 20
        configuration.exportFilesDirectory = exportFilesDir
        configuration.secretsKeyFile = secretsKeyFile
        configuration.build = Version.full
        configuration.executable = Version.executable
        configuration.allowPrivateSources = allowPrivateSources
        configuration.trustForwardedFor = trustForwardedFor
        configuration.openSignup = openSignup
        configuration.proxySignIn = try proxySignIn()
        configuration.trustedProxies = try trustedProxies()
        configuration.shutdownDeadline = .seconds(10)
        if isatty(STDERR_FILENO) == 1 {
            configuration.showSetupLink = { link in
                FileHandle.standardError.write(Data("\nNobody has an account yet. Open this one-time link to make the first administrator:\n\n    \(link)\n\n".utf8))
            }
        }
        configuration.connections = ConnectionLimits(idleTimeout: .seconds(idleTimeout), requestHeadTimeout: .seconds(requestTimeout),
                                                     maxConnections: maxConnections)
        configuration.connections.minimumBodyRate = minBodyRate
        // The store is open for as long as the application runs, and closed after it.
        var started = false
        do {
            try await configuration.database.withStore(clock: configuration.clock, logger: logger) { store in
                let app = try await buildApplication(configuration, store: store, logger: logger)
                started = true
                try await app.runService()
            }
        } catch where !started {
            // A log shipper reading JSON gets the reason as one more object.
            let said = ErrorText.describe(error)
            if logFormat == .json { logger.critical("cannot start", metadata: ["error": "\(said)"]) } else { printError("error: \(said)") }
            throw ExitCode(ErrorText.status(of: error).rawValue)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
