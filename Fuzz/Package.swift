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
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "CFuzzer"),
        .executableTarget(name: "FuzzContentLine", dependencies: ["CFuzzer", .product(name: "ICalendar", package: project)]),
        .executableTarget(name: "FuzzRecurrenceRule", dependencies: ["CFuzzer", .product(name: "ICalendar", package: project)]),
        .executableTarget(name: "FuzzRoundTrip", dependencies: ["CFuzzer", .product(name: "ICalendar", package: project)]),
        .executableTarget(name: "FuzzFeedDefinition", dependencies: ["CFuzzer", .product(name: "FeedServer", package: project)]),
        .executableTarget(name: "FuzzAdminJSON", dependencies: ["CFuzzer", .product(name: "Countdowns", package: project)]),
    ],
    swiftLanguageModes: [.v6]
)
