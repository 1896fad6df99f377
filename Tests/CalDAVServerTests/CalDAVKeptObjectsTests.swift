import Countdowns
import CountdownStore
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Services
import Testing

/// Issue #62: a CalDAV object is kept as its app wrote it (the countdown is
/// derived from it, never the other way round), and a task without a date is
/// kept, listed, searched and read back though it has nothing to count down to.
struct CalDAVKeptObjectsTests {
    /// What a task app writes: a calendar-level X-property, a folded line, a
    /// parameter tminus does not model, its own DTSTAMP and SEQUENCE, and no date at all.
    static let undatedTask = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Tasks app//EN\r\nX-WR-CALNAME:Chores\r\nBEGIN:VTODO\r\n"
        + "UID:milk@tasks\r\nDTSTAMP:19990101T010203Z\r\nSEQUENCE:3\r\nSUMMARY;X-APP-HINT=shopping:Buy milk and the other things on the \r\n list\r\n"
        + "STATUS:NEEDS-ACTION\r\nCREATED:20261101T090000Z\r\nX-APPLE-SORT-ORDER:42\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"

    static func event(_ uid: String, summary: String, stamp: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nX-WR-TIMEZONE:Europe/Berlin\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\n"
            + "DTSTAMP:\(stamp)\r\nSEQUENCE:3\r\nDTSTART;TZID=Europe/Berlin:20270314T100000\r\nDTEND;TZID=Europe/Berlin:20270314T113000\r\n"
            + "SUMMARY:\(summary)\r\nX-PHONE-COLOR;X-LEVEL=2:teal\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    static func query(_ filter: String, data: Bool = false) -> String {
        """
        <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>\(data ? "<c:calendar-data/>" : "")</d:prop>
        <c:filter><c:comp-filter name="VCALENDAR">\(filter)</c:comp-filter></c:filter></c:calendar-query>
        """
    }

    @Test func anObjectReadsBackByteForByteUntilItIsChangedElsewhere() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.dependencies.parts.service
            let anna = try await CalDAVRequests.annasNewCalendar(client, service, named: "work")
            let written = Self.event("review@work", summary: "Review", stamp: "20200202T020202Z")
            let put = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/review.ics", anna, written)
            #expect(put.status == 201)
            let got = try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/work/review.ics", anna)
            #expect(got.body == written, "read back as it was written: \(got.body)")
            #expect(put.headers[.eTag] != nil && put.headers[.eTag] == got.headers[.eTag], "the PUT's ETag is the object's")

            // A multiget answers the same bytes (escaped for XML), read by the names asked for.
            let multiget = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/work/", anna, """
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>
                <d:href>/dav/calendars/anna/work/review.ics</d:href><d:href>/dav/calendars/anna/work/missing.ics</d:href></c:calendar-multiget>
                """)
            #expect(multiget.body.contains("X-PHONE-COLOR;X-LEVEL=2:teal") && multiget.body.contains("DTSTAMP:20200202T020202Z"), "\(multiget.body)")
            #expect(multiget.body.contains("missing.ics</d:href><d:status>HTTP/1.1 404"), "\(multiget.body)")

            // Only the stamp changes: the countdown is the same, the bytes and their ETag are new, and a sync sees it.
            let token = try #require(CalDAVRequests.syncToken(try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/work/", anna,
                                                                                               CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: "")).body))
            let restamped = Self.event("review@work", summary: "Review", stamp: "20210303T030303Z")
            let again = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/review.ics", anna, restamped)
            #expect(again.status == 204 && again.headers[.eTag] != put.headers[.eTag])
            #expect(try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/work/review.ics", anna).body == restamped)
            let synced = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/work/", anna,
                                                       CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: token))
            #expect(synced.body.contains("review.ics"), "\(synced.body)")
            let relisted = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/work/", anna, Self.query("", data: true))
            #expect(relisted.body.contains("DTSTAMP:20210303T030303Z"), "a listing kept from before the new stamp is not answered: \(relisted.body)")

            // Changed in the web app: the object is written from the countdown again, with the change.
            var countdown = try #require(try await parts.store.countdowns(inFeed: "work").first)
            countdown.title = "Review (moved to room 2)"
            _ = try await service.update(countdown)
            let edited = try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/work/review.ics", anna)
            #expect(edited.body.contains("SUMMARY:Review (moved to room 2)") && edited.body.contains("X-PHONE-COLOR;X-LEVEL=2:teal"), "\(edited.body)")
            #expect(edited.headers[.eTag] != again.headers[.eTag])
            // A listing kept from before the edit is of an older revision: the next one reads the change.
            var deep = anna
            deep[HTTPField.Name("Depth")!] = "1"
            let listed = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/anna/work/", deep)
            let tag = try #require(edited.headers[.eTag]).replacingOccurrences(of: "\"", with: "")
            #expect(listed.body.contains(tag), "the listing has the new ETag \(tag): \(listed.body)")
        }
    }

    @Test func aTaskWithoutADateIsKeptListedFoundAndReadBack() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.dependencies.parts.service
            let anna = try await CalDAVRequests.annasNewCalendar(client, service, named: "chores")
            let before = try #require(CalDAVRequests.syncToken(try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/chores/", anna,
                                                                                                CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: "")).body))
            let put = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/chores/milk.ics", anna, Self.undatedTask)
            #expect(put.status == 201, "\(put.body)")
            let got = try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/chores/milk.ics", anna)
            #expect(got.status == 200 && got.body == Self.undatedTask, "byte for byte: \(got.body)")
            #expect(got.headers[.eTag] == put.headers[.eTag])

            // Listed as an object and among the feed's tasks, never as a countdown.
            var deep = anna
            deep[HTTPField.Name("Depth")!] = "1"
            let listing = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/anna/chores/", deep)
            #expect(listing.body.contains("/dav/calendars/anna/chores/milk.ics") && listing.body.contains("component=vtodo"), "\(listing.body)")
            #expect(try await service.undatedTasks(feed: "chores").map(\.title) == ["Buy milk and the other things on the list"])
            #expect(try await parts.store.countdowns(inFeed: "chores").isEmpty, "nothing to count down to")
            let json = try await client.execute(uri: "/feeds/chores.json?token=\(try await service.createFeedToken(feed: "chores", label: "t", visibility: .full).token)",
                                                method: .get)
            #expect(!String(buffer: json.body).contains("milk"), "absent from countdown outputs")
            var browser = Browser(client: client)
            try await browser.signIn("a long enough password", as: "anna")
            let page = try await browser.get("/app/feeds/chores").text
            #expect(page.contains("Tasks without a date") && page.contains("Buy milk and the other things on the list"), "\(page)")

            // Found by the searches task apps make; an event search or a property it lacks does not find it.
            for (filter, found) in [
                (#"<c:comp-filter name="VTODO"/>"#, true),
                (#"<c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter></c:comp-filter>"#, true),
                (#"<c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED"/></c:comp-filter>"#, false),
                (#"<c:comp-filter name="VTODO"><c:prop-filter name="SUMMARY"><c:text-match>MILK</c:text-match></c:prop-filter></c:comp-filter>"#, true),
                (#"<c:comp-filter name="VTODO"><c:time-range start="20261201T000000Z" end="20261208T000000Z"/></c:comp-filter>"#, true),
                // Created 1 November: a range that ends before it cannot hold it (RFC 4791 §9.9).
                (#"<c:comp-filter name="VTODO"><c:time-range start="20261001T000000Z" end="20261008T000000Z"/></c:comp-filter>"#, false),
                (#"<c:comp-filter name="VEVENT"/>"#, false),
            ] {
                let answer = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/chores/", anna, Self.query(filter))
                #expect(answer.status == 207 && answer.body.contains("milk.ics") == found, "\(filter): \(answer.body)")
            }
            let withData = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/chores/", anna,
                                                         Self.query(#"<c:comp-filter name="VTODO"/>"#, data: true))
            #expect(withData.body.contains("X-APPLE-SORT-ORDER:42") && withData.body.contains("SEQUENCE:3"), "\(withData.body)")
            let synced = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/chores/", anna,
                                                       CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: before))
            #expect(synced.body.contains("milk.ics") && synced.body.contains((put.headers[.eTag] ?? "-").replacingOccurrences(of: "\"", with: "")), "\(synced.body)")

            // Given a date, it becomes a countdown; the date taken away, it is a task without one again.
            let due = Self.undatedTask.replacingOccurrences(of: "STATUS:", with: "DUE;VALUE=DATE:20261224\r\nSTATUS:")
            let dated = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/chores/milk.ics", anna, due)
            #expect(dated.status == 204, "\(dated.body)")
            #expect(try await parts.store.countdowns(inFeed: "chores").map(\.title) == ["Buy milk and the other things on the list"])
            #expect(try await service.undatedTasks(feed: "chores").isEmpty)
            #expect(try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/chores/milk.ics", anna).body == due)
            #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/chores/milk.ics", anna, Self.undatedTask).status == 204)
            #expect(try await parts.store.countdowns(inFeed: "chores").isEmpty)
            #expect(try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/chores/milk.ics", anna).body == Self.undatedTask)

            // A stale If-Match changes nothing; a DELETE removes it, and a sync says so.
            var staleMatch = anna
            staleMatch[.ifMatch] = "\"stale\""
            let stale = try await CalDAVRequests.send(client, .delete, "/dav/calendars/anna/chores/milk.ics", staleMatch)
            #expect(stale.status == 412)
            let middle = try #require(CalDAVRequests.syncToken(try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/chores/", anna,
                                                                                                CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: "")).body))
            #expect(try await CalDAVRequests.send(client, .delete, "/dav/calendars/anna/chores/milk.ics", anna).status == 204)
            #expect(try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/chores/milk.ics", anna).status == 404)
            let gone = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/chores/", anna,
                                                     CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: middle))
            #expect(gone.body.contains("milk.ics</d:href><d:status>HTTP/1.1 404"), "\(gone.body)")
            #expect(try await service.undatedTasks(feed: "chores").isEmpty)
        }
    }

    /// python-caldav's suite found it: a calendar deleted and made again at the same address
    /// reached the revision the old one was listed at, and the old listing was answered.
    @Test func aCalendarMadeAgainAtTheSameAddressIsListedAfresh() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let anna = try await CalDAVRequests.annasNewCalendar(client, parts.dependencies.parts.service, named: "tasks")
            var deep = anna
            deep[HTTPField.Name("Depth")!] = "1"
            #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/tasks/old.ics", anna, CalDAVRequests.event("old@tasks", "Old")).status == 201)
            let before = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/anna/tasks/", deep)
            #expect(before.body.contains("old.ics"))
            #expect(try await CalDAVRequests.send(client, .delete, "/dav/calendars/anna/tasks/", anna).status == 204)
            #expect(try await CalDAVRequests.send(client, CalDAVRequests.mkcalendar, "/dav/calendars/anna/tasks/", anna).status == 201)
            #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/tasks/new.ics", anna, CalDAVRequests.event("new@tasks", "New")).status == 201)
            let after = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/anna/tasks/", deep)
            #expect(after.body.contains("new.ics") && !after.body.contains("old.ics"), "\(after.body)")
            let week = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/tasks/", anna,
                                                     Self.query(#"<c:comp-filter name="VEVENT"><c:time-range start="20270301T000000Z" end="20270401T000000Z"/></c:comp-filter>"#))
            #expect(week.body.contains("new.ics") && !week.body.contains("old.ics"), "\(week.body)")
        }
    }

    @Test func anEventWithoutAStartAndATaskWithoutAUIDAreStillRefused() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let anna = try await CalDAVRequests.annasNewCalendar(client, parts.dependencies.parts.service, named: "work")
            let event = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:x@work\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:When?\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let refused = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/x.ics", anna, event)
            #expect(refused.status == 400 && refused.body.contains("valid-calendar-object-resource") && refused.body.contains("no DTSTART"), "\(refused.body)")
            let noUID = Self.undatedTask.replacingOccurrences(of: "UID:milk@tasks\r\n", with: "")
            let task = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/y.ics", anna, noUID)
            #expect(task.status == 400 && task.body.contains("needs a UID"), "\(task.body)")
        }
    }
}
