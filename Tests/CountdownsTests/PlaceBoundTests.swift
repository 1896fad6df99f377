import Foundation
import ICalendar
import Testing
@testable import Countdowns

/// `PlaceBound` is a lower bound of where a countdown stands in a soonest-first
/// list, for every viewer zone at every instant from the one it was computed
/// at (issue #41): checked here against the list's own placement, in the zones
/// furthest apart and hour by hour over days, and over years for repeats.
struct PlaceBoundTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//tminus tests//places//EN\r
        BEGIN:VEVENT\r
        UID:floating@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Floating, late in the evening\r
        DTSTART:20261128T230000\r
        DURATION:PT2H\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:allday@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:All day\r
        DTSTART;VALUE=DATE:20261128\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:zoned@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Zoned\r
        DTSTART;TZID=Asia/Tokyo:20261128T080000\r
        DTEND;TZID=Asia/Tokyo:20261128T090000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly-floating@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Weekly, floating\r
        DTSTART:20261102T233000\r
        DURATION:PT1H\r
        RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly-after-midnight@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Weekly, just after midnight (shown all that day, in the zone furthest behind too)\r
        DTSTART:20261103T003000\r
        DURATION:PT1H\r
        RRULE:FREQ=WEEKLY;BYDAY=TU,FR\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:birthday@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Birthday\r
        DTSTART;VALUE=DATE:19801129\r
        RRULE:FREQ=YEARLY\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:ending@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Three days more\r
        DTSTART;VALUE=DATE:20261126\r
        RRULE:FREQ=DAILY;COUNT=5\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:weekly-count@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Ten Tuesdays\r
        DTSTART;TZID=Europe/Berlin:20261006T190000\r
        DTEND;TZID=Europe/Berlin:20261006T200000\r
        RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10\r
        EXDATE;TZID=Europe/Berlin:20261124T190000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:since@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Since\r
        DTSTART;VALUE=DATE:20261101\r
        RRULE:FREQ=WEEKLY\r
        X-TMINUS-DIRECTION:up\r
        END:VEVENT\r
        BEGIN:VTODO\r
        UID:task@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Task due tonight\r
        DUE:20261128T220000Z\r
        END:VTODO\r
        BEGIN:VEVENT\r
        UID:cancelled@tests\r
        DTSTAMP:20260101T000000Z\r
        SUMMARY:Cancelled\r
        DTSTART:20261129T100000Z\r
        STATUS:CANCELLED\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    static let zones = ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Niue", "Asia/Tokyo", "America/New_York", "Europe/Berlin"]
        .compactMap(Zone.named)

    static func countdowns() throws -> [Countdown] {
        let countdowns = CountdownReader.countdowns(in: try ICalendarParser.parse(calendar).calendar, source: nil).countdowns
        #expect(countdowns.count == 11)
        return countdowns
    }

    /// Whether the list's placement of `countdown` at `now` in `zone` is at or after `bound`.
    static func honours(_ bound: PlaceBound, _ countdown: Countdown, at now: Date, in zone: Zone, feedZone: Zone) -> Bool {
        let series = CountdownSeries(countdown, preparedAt: now, floatingZone: feedZone)
        let placement = RemainingTimeCalculator(now: now, zone: zone).placement(for: series)
        let rank = FeedSnapshot.rank(status: countdown.status, state: placement.state)
        let start = placement.occurrence?.startInstant ?? .distantFuture
        if rank != bound.rank { return rank > bound.rank }
        return bound.from == .max ? start == .distantFuture : start.timeIntervalSince1970 >= Double(bound.from)
    }

    /// The viewer zones in which the list places `countdown` before `bound` at `now`.
    static func zonesShowingBefore(_ bound: PlaceBound, _ countdown: Countdown, at now: Date, feedZone: Zone) -> [Zone] {
        zones.filter { !honours(bound, countdown, at: now, in: $0, feedZone: feedZone) }
    }

    /// Runs `check` on a thread of its own and returns what it found wrong: a
    /// few thousand expansions would otherwise hold one of the cooperative
    /// pool's two threads for seconds, and every other suite's servers with it.
    static func offThePool(_ check: @escaping @Sendable () -> [String]) async -> [String] {
        await withCheckedContinuation { done in Thread { done.resume(returning: check()) }.start() }
    }

    @Test func noZoneAtNoLaterHourShowsACountdownBeforeItsBound() async throws {
        let written = Date(timeIntervalSince1970: 1_795_338_000)   // 2026-11-22T09:00:00Z
        let countdowns = try Self.countdowns()
        let wrong = await Self.offThePool {
            var wrong: [String] = []
            for countdown in countdowns {
                let bound = PlaceBound(countdown, at: written)
                for hour in stride(from: 0, through: 24 * 8, by: 3) {
                    let now = written.addingTimeInterval(Double(hour) * 3_600)
                    let feedZone = Self.zones[hour % Self.zones.count]
                    for zone in Self.zonesShowingBefore(bound, countdown, at: now, feedZone: feedZone) {
                        wrong.append("\(countdown.uid) at +\(hour) h in \(zone.identifier) (feed in \(feedZone.identifier)) stands before \(bound)")
                    }
                }
            }
            return wrong
        }
        #expect(wrong.isEmpty, "\(wrong.count) placements before their bound, first: \(wrong.prefix(3))")
    }

    /// A bound computed at any hour holds right then: where a repeat's last
    /// occurrence has just ended, in the zone furthest behind, is where a
    /// horizon too short shows (`timedOverHorizon` at 30 hours fails here).
    @Test func aBoundComputedAtAnyHourHoldsThenInEveryZone() async throws {
        let written = Date(timeIntervalSince1970: 1_795_338_000)
        let countdowns = try Self.countdowns()
        let wrong = await Self.offThePool {
            var wrong: [String] = []
            for countdown in countdowns {
                for hour in 0..<(24 * 5) {
                    let computed = written.addingTimeInterval(Double(hour) * 3_600)
                    let bound = PlaceBound(countdown, at: computed)
                    for zone in Self.zonesShowingBefore(bound, countdown, at: computed, feedZone: Self.zones[hour % Self.zones.count]) {
                        wrong.append("\(countdown.uid) computed at +\(hour) h, in \(zone.identifier), stands before \(bound)")
                    }
                }
            }
            return wrong
        }
        #expect(wrong.isEmpty, "\(wrong.count) placements before their bound, first: \(wrong.prefix(3))")
    }

    /// A bound computed later is never looser, and the round looks again soon
    /// after it could tighten: it only tightens places.
    @Test func boundsOnlyMoveLaterAndTheRoundKnowsWhen() async throws {
        let written = Date(timeIntervalSince1970: 1_795_338_000)
        let countdowns = try Self.countdowns()
        let wrong = await Self.offThePool {
            var wrong: [String] = []
            for countdown in countdowns {
                var bound = PlaceBound(countdown, at: written)
                for day in 1...400 {
                    let now = written.addingTimeInterval(Double(day) * 86_400)
                    let again = PlaceBound(countdown, at: now)
                    // (A countdown over everywhere moves to rank 1: later, whatever its `from`.)
                    if (again.rank, again.from) < (bound.rank, bound.from) { wrong.append("\(countdown.uid): day \(day) moved its bound earlier") }
                    if !Self.honours(bound, countdown, at: now, in: Self.zones[day % Self.zones.count], feedZone: .utc) {
                        wrong.append("\(countdown.uid): day \(day) stands before \(bound)")
                    }
                    // The round looks again within a day of when a bound could tighten (hourly looks would cost more than they gain).
                    if again.from != bound.from, bound.checkAt > PlaceBound.seconds(now) + 86_400 {
                        wrong.append("\(countdown.uid): tightened on day \(day), looked at only later")
                    }
                    if again.checkAt <= PlaceBound.seconds(now) { wrong.append("\(countdown.uid): a fresh bound is due at once on day \(day)") }
                    if bound.checkAt <= PlaceBound.seconds(now) { bound = again }
                }
            }
            return wrong
        }
        #expect(wrong.isEmpty, "\(wrong.count) problems, first: \(wrong.prefix(3))")
    }

    @Test func aDoneOrCancelledCountdownRanksAfterTheActiveOnesAndAOneOffIsNeverLookedAtAgain() throws {
        let written = Date(timeIntervalSince1970: 1_795_338_000)
        let byUID = Dictionary(uniqueKeysWithValues: try Self.countdowns().map { ($0.uid, PlaceBound($0, at: written)) })
        #expect(byUID["cancelled@tests"]?.rank == 1 && byUID["cancelled@tests"]?.checkAt == .max)
        #expect(byUID["zoned@tests"]?.rank == 0 && byUID["zoned@tests"]?.checkAt != .max, "a one-off is looked at again once over everywhere")
        let zoned = try #require(try Self.countdowns().first { $0.uid == "zoned@tests" })
        let over = PlaceBound(zoned, at: written.addingTimeInterval(10 * 86_400))
        #expect(over.rank == 1 && over.checkAt == .max, "then it is past, for ever")
        #expect(byUID["birthday@tests"].map { $0.checkAt < Int64.max } == true, "a repeat is looked at again once its next occurrence is over")
        let tuesdays = try #require(try Self.countdowns().first { $0.uid == "weekly-count@tests" })
        #expect(PlaceBound(tuesdays, at: written).checkAt > PlaceBound.seconds(written), "a COUNT repeat is placed exactly, not due at once")
        #expect(PlaceBound(rank: 0, from: 100, checkAt: .max).comesAfter(rank: 0, start: Date(timeIntervalSince1970: 99)))
        #expect(!PlaceBound(rank: 0, from: 100, checkAt: .max).comesAfter(rank: 0, start: Date(timeIntervalSince1970: 100)), "a tie is decided by titles")
        #expect(PlaceBound(rank: 1, from: 0, checkAt: .max).comesAfter(rank: 0, start: .distantFuture))
        #expect(!PlaceBound(rank: 0, from: .max, checkAt: .max).comesAfter(rank: 1, start: .distantPast))
    }
}
