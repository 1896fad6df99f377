import Countdowns
import CountdownStore
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ICalendar
import ServerTestSupport
import Services
import Testing

/// CalDAV through the whole server on loopback (issue #38): app passwords
/// and who may write, objects named as clients name them, the change log as
/// sync-collection, and the answers that compile nothing.
struct CalDAVTests {
    @Test func aViewersAppReadsAndIsRefusedEveryWriteAndARevokedPasswordStops() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.dependencies.parts.service
            for login in ["anna", "ben"] { try await service.addPerson(login: login, password: "a long enough password", cost: 4) }
            try await service.createSpace(slug: "family", name: "Family", owner: "anna")
            try await service.createFeed(Feed(slug: "birthdays", name: "Birthdays", isPublic: false), inSpace: "family")
            try await service.setMember(space: "family", login: "ben", role: .viewer, replacing: false)
            let anna = CalDAVRequests.basic("anna", try await service.createAppPassword(login: "anna", label: "Anna's iPhone").secret)
            let (benSecret, benPassword) = try await service.createAppPassword(login: "ben", label: "Ben's laptop")
            let ben = CalDAVRequests.basic("ben", benSecret)

            let put = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/birthdays/grandma.ics", anna, CalDAVRequests.event("grandma@family", "Grandma"))
            #expect(put.status == 201, "\(put.body)")
            let stored = try #require(try await parts.store.countdowns(inFeed: "birthdays").first)
            #expect(stored.title == "Grandma" && stored.changedBy == "anna via Anna's iPhone", "the history names the app: \(stored.changedBy ?? "")")
            let home = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/ben/", CalDAVRequests.basic("ben", benSecret, depth: "1"))
            #expect(home.status == 207 && home.body.contains("/dav/calendars/ben/birthdays/"), "a space's feed is in the viewer's home")
            let got = try await CalDAVRequests.send(client, .get, "/dav/calendars/ben/birthdays/grandma.ics", ben)
            #expect(got.status == 200 && got.body.contains("X-CLIENT-ONLY:kept as it came") && !got.body.contains("METHOD:"), "\(got.body)")

            for (method, path, body) in [(HTTPRequest.Method.put, "/dav/calendars/ben/birthdays/grandma.ics", CalDAVRequests.event("grandma@family", "Changed")),
                                         (.delete, "/dav/calendars/ben/birthdays/grandma.ics", nil),
                                         (CalDAVRequests.proppatch, "/dav/calendars/ben/birthdays/",
                                          #"<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Mine</d:displayname></d:prop></d:set></d:propertyupdate>"#)] {
                let refused = try await CalDAVRequests.send(client, method, path, ben, body)
                #expect(refused.status == 403 && refused.body.contains("need-privileges"), "\(method) \(refused.status) \(refused.body)")
            }
            #expect(try await parts.store.countdowns(inFeed: "birthdays").map(\.title) == ["Grandma"], "nothing changed")

            #expect(try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/anna/", ben).status == 404, "another person's home is not there")
            #expect(try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/", CalDAVRequests.basic("ben", "a long enough password")).status == 401, "never the web password")
            let token = try await service.createPersonToken(login: "ben", label: "script", readOnly: false).secret
            #expect(try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/", CalDAVRequests.basic("ben", token)).status == 401, "nor an API token")
            #expect(try await CalDAVRequests.send(client, .get, "/api/me", [.authorization: "Bearer \(benSecret)"]).status == 401, "nor an app password on the API")
            try await service.revokePersonToken(login: "ben", id: try #require(benPassword.id))
            #expect(try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/", ben).status == 401, "a revoked app password stops at the next request")
        }
    }

    @Test func objectsKeepTheirNamesAndSyncReadsTheChangeLog() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.dependencies.parts.service
            try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
            let anna = CalDAVRequests.basic("anna", try await service.createAppPassword(login: "anna", label: "phone").secret)
            // Apple's collection names are upper-case UUIDs: the feed's address is made from it, the display name kept.
            let made = try await CalDAVRequests.send(client, CalDAVRequests.mkcalendar, "/dav/calendars/anna/7D0C1E2A-AAAA-4BBB-8CCC-0123456789AB/", anna, """
                <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop>
                <d:displayname>Work</d:displayname><a:calendar-color>#FF8800FF</a:calendar-color></d:prop></d:set></c:mkcalendar>
                """)
            #expect(made.status == 201, "\(made.body)")
            let feed = try #require(try await parts.store.feed(slug: "7d0c1e2a-aaaa-4bbb-8ccc-0123456789ab"))
            #expect(feed.feed.name == "Work" && feed.feed.color == "#FF8800" && feed.personId != nil)
            let calendar = "/dav/calendars/anna/7D0C1E2A-AAAA-4BBB-8CCC-0123456789AB/"

            let first = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: ""))
            let token = try #require(first.body.range(of: "http://tminus.invalid/sync/[0-9]+", options: .regularExpression).map { String(first.body[$0]) })
            #expect(try await CalDAVRequests.send(client, .put, calendar + "CLIENT-NAME-1.ics", anna, CalDAVRequests.event("a/b@work", "Review")).status == 201)
            #expect(try await CalDAVRequests.send(client, .put, calendar + "CLIENT-NAME-2.ics", anna, CalDAVRequests.event("a/b@work", "Twin")).status == 409,
                    "a second object with that UID")
            var deep = anna
            deep[HTTPField.Name("Depth")!] = "1"
            let listing = try await CalDAVRequests.send(client, CalDAVRequests.propfind, calendar, deep)
            #expect(listing.body.contains(calendar + "CLIENT-NAME-1.ics"), "the client's name is kept and answered")
            try await service.add(Countdown(uid: "made@tminus", title: "Made in tminus", target: .date(CivilDate(year: 2027, month: 5, day: 1))),
                                  toFeed: feed.feed.slug)
            let misses = parts.catalog.statistics.misses
            let changed = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: token))
            #expect(changed.status == 207 && changed.body.contains("CLIENT-NAME-1.ics") && changed.body.contains("made%40tminus.ics"),
                    "\(changed.body)")
            let newToken = try #require(changed.body.range(of: "http://tminus.invalid/sync/[0-9]+", options: .regularExpression).map { String(changed.body[$0]) })
            _ = try #require(changed.body.range(of: "&quot;[0-9a-f]+&quot;", options: .regularExpression), "each changed object with its ETag")
            let nothing = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: newToken))
            #expect(!nothing.body.contains("<d:response>") && nothing.body.contains(newToken), "nothing new: the same token")
            #expect(parts.catalog.statistics.misses == misses && parts.catalog.statistics.feeds == 0, "sync compiled nothing")

            var stale = anna
            stale[.ifMatch] = "\"not-the-etag\""
            #expect(try await CalDAVRequests.send(client, .delete, calendar + "CLIENT-NAME-1.ics", stale).status == 412)
            let deleted = try await CalDAVRequests.send(client, .delete, calendar + "made%40tminus.ics", anna)
            #expect(deleted.status == 204)
            let gone = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: newToken))
            #expect(gone.body.contains("made%40tminus.ics") && gone.body.contains("404 Not Found"), "a deletion is a 404 in the next sync: \(gone.body)")
            let forged = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: "http://tminus.invalid/sync/999999"))
            #expect(forged.status == 403 && forged.body.contains("valid-sync-token"))
        }
    }

    /// What the compatibility run asks beyond syncing: property filters,
    /// free-busy, a principal search that finds only oneself, a sync in
    /// pages (DAV:limit), and a journal refused as a component tminus does not keep.
    /// Regression (issue #62, 3): a PUT with SEQUENCE:3 read back SEQUENCE:0, and an edit bumped it
    /// whatever the app wrote. The app's SEQUENCE, CREATED and LAST-MODIFIED are kept as written.
    @Test func anObjectKeepsTheSequenceAndStampsItsAppWrote() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let anna = try await CalDAVRequests.annasNewCalendar(client, parts.dependencies.parts.service, named: "work")
            func written(_ summary: String, sequence: Int) -> String {
                CalDAVRequests.event("seq@work", summary).replacingOccurrences(of: "SUMMARY:", with:
                    "SEQUENCE:\(sequence)\r\nCREATED:20250101T080000Z\r\nLAST-MODIFIED:20250102T080000Z\r\nSUMMARY:")
            }
            #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/seq.ics", anna, written("Review", sequence: 3)).status == 201)
            let read = try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/work/seq.ics", anna).body
            #expect(read.contains("SEQUENCE:3\r\n") && read.contains("CREATED:20250101T080000Z") && read.contains("LAST-MODIFIED:20250102T080000Z"), "\(read)")
            // An edit the app did not count as significant keeps its number; the next one it counts does.
            #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/seq.ics", anna, written("Review (room 2)", sequence: 3)).status == 204)
            #expect(try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/work/seq.ics", anna).body.contains("SEQUENCE:3\r\n"))
            #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/seq.ics", anna, written("Review (room 2)", sequence: 4)).status == 204)
            let bumped = try await CalDAVRequests.send(client, .get, "/dav/calendars/anna/work/seq.ics", anna).body
            #expect(bumped.contains("SEQUENCE:4\r\n") && bumped.contains("room 2"), "\(bumped)")
        }
    }

    @Test func searchesFreeBusyAndPagedSync() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.dependencies.parts.service
            try await service.addPerson(login: "anna", displayName: "Anna Example", password: "a long enough password", cost: 4)
            try await service.addPerson(login: "ben", password: "a long enough password", cost: 4)
            let anna = CalDAVRequests.basic("anna", try await service.createAppPassword(login: "anna", label: "phone").secret)
            #expect(try await CalDAVRequests.send(client, CalDAVRequests.mkcalendar, "/dav/calendars/anna/work/", anna).status == 201)
            // A taken address: 405 with RFC 4791's precondition, and the calendar there is untouched.
            let again = try await CalDAVRequests.send(client, CalDAVRequests.mkcalendar, "/dav/calendars/anna/work/", anna, """
                <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>
                <d:displayname>Other</d:displayname></d:prop></d:set></c:mkcalendar>
                """)
            #expect(again.status == 405 && again.body.contains("resource-must-be-null"))
            #expect(try await service.requireFeed(slug: "work").feed.name != "Other")
            for (uid, summary) in [("one@work", "Quarterly Review"), ("two@work", "Lunch"), ("three@work", "Review the budget")] {
                #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/\(uid).ics", anna, CalDAVRequests.event(uid, summary)).status == 201)
            }
            let query = """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>
                <c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:prop-filter name="SUMMARY"><c:text-match>review</c:text-match>
                </c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
                """
            let found = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/work/", anna, query)
            #expect(found.body.contains("one%40work.ics") && found.body.contains("three%40work.ics") && !found.body.contains("two%40work.ics"), "\(found.body)")

            let meeting = CalDAVRequests.event("meeting@work", "Meeting").replacingOccurrences(of: "SUMMARY:", with: "DTEND:20270314T113000Z\r\nSUMMARY:")
            #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/meeting.ics", anna, meeting).status == 201)
            let busy = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/work/", anna, """
                <c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20270314T000000Z" end="20270315T000000Z"/></c:free-busy-query>
                """)
            #expect(busy.status == 200 && busy.body.contains("BEGIN:VFREEBUSY") && busy.body.contains("FREEBUSY:20270314T100000Z/20270314T113000Z"),
                    "an event with an end is busy; one without takes no time: \(busy.body)")

            let search = #"<d:principal-property-search xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:property-search><d:prop><d:displayname/></d:prop><d:match>anna</d:match></d:property-search><d:prop><d:displayname/><c:calendar-home-set/></d:prop></d:principal-property-search>"#
            let principals = try await CalDAVRequests.send(client, CalDAVRequests.report, "/", anna, search)
            #expect(principals.body.contains("/dav/principals/anna/") && principals.body.contains("Anna Example") && !principals.body.contains("ben"))

            let paged = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/work/", anna, """
                <d:sync-collection xmlns:d="DAV:"><d:sync-token>http://tminus.invalid/sync/0</d:sync-token><d:sync-level>1</d:sync-level>
                <d:limit><d:nresults>2</d:nresults></d:limit><d:prop><d:getetag/></d:prop></d:sync-collection>
                """)
            #expect(paged.body.components(separatedBy: ".ics</d:href>").count == 3 && paged.body.contains("507 Insufficient Storage"), "\(paged.body)")
            let next = try #require(paged.body.range(of: "http://tminus.invalid/sync/[0-9]+", options: .regularExpression).map { String(paged.body[$0]) })
            let rest = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/work/", anna, CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: next))
            #expect(rest.body.contains("three%40work.ics") && rest.body.contains("meeting") && !rest.body.contains("507"), "the next page: \(rest.body)")

            let journal = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nBEGIN:VJOURNAL\r\nUID:j@work\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Notes\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n"
            let refused = try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/work/j.ics", anna, journal)
            #expect(refused.status == 403 && refused.body.contains("supported-calendar-component"), "\(refused.body)")
        }
    }

    @Test func basicOverPlainHTTPIsTakenFromLoopbackOnly() async throws {
        // In router mode a request has no peer address: as from another machine.
        let fixture = try ServerFixture(transport: .router)
        try await fixture.withServer(adjust: { _ in }) { client, _ in
            let refused = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/", CalDAVRequests.basic("anna", "abcd-efgh-jkmn-pqrs-tuvw"))
            #expect(refused.status == 403 && refused.body.contains("use https"), "\(refused.body)")
            let options = try await CalDAVRequests.send(client, .options, "/dav/", [:])
            #expect(options.status == 200 && options.headers[HTTPField.Name("DAV")!]?.contains("calendar-access") == true)
            let wellKnown = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/.well-known/caldav", [:])
            #expect(wellKnown.status == 301 && wellKnown.headers[.location] == "/dav/")
        }
    }
}
