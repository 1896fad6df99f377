// swift-tools-version: 6.1
import PackageDescription

// Layers point downwards only: CLibical → ICalendar → Countdowns → Rules → CountdownStore (the contract, in memory)
// → SQLiteStore, PostgresStore → StoreFactory → Services (use cases, authorization, events) → Subscriptions, Notices
// → Pages → Catalog (the read model) → HTTPSupport → FeedServer, WebApp, CalDAVServer (HTTP, siblings)
// → TminusServer (buildApplication) → tminus.
// See ../shared/DESIGN.md for what each target owns.
let package = Package(
    name: "tminus",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tminus", targets: ["tminus"]),
        .library(name: "ICalendar", targets: ["ICalendar"]),
        // Also used by the fuzz harnesses (Fuzz/, a package of its own, outside the default build).
        .library(name: "Countdowns", targets: ["Countdowns"]),
        .library(name: "TminusServer", targets: ["TminusServer", "FeedServer", "Catalog", "HTTPSupport"]),
        // Feed definitions, for the fuzz harness of `feeds/*.yaml`.
        .library(name: "Subscriptions", targets: ["Subscriptions"]),
        // The store, for the fuzz harness of the public routes (it fixes the cursor key before the server starts).
        .library(name: "CountdownStore", targets: ["CountdownStore"]),
        // CalDAV's request bodies, for the fuzz harness of what calendar apps send.
        .library(name: "CalDAV", targets: ["CalDAV"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // HTTP fields and statuses for the read model, which decides 200 or 304 without an HTTP server.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Tests hold the clock the background services wait on (`TestClock`).
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    ],
    targets: [
        // No pkgConfig: Debian's libical.pc also links libicalss and libicalvcal, which tminus does not
        // use and which load Berkeley DB at every start; the module map links libical alone.
        .systemLibrary(
            name: "CLibical",
            providers: [.apt(["libical-dev"])]
        ),
        // QR codes for the web app's subscribe links (Debian's libqrencode-dev), bridged like libical.
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // MQTT for notices and Home Assistant sensors (Debian's libmosquitto-dev), bridged like libical.
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // libxml2 (Debian's libxml2-dev), for its pull reader: request bodies and SVG uploads (StrictXML).
        .systemLibrary(
            name: "CLibxml2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Hostile XML read with limits: UTF-8 only, no DTD, no processing instruction, bounded
        // size, depth, elements and names, through libxml2's reader (never FoundationXML, issue #59).
        .target(name: "StrictXML", dependencies: ["CLibxml2"]),
        .target(name: "ICalendar", dependencies: ["CLibical"]),
        // Each language's words and plural rules: one table per language (Language/Tables/*.json).
        .target(name: "Countdowns", dependencies: ["ICalendar"], resources: [.copy("Language/Tables")]),
        // Feed rules (include, exclude, change) and the linear pattern engine under them: pure, no I/O.
        .target(name: "Rules", dependencies: ["Countdowns", .product(name: "Yams", package: "Yams")]),
        // The store's contract: the protocol and its primitives, rows, errors, snapshots, and the in-memory store.
        .target(
            name: "CountdownStore",
            dependencies: [
                "Countdowns", "StrictXML",
                .product(name: "Crypto", package: "swift-crypto"),
                // A kept export's bytes are a `ByteBuffer`: read into one, and sent as it is.
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The store on one SQLite file through GRDB (the default `--db`).
        .target(
            name: "SQLiteStore",
            dependencies: [
                "CountdownStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API for what GRDB does not wrap: a large kept export written into its row in parts.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The same store on PostgreSQL, for several replicas (`--db postgres://…`).
        .target(
            name: "PostgresStore",
            dependencies: [
                "CountdownStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Opens the store `--db` names: SQLite, PostgreSQL or memory.
        .target(name: "StoreFactory", dependencies: ["CountdownStore", "SQLiteStore", "PostgresStore", .product(name: "Logging", package: "swift-log")]),
        // Every use case that writes, once, over the store's primitives (`CountdownService`).
        .target(name: "Services", dependencies: ["CountdownStore", .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                                                 .product(name: "HummingbirdOTP", package: "hummingbird-auth")]),
        // Feed definitions (feeds/*.yaml), subscribed sources, fetching them with their logins, and refreshing them.
        .target(
            name: "Subscriptions",
            dependencies: [
                "Services", "Rules", "StoreFactory",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Notices: webhooks, ntfy and MQTT (Home Assistant sensors) told of changes and milestones.
        .target(
            name: "Notices",
            dependencies: [
                "Services", "Subscriptions", "CMosquitto",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The templates, words and assets every HTML page is made from (public pages and the web app), read once at start.
        .target(
            name: "Pages",
            dependencies: ["Countdowns", .product(name: "Mustache", package: "swift-mustache")],
            resources: [.copy("Templates"), .copy("Static"), .copy("Words")]
        ),
        // The read model: the published catalog and its tokens, the compiled feeds and their byte budget, the
        // renders and their cache, kept exports. Below every HTTP target and above `Services`; no HTTP server.
        .target(
            name: "Catalog",
            dependencies: [
                "CountdownStore", "Services", "Rules", "Subscriptions", "Notices", "Pages", "StrictXML",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // What the HTTP targets share, below all three: the parts routes work with, the request context, the
        // sign-in throttle and proxy sign-in, page headers, metrics, and how errors and representations become responses.
        .target(
            name: "HTTPSupport",
            dependencies: [
                "Catalog", "CountdownStore", "Countdowns", "ICalendar", "Services", "Subscriptions", "Notices",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // HTTP: the public feeds and pages, the admin API, health, connection limits and the background services.
        .target(
            name: "FeedServer",
            dependencies: [
                "Catalog", "HTTPSupport", "CountdownStore", "Services", "StoreFactory", "Rules", "Subscriptions", "Notices", "Pages",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The admin API's OpenAPI document, served at /api/openapi.json.
            resources: [.copy("Contract")]
        ),
        // The web app under /app: sign-in and sessions, forms, the pages of feeds and countdowns.
        .target(
            name: "WebApp",
            dependencies: [
                "Catalog", "HTTPSupport", "Pages", "Services", "Rules", "Subscriptions", "Notices", "CQREncode",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `buildApplication`: the store, the services, the routes and the background services wired together.
        .target(
            name: "TminusServer",
            dependencies: [
                "Catalog", "HTTPSupport", "FeedServer", "WebApp", "CalDAVServer", "Services", "StoreFactory", "Subscriptions", "Notices", "Pages",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "tminus",
            dependencies: [
                "ICalendar", "Countdowns", "CountdownStore", "SQLiteStore", "Services", "Rules", "StoreFactory", "Subscriptions", "FeedServer", "TminusServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["BuildCommit"]
        ),
        // Writes the git commit being built into `tminus --version` (a prebuild command: git, no compiled tool).
        .plugin(name: "BuildCommit", capability: .buildTool()),
        // CalDAV's requests and answers (RFC 4918, 4791, 6578) as values: XML read through a real parser with
        // limits, multistatus written as bytes, paths and sync tokens. No HTTP, no store.
        .target(name: "CalDAV", dependencies: ["StrictXML"]),
        // Web push's message encryption (RFC 8291) and VAPID (RFC 8292): pure, the sending is the server's.
        .target(name: "WebPush", dependencies: ["CountdownStore", .product(name: "Crypto", package: "swift-crypto")]),
        // CalDAV over HTTP: /.well-known/caldav, /dav/ (app passwords, PROPFIND, REPORT, GET, PUT, DELETE, MKCALENDAR, PROPPATCH).
        .target(name: "CalDAVServer", dependencies: ["CalDAV", "Countdowns", "CountdownStore", "ICalendar", "Rules", "Services", "Catalog", "HTTPSupport",
                                                     .product(name: "Hummingbird", package: "hummingbird")]),
        // `make bench`: timings against a reference in the same run.
        // `tminus-bench bare-server`: the bare Hummingbird app the serving benchmark compares with;
        // `tminus-bench people-store PATH`: 1,000 people in 1,000 spaces for the people benchmark.
        .executableTarget(name: "tminus-bench", dependencies: ["ICalendar", "Countdowns", "CountdownStore", "Services", "StoreFactory",
                                                       .product(name: "Hummingbird", package: "hummingbird")]),
        // Helpers shared by the test targets: the corpus, the Python checkers, the built binary.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "ICalendarTests",
            dependencies: ["ICalendar", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "CountdownsTests", dependencies: ["Countdowns", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CalDAVTests", dependencies: ["CalDAV", "StrictXML"]),
        .testTarget(name: "WebPushTests", dependencies: ["WebPush", "CountdownStore", "TestSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "TestSupport"]),
        // The use cases and the permission matrix on the memory store: no HTTP, no server.
        .testTarget(name: "ServicesTests", dependencies: ["Services", "Countdowns", "CountdownStore", "TestSupport"]),
        // The `tminus` binary run as a user runs it: what it writes, where, and what it says.
        .testTarget(name: "CommandLineTests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "CountdownStoreTests",
            dependencies: ["CountdownStore", "SQLiteStore", "Services", "PostgresStore", "TestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"]
        ),
        // The server on loopback or through its router, as every HTTP test target starts it (`ServerFixture`),
        // with a browser that keeps cookies and fills in CSRF tokens, and CalDAV's requests.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "Catalog", "HTTPSupport", "FeedServer", "TminusServer", "Services", "SQLiteStore", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/ServerTestSupport"
        ),
        // The public feeds, the admin API, health and connections; and what crosses the front ends.
        .testTarget(
            name: "FeedServerTests",
            dependencies: [
                "Catalog", "HTTPSupport", "FeedServer", "TminusServer", "WebApp", "CalDAVServer", "CalDAV", "Pages", "Services", "Rules", "StoreFactory", "Subscriptions", "Notices", "SQLiteStore", "TestSupport", "ServerTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                // Connection deadlines on an `EmbeddedChannel`, whose clock the test drives.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        // CalDAV through the whole server: app passwords, objects, queries and their time ranges, hostile bodies.
        .testTarget(
            name: "CalDAVServerTests",
            dependencies: ["CalDAVServer", "CalDAV", "Catalog", "HTTPSupport", "FeedServer", "TminusServer", "Services", "TestSupport", "ServerTestSupport",
                           .product(name: "HummingbirdTesting", package: "hummingbird")]
        ),
        // The web app at /app: sign-in, pages and forms, people and spaces, focus, languages.
        .testTarget(
            name: "WebAppTests",
            dependencies: ["WebApp", "Catalog", "ICalendar", "Countdowns", "HTTPSupport", "FeedServer", "TminusServer", "Pages", "Services", "Subscriptions", "TestSupport", "ServerTestSupport",
                           .product(name: "HummingbirdTesting", package: "hummingbird"),
                           .product(name: "HummingbirdOTP", package: "hummingbird-auth")]
        ),
        // Subscribed sources: fetching over HTTP with their logins, saved logins, their rules.
        .testTarget(
            name: "SubscriptionsTests",
            dependencies: ["Subscriptions", "Catalog", "HTTPSupport", "FeedServer", "TminusServer", "Rules", "Services", "TestSupport", "ServerTestSupport",
                           .product(name: "HummingbirdTesting", package: "hummingbird"),
                           .product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
        // Notices: webhooks, ntfy, and MQTT against a real broker.
        .testTarget(
            name: "NoticesTests",
            dependencies: ["Notices", "Catalog", "HTTPSupport", "FeedServer", "TminusServer", "Services", "Subscriptions", "TestSupport", "ServerTestSupport",
                           .product(name: "HummingbirdTesting", package: "hummingbird")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
