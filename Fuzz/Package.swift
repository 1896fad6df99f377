// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which is the clone's name.
let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

// libFuzzer harnesses for tminus, a package of their own so that `swift build`
// in the project never builds them. `make fuzz` builds them with
// `-sanitize=fuzzer,address` and runs each for a fixed number of executions
// (Fuzz/run.sh). Each harness is one `LLVMFuzzerTestOneInput`; libFuzzer
// provides `main`.
let package = Package(
    name: "tminus-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(name: "CFuzzer"),
        .executableTarget(name: "FuzzContentLine", dependencies: ["CFuzzer", .product(name: "ICalendar", package: project)]),
        .executableTarget(name: "FuzzRecurrenceRule", dependencies: ["CFuzzer", .product(name: "ICalendar", package: project)]),
        .executableTarget(name: "FuzzRoundTrip", dependencies: ["CFuzzer", .product(name: "ICalendar", package: project)]),
        .executableTarget(name: "FuzzFeedDefinition", dependencies: ["CFuzzer", .product(name: "Subscriptions", package: project)]),
        .executableTarget(name: "FuzzAdminJSON", dependencies: ["CFuzzer", .product(name: "Countdowns", package: project)]),
        // What calendar apps send: PROPFIND, REPORT, PROPPATCH and MKCALENDAR bodies (XML through libxml2, with limits).
        .executableTarget(name: "FuzzDAVBodies", dependencies: ["CFuzzer", .product(name: "CalDAV", package: project)]),
        // The public routes in router mode on the in-memory store (issue #35: a forged cursor crashed the server).
        .executableTarget(name: "FuzzPublicRequests", dependencies: [
            "CFuzzer",
            .product(name: "TminusServer", package: project),
            .product(name: "CountdownStore", package: project),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
