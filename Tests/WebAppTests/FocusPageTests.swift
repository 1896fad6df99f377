@testable import FeedServer
import Foundation
import ServerTestSupport
import Testing

/// The focus page (issue #42) through the app's own forms: a session starts,
/// shows its timer from the server's instants, stops, and adds up.
struct FocusPageTests {
    @Test func aSessionStartsShowsItsTimerStopsAndAddsUp() async throws {
        let fixture = try ServerFixture()
        try await WebAppSignIn.withSignedInBrowser(fixture) { browser, _, _ in
            let empty = try await browser.get("/app/focus")
            #expect(empty.status == .ok && empty.text.contains("id=\"focus-start\"") && empty.text.contains("href=\"/app/focus\" aria-current=\"page\""))
            let started = try await browser.post("/app/focus", ["tag": "Maths", "minutes": "25", "mode": "down"])
            #expect(started.status == .seeOther, "\(started.text.prefix(300))")
            let running = try await browser.get("/app/focus")
            #expect(running.text.contains("id=\"focus-timer\"") && running.text.contains("data-remaining=\"1500\"") && running.text.contains(">25:00</p>"),
                    "\(running.text)")
            #expect(running.text.contains("Started: Maths."), "the flash")
            let again = try await browser.post("/app/focus", ["tag": "Art"])
            #expect(again.status == .seeOther)
            #expect(try await browser.get("/app/focus").text.contains("A session is already running: Maths."))
            #expect(try await browser.post("/app/focus/pause", [:]).status == .seeOther)
            #expect(try await browser.get("/app/focus").text.contains("data-paused=\"1\""))
            #expect(try await browser.post("/app/focus/resume", [:]).status == .seeOther)
            fixture.setClock(fixture.clockNow.addingTimeInterval(20 * 60))
            #expect(try await browser.post("/app/focus/stop", [:]).status == .seeOther)
            let after = try await browser.get("/app/focus?period=day")
            #expect(after.text.contains("Stopped: Maths, 20 min kept in your focus feed.") && after.text.contains("<th scope=\"row\"><span class=\"dot\""),
                    "\(after.text)")
            #expect(after.text.contains("<td>20 min</td>") && !after.text.contains("id=\"focus-timer\""))
            let earlier = try await browser.get("/app/focus?period=day&on=2000-01-01")
            #expect(earlier.text.contains("No focused time in this period yet.") && earlier.text.contains("rel=\"next\""), "another period, by the pager")
            #expect(try await browser.get("/app/focus?on=1066-10-14").status == .badRequest)
            let german = try await browser.get("/app/focus?lang=de")
            #expect(german.status == .ok)
        }
    }
}
