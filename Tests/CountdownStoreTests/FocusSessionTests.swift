import Countdowns
import CountdownStore
import Foundation
import ICalendar
import Services
import Testing
import TestSupport

/// Focus sessions (issue #42) through the use cases, on a real SQLite file,
/// with the clock held by the test: every phase of a Pomodoro cycle lands in
/// the person's focus feed as the event it should be.
struct FocusSessionTests {
    static func person(_ store: TemporaryStore, _ login: String) async throws -> CountdownService {
        let made = try await store.service.acting(as: .commandLine).addPerson(login: login, password: "correct horse battery", isAdmin: false, cost: 4)
        return store.service.acting(as: .person(PersonAccess(id: try #require(made.id), login: login, isAdmin: false)))
    }

    static func events(_ store: TemporaryStore, _ feed: String = "focus") async throws -> [Countdown] {
        try await store.store.countdowns(inFeed: feed).sorted { $0.uid < $1.uid }
    }

    static func mark(_ countdown: Countdown) -> String? { countdown.extraProperties.first { $0.name == FocusEntry.property }?.value }

    @Test(arguments: StoreBackend.available) func aPomodoroCycleKeepsEachStudyAndBreakAsItsEvent(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let anna = try await Self.person(store, "anna")
        let plan = PomodoroPlan(study: 25, shortBreak: 5, longBreak: 15, rounds: 2)
        let started = try await anna.startFocus(tag: "Maths", mode: .pomodoro, pomodoro: plan, keepBreaks: true)
        #expect(started.phase == "study" && started.round == 1 && started.feed == "focus" && started.remainingSeconds == 1500)
        #expect(Self.mark(try #require(try await Self.events(store).first)) == "study;running", "the running study is a busy event at once")

        store.clock.advance(25 * 60 + 10)
        let inBreak = try #require(try await anna.focus())
        #expect(inBreak.phase == "short-break" && inBreak.remainingSeconds == 290, "the break began when the study ended, not when asked")
        store.clock.advance(5 * 60)
        let second = try await anna.focus()
        #expect(second?.phase == "study" && second?.round == 2)
        store.clock.advance(25 * 60)
        #expect(try await anna.focus()?.phase == "long-break")
        store.clock.advance(15 * 60)
        #expect(try await anna.focus() == nil, "the cycle ends with its long break")

        let events = try await Self.events(store)
        #expect(events.map(\.title).sorted() == ["Break — 5 min", "Focus: Maths — 25 min", "Focus: Maths — 25 min", "Long break — 15 min"])
        #expect(events.compactMap(Self.mark).sorted() == ["long-break;900", "short-break;300", "study;1500", "study;1500"])
        #expect(events.allSatisfy { $0.categories == ["Maths"] })
        let stats = try await anna.focusStatistics(period: .day)
        #expect(stats.tags.map(\.name) == ["Maths"] && stats.totalMinutes == 50, "breaks are not focused time")
    }

    @Test(arguments: StoreBackend.available) func aSessionStoppedEarlyKeepsWhatWasDoneLessItsPauses(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let anna = try await Self.person(store, "anna")
        try await anna.startFocus(tag: "Reading", mode: .down, minutes: 25)
        store.clock.advance(10 * 60)
        let paused = try await anna.pauseFocus()
        #expect(paused.paused && paused.remainingSeconds == 15 * 60)
        store.clock.advance(5 * 60)
        #expect(try await anna.focus()?.remainingSeconds == 15 * 60, "a paused session keeps its time left")
        try await anna.resumeFocus()
        store.clock.advance(5 * 60)
        let extended = try await anna.extendFocus(minutes: 10)
        #expect(extended.remainingSeconds == 20 * 60)
        let block = try #require(try await anna.stopFocus())
        #expect(block.focusedSeconds == 15 * 60 && block.end.timeIntervalSince(block.start) == 20 * 60)
        let event = try #require(try await Self.events(store).first)
        #expect(event.title == "Focus: Reading — 15 min" && Self.mark(event) == "study;900")
        await #expect(throws: FocusProblem.notRunning) { try await anna.stopFocus() }
    }

    @Test(arguments: StoreBackend.available) func oneSessionAtATimeAndEachPersonHasTheirOwnFeed(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let anna = try await Self.person(store, "anna")
        let ben = try await Self.person(store, "ben")
        try await anna.startFocus(tag: "Maths", minutes: 30)
        await #expect {
            try await anna.startFocus(tag: "Physics")
        } throws: { error in
            guard case FocusProblem.alreadyRunning(let running) = error else { return false }
            return running.tag == "Maths" && "\(error)".contains("a session is running: Maths, 30 min left")
        }
        let bens = try await ben.startFocus(tag: "Art")
        #expect(bens.feed == "focus-ben", "the first person's feed is focus, the others' focus-<login>")
        await #expect(throws: FocusProblem.self) { try await ben.startFocus(tag: "a,b") }
        #expect(try await store.store.feed(slug: "focus-ben")?.feed.isPublic == false, "private by default")
        await #expect(throws: FocusProblem.noPerson) { try await store.service.acting(as: .adminToken).startFocus(tag: "Maths") }
    }

    /// The server's focus round keeps a period that ended though nobody asked.
    @Test(arguments: StoreBackend.available) func theServersRoundKeepsWhatEndedWithoutAnyoneAsking(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let anna = try await Self.person(store, "anna")
        try await anna.startFocus(tag: "Maths", minutes: 25)
        #expect(try await store.service.acting(as: .system).focusRound() == 1)
        #expect(Self.mark(try #require(try await Self.events(store).first)) == "study;running", "not over yet")
        store.clock.advance(26 * 60)
        #expect(try await store.service.acting(as: .system).focusRound() == 1)
        let kept = try #require(try await Self.events(store).first)
        #expect(kept.title == "Focus: Maths — 25 min" && Self.mark(kept) == "study;1500", "kept by the round, no one looking")
        #expect(try await store.service.acting(as: .system).focusRound() == 0, "nothing runs any more")
    }

    /// A month of generated sessions, finished and stopped early, exported as
    /// the focus feed's calendar and counted again by recurring-ical-events:
    /// the minutes per tag agree with `focusStatistics(period: .month)`.
    @Test(.enabled(if: PythonChecker.available, "python checkers not installed (run make test)"))
    func aMonthOfSessionsAddsUpAsRecurringIcalEventsCountsIt() async throws {
        let store = try await TemporaryStore.make()
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let anna = try await Self.person(store, "anna")
        let first = CivilDate(year: 2027, month: 3, day: 1)
        let tags = ["Maths", "Physics", "Art"]
        for day in 0..<31 where day % 4 != 3 {
            for session in 0..<(1 + day % 3) {
                let start = Zone.utc.instant(of: LocalDateTime(date: first.adding(days: day), hour: 7 + 3 * session, minute: 5 * session, second: 0))
                store.clock.set(start)
                let minutes = 10 + (day * 7 + session * 13) % 50
                try await anna.startFocus(tag: tags[(day + session) % 3], mode: .down, minutes: minutes)
                if (day + session) % 5 == 0 {
                    store.clock.advance(Double(minutes * 60) / 2 + 17)
                    try await anna.stopFocus()
                } else {
                    store.clock.advance(Double(minutes * 60) + 30)
                }
            }
        }
        store.clock.set(Zone.utc.instant(of: LocalDateTime(date: first.adding(days: 40), hour: 12, minute: 0, second: 0)))
        #expect(try await anna.focus() == nil, "every session is over")
        let stats = try await anna.focusStatistics(period: .month, containing: first)

        let feed = try #require(try await store.store.feed(slug: "focus")).feed
        let path = store.directory.appendingPathComponent("focus.ics").path
        try Data(CalendarExport.bytes(feed: feed, countdowns: try await store.store.countdowns(inFeed: "focus"))).write(to: URL(fileURLWithPath: path))
        let answer = try await PythonChecker.run(["expand": [path], "from": "2027-03-01T00:00:00Z", "to": "2027-04-01T00:00:00Z", "tz": "UTC"])
        let occurrences = try #require(answer[path] as? [[String: Any]])
        var seconds: [String: Int] = [:]
        let stamp = ISO8601DateFormatter()
        for occurrence in occurrences {
            let summary = try #require(occurrence["summary"] as? String)
            let tag = String(summary.dropFirst("Focus: ".count).prefix { $0 != " " })
            let start = try #require((occurrence["start"] as? String).flatMap(stamp.date(from:)))
            let end = try #require((occurrence["end"] as? String).flatMap(stamp.date(from:)))
            seconds[tag, default: 0] += Int(end.timeIntervalSince(start))
        }
        #expect(occurrences.count > 40)
        let theirs = seconds.mapValues { ($0 + 30) / 60 }
        let ours = Dictionary(uniqueKeysWithValues: stats.tags.map { ($0.name, $0.minutes) })
        #expect(ours == theirs, "focus stats \(ours), recurring-ical-events \(theirs)")
    }
}

/// Regression (issue #59, 3): a person who made feeds named `focus`, `focus-zed` and `focus-1` … `focus-40`
/// received the next person's focus sessions, because a free-looking name decided whose feed it was.
struct FocusFeedTakeoverTests {
    @Test(arguments: StoreBackend.available) func feedsNamedLikeAnothersFocusFeedReceiveNothing(_ backend: StoreBackend) async throws {
        let store = try await TemporaryStore.make(backend)
        defer { try? FileManager.default.removeItem(at: store.directory) }
        let squatter = try await FocusSessionTests.person(store, "mallory")
        let zed = try await FocusSessionTests.person(store, "zed")
        let squatted = ["focus", "focus-zed"] + (1...40).map { "focus-\($0)" }
        for slug in squatted { try await squatter.createFeed(Feed(slug: slug, isPublic: false)) }

        let started = try await zed.startFocus(tag: "Maths", minutes: 25)
        #expect(!squatted.contains(started.feed), "zed's focus feed is a new one: \(started.feed)")
        store.clock.advance(30 * 60)
        let stats = try await zed.focusStatistics(period: .week)
        #expect(stats.totalMinutes == 25, "zed's block is in zed's own feed")
        for slug in squatted { #expect(try await store.store.countdowns(inFeed: slug).isEmpty, "\(slug) received nothing") }
        let feed = try #require(try await store.store.feed(slug: started.feed))
        let squattersFeed = try #require(try await store.store.feed(slug: "focus"))
        #expect(feed.personId != nil && feed.personId != squattersFeed.personId, "owned by zed")

        // The feed is found again by its id, not by its name, and the squatter's statistics show nothing of zed's.
        #expect(try await zed.startFocus(tag: "Art").feed == started.feed)
        #expect(try await squatter.focusStatistics(period: .week).totalMinutes == 0)
    }
}
