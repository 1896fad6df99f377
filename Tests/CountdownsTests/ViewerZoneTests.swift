import Countdowns
import ICalendar
import Testing

/// One reading of a viewer's zone for every front end (issue #60): `?tz=` and `--tz`.
struct ViewerZoneTests {
    @Test(arguments: ["", "Europe/Nowhere", "../../etc/passwd", "Europe/Zürich", String(repeating: "A", count: 65), "Europe/Berlin\u{0}"])
    func aNameThatIsNotAZoneIsRefusedBeforeAnyLookup(name: String) {
        #expect(throws: ViewerZone.Unknown.self) { try ViewerZone.named(name) }
    }

    @Test func aKnownNameIsItsZoneAndNoNameIsTheFallback() throws {
        #expect(try ViewerZone.named("America/Argentina/Buenos_Aires").identifier == "America/Argentina/Buenos_Aires")
        #expect(try ViewerZone.named("Etc/GMT+5").identifier == "Etc/GMT+5")
        #expect(try ViewerZone.parse(nil, default: .utc) == .utc)
    }

    @Test func theCommandLinesOrderIsAskedThenShownThenTZThenTheSystem() throws {
        let tz = ["TZ": ":Asia/Tokyo"]
        #expect(try ViewerZone.resolve("Europe/Paris", else: "Europe/Oslo", environment: tz, system: "UTC").identifier == "Europe/Paris")
        #expect(try ViewerZone.resolve(nil, else: "Europe/Oslo", environment: tz, system: "UTC").identifier == "Europe/Oslo")
        #expect(try ViewerZone.resolve(nil, else: "Not/AZone", environment: tz, system: "UTC").identifier == "Asia/Tokyo")
        #expect(try ViewerZone.resolve(nil, environment: [:], system: "America/Chicago").identifier == "America/Chicago")
        #expect(try ViewerZone.resolve(nil, environment: ["TZ": "garbage"], system: nil) == .utc)
        // Only what was asked for is an error: a bad $TZ falls through.
        #expect(throws: ViewerZone.Unknown.self) { try ViewerZone.resolve("Mars/Olympus", environment: [:], system: "UTC") }
    }
}
