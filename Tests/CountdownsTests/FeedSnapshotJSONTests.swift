import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// The fast feed JSON writer must write exactly what `JSONEncoder.tminus`
/// writes: the encoder is the specification, the writer only the speed.
@Suite struct FeedSnapshotJSONTests {
    /// Every optional field set, and strings that need each kind of escape.
    static func fullCountdown() -> Countdown {
        var countdown = Countdown(uid: "uid-\"quoted\"/slash\\back", title: "🎄 Christmas {n}\u{1}\u{8}\u{c}\n\r\t\u{1f} é",
                                  target: .date(CivilDate(parsing: "20261225")!), repeatRule: .yearly)
        countdown.id = 42
        countdown.notes = "Line one\nline two </script> \u{2028}"
        countdown.location = "Café \"Zur Post\", Straße 1/2"
        countdown.url = "https://example.com/a/b?c=d&e=f"
        countdown.categories = ["Holidays", "Family/Friends", "\u{7f}del"]
        countdown.presentation = Presentation(gradient: ["#FF0000", "#00FF00"], textColor: "#FFFFFF", image: "https://example.com/x.png")
        countdown.priority = 1
        return countdown
    }

    static func bareCountdown() -> Countdown {
        Countdown(uid: "bare", title: "Launch", target: .utc(LocalDateTime(parsing: "20270102T030405")!))
    }

    func snapshot(_ countdowns: [Countdown], now: String = "20261123T100000") -> FeedSnapshot {
        let feed = Feed(slug: "family/feed", name: "Family \"feed\"", timeZone: "Europe/Berlin")
        return FeedSnapshot(feed: feed, countdowns: countdowns, calculator: Make.calculator(now, "Europe/Berlin"),
                            imageURL: { "https://host/img?u=\($0)" })
    }

    @Test func writesTheEncodersBytesForEveryFieldAndEscape() throws {
        var term = Make.allDay("20261218", title: "Term")
        term.countsFrom = CivilDate(parsing: "20260901")
        var started = Make.allDay("20261124", title: "Started")
        started.countsFrom = CivilDate(parsing: "20261123")
        let value = snapshot([Self.fullCountdown(), Self.bareCountdown(), Make.allDay("20200101"), term, started])
        let expected = try JSONEncoder.tminus.encode(value)
        let written = FeedSnapshotJSON.bytes(value)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try JSONDecoder().decode(FeedSnapshot.self, from: Data(written)) == value)
    }

    @Test func writesTheEncodersBytesForAnEmptyFeed() throws {
        let value = snapshot([])
        #expect(FeedSnapshotJSON.bytes(value) == Array(try JSONEncoder.tminus.encode(value)))
    }

    @Test func writesNegativeAndLargeNumbersAsTheEncoderDoes() throws {
        var value = snapshot([Self.bareCountdown()])
        value.countdowns[0].days = -12_345
        value.countdowns[0].amount = Int.max
        value.countdowns[0].occurrenceNumber = Int.min
        value.countdowns[0].id = nil
        #expect(FeedSnapshotJSON.bytes(value) == Array(try JSONEncoder.tminus.encode(value)))
    }
}
