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

/// What shared calendars need (issue #62), through the whole server on
/// loopback, each person with their own calendar app: alarms that are each
/// person's own, and a member who sees busy time only.
struct CalDAVSharedCalendarTests {
    static let object = "/dav/calendars/LOGIN/family/dinner.ics"

    static func dinner(summary: String = "Sunday dinner at Grandma's", stamp: String = "20260101T000000Z", alarm: String? = nil) -> String {
        let valarm = alarm.map { "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:\($0)\r\nEND:VALARM\r\n" } ?? ""
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nBEGIN:VEVENT\r\nUID:dinner@family.example\r\nDTSTAMP:\(stamp)\r\n"
            + "DTSTART:20270314T170000Z\r\nDTEND:20270314T190000Z\r\nRRULE:FREQ=WEEKLY;COUNT=10\r\nSUMMARY:\(summary)\r\n"
            + "LOCATION:12 Elm Street\r\nDESCRIPTION:Bring the pie\r\n\(valarm)END:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// Anna owns the space, Carl edits, Ben views, Dora sees busy time only; each with an app password.
    static func family(_ service: CountdownService) async throws -> [String: HTTPFields] {
        for login in ["anna", "ben", "carl", "dora"] { try await service.addPerson(login: login, password: "a long enough password", cost: 4) }
        try await service.createSpace(slug: "family", name: "Family", owner: "anna")
        try await service.createFeed(Feed(slug: "family", name: "Family", isPublic: false), inSpace: "family")
        for (login, role) in [("ben", SpaceRole.viewer), ("carl", .editor), ("dora", .busy)] {
            try await service.setMember(space: "family", login: login, role: role, replacing: false)
        }
        var apps: [String: HTTPFields] = [:]
        for login in ["anna", "ben", "carl", "dora"] {
            apps[login] = CalDAVRequests.basic(login, try await service.createAppPassword(login: login, label: "phone").secret)
        }
        return apps
    }

    static func path(_ login: String) -> String { object.replacingOccurrences(of: "LOGIN", with: login) }

    @Test func aViewersOwnAlarmOnASpacesEventReachesOnlyThatViewersClient() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.dependencies.parts.service
            let apps = try await Self.family(service)
            let (anna, ben, carl) = (apps["anna"]!, apps["ben"]!, apps["carl"]!)
            #expect(try await CalDAVRequests.send(client, .put, Self.path("anna"), anna, Self.dinner()).status == 201)
            let annaToken = try #require(CalDAVRequests.syncToken(try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/family/", anna,
                                                                                                    CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: "")).body))
            let benToken = try #require(CalDAVRequests.syncToken(try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/ben/family/", ben,
                                                                                                   CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: "")).body))
            let before = try await CalDAVRequests.send(client, .get, Self.path("ben"), ben)
            let shared = try #require(before.headers[.eTag])

            // Ben's app lists what he may do: read, and change what is in the objects (his alarms).
            let privileges = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/ben/family/", ben.depth("0"),
                                                           #"<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-privilege-set/></d:prop></d:propfind>"#)
            #expect(privileges.body.contains("write-content") && !privileges.body.contains("<d:bind"), "\(privileges.body)")

            // Ben adds an alarm (his app also writes a new DTSTAMP, as apps do): kept for him alone.
            var headers = ben
            headers[.ifMatch] = shared
            let added = try await CalDAVRequests.send(client, .put, Self.path("ben"), headers, Self.dinner(stamp: "20261204T101010Z", alarm: "-PT30M"))
            #expect(added.status == 204, "\(added.body)")
            let benETag = try #require(added.headers[.eTag])
            #expect(benETag != shared)
            let his = try await CalDAVRequests.send(client, .get, Self.path("ben"), ben)
            #expect(his.body.contains("TRIGGER:-PT30M") && his.headers[.eTag] == benETag && his.body.contains("SUMMARY:Sunday dinner"), "\(his.body)")
            for (login, app) in [("anna", anna), ("carl", carl)] {
                let theirs = try await CalDAVRequests.send(client, .get, Self.path(login), app)
                #expect(!theirs.body.contains("VALARM") && theirs.headers[.eTag] == shared, "\(login) sees no alarm: \(theirs.body)")
                let listed = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/\(login)/family/", app, Self.query)
                #expect(listed.status == 207 && listed.body.contains("Sunday dinner") && !listed.body.contains("VALARM"), "\(login)'s query: \(listed.body)")
            }
            let benQuery = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/ben/family/", ben, Self.query)
            #expect(benQuery.body.contains("TRIGGER:-PT30M") && benQuery.body.contains(benETag.trimmingCharacters(in: ["\""])), "Ben's query has his alarm: \(benQuery.body)")

            // Ben's other devices learn of it by sync; Anna's sync has nothing new.
            let benSync = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/ben/family/", ben,
                                                        CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: benToken))
            #expect(benSync.body.contains("dinner.ics") && benSync.body.contains(benETag.trimmingCharacters(in: ["\""])), "\(benSync.body)")
            let benNext = try #require(CalDAVRequests.syncToken(benSync.body))
            #expect(benNext != benToken)
            let again = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/ben/family/", ben,
                                                      CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: benNext))
            #expect(!again.body.contains("dinner.ics"), "nothing since: \(again.body)")
            let annaSync = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/anna/family/", anna,
                                                         CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: annaToken))
            #expect(!annaSync.body.contains("dinner.ics") && CalDAVRequests.syncToken(annaSync.body) == annaToken, "\(annaSync.body)")

            // A change to the event itself is still an editor's: Ben's is refused and changes nothing.
            let renamed = try await CalDAVRequests.send(client, .put, Self.path("ben"), ben, Self.dinner(summary: "Ben's dinner", alarm: "-PT30M"))
            #expect(renamed.status == 403 && renamed.body.contains("need-privileges"), "\(renamed.status) \(renamed.body)")
            #expect(try await parts.store.countdowns(inFeed: "family").map(\.title) == ["Sunday dinner at Grandma's"])

            // Carl renames it and sets his own alarm: the new title is everyone's, his alarm his, and Ben keeps his.
            let carls = try await CalDAVRequests.send(client, .put, Self.path("carl"), carl, Self.dinner(summary: "Family dinner", alarm: "-P1D"))
            #expect(carls.status == 204, "\(carls.body)")
            let carlReads = try await CalDAVRequests.send(client, .get, Self.path("carl"), carl)
            #expect(carlReads.body.contains("Family dinner") && carlReads.body.contains("TRIGGER:-P1D") && carls.headers[.eTag] == carlReads.headers[.eTag],
                    "\(carlReads.body)")
            let benReads = try await CalDAVRequests.send(client, .get, Self.path("ben"), ben)
            #expect(benReads.body.contains("Family dinner") && benReads.body.contains("TRIGGER:-PT30M") && !benReads.body.contains("-P1D"), "\(benReads.body)")
            let annaReads = try await CalDAVRequests.send(client, .get, Self.path("anna"), anna)
            #expect(annaReads.body.contains("Family dinner") && !annaReads.body.contains("VALARM"), "\(annaReads.body)")

            // Ben silences his again (writes it without alarms, as he reads it otherwise): he sees what everyone does.
            var silence = ben
            silence[.ifMatch] = benReads.headers[.eTag]
            let plain = annaReads.body
            #expect(try await CalDAVRequests.send(client, .put, Self.path("ben"), silence, plain).status == 204)
            let benPlain = try await CalDAVRequests.send(client, .get, Self.path("ben"), ben)
            #expect(!benPlain.body.contains("VALARM") && benPlain.headers[.eTag] == annaReads.headers[.eTag], "\(benPlain.body)")

            // The object deleted: every person's own part goes with it.
            #expect(try await CalDAVRequests.send(client, .delete, Self.path("anna"), anna).status == 204)
            let left = try await parts.store.read { reader in
                try await reader.personalObjectRows(PersonalObjectQuery(personId: try #require(try await reader.personRows(.login("carl")).first?.id),
                                                                        feedId: try #require(try await reader.feedRow(slug: "family")?.id)))
            }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test func aBusyMembersClientSeesBusyBlocksWithoutTitles() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = parts.dependencies.parts.service
            let apps = try await Self.family(service)
            let (anna, dora) = (apps["anna"]!, apps["dora"]!)
            #expect(try await CalDAVRequests.send(client, .put, Self.path("anna"), anna, Self.dinner()).status == 201)
            let secret = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nBEGIN:VTODO\r\nUID:surprise-party@family.example\r\nDTSTAMP:20260101T000000Z\r\n"
                + "SUMMARY:Plan Dora's surprise party\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            #expect(try await CalDAVRequests.send(client, .put, "/dav/calendars/anna/family/party-plan.ics", anna, secret).status == 201)

            let home = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/dora/", dora.depth("1"))
            #expect(home.status == 207 && home.body.contains("/dav/calendars/dora/family/"), "the space's calendar is in her home: \(home.body)")
            let listing = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/dora/family/", dora.depth("1"))
            #expect(listing.status == 207 && !listing.body.contains("dinner") && !listing.body.contains("party") && listing.body.contains("redacted-"),
                    "names made from hashes, not the apps' names or UIDs: \(listing.body)")
            #expect(!listing.body.contains("<d:write"), "read only: \(listing.body)")

            let query = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/dora/family/", dora, Self.query)
            #expect(query.status == 207 && query.body.contains("SUMMARY:Busy") && query.body.contains("DTSTART:20270314T170000Z")
                    && query.body.contains("RRULE:FREQ=WEEKLY;COUNT=10"), "\(query.body)")
            for word in ["Grandma", "Elm Street", "pie", "dinner@family", "surprise", "X-CLIENT"] {
                #expect(!query.body.contains(word), "no \(word) for a busy-only member")
            }
            let byTitle = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/dora/family/", dora, """
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>
                <c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:prop-filter name="SUMMARY"><c:text-match>Grandma</c:text-match>
                </c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
                """)
            #expect(byTitle.status == 207 && !byTitle.body.contains("<d:response>"), "a search by title finds nothing: \(byTitle.body)")
            let freeBusy = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/dora/family/", dora, """
                <c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20270321T000000Z" end="20270322T000000Z"/></c:free-busy-query>
                """)
            #expect(freeBusy.status == 200 && freeBusy.body.contains("FREEBUSY:20270321T170000Z/20270321T190000Z"), "\(freeBusy.body)")

            let href = try #require(listing.body.range(of: "/dav/calendars/dora/family/redacted-[^<]+", options: .regularExpression).map { String(listing.body[$0]) })
            let got = try await CalDAVRequests.send(client, .get, href, dora)
            #expect(got.status == 200 && got.body.contains("SUMMARY:Busy") && !got.body.contains("Grandma"), "\(got.body)")
            #expect(try await CalDAVRequests.send(client, .get, Self.path("dora"), dora).status == 404, "not under the name the app gave it")
            let put = try await CalDAVRequests.send(client, .put, Self.path("dora"), dora, Self.dinner(alarm: "-PT5M"))
            #expect(put.status == 403 && put.body.contains("need-privileges"), "\(put.status) \(put.body)")
            let sync = try await CalDAVRequests.send(client, CalDAVRequests.report, "/dav/calendars/dora/family/", dora,
                                                     CalDAVRequests.sync.replacingOccurrences(of: "TOKEN", with: ""))
            #expect(sync.status == 207 && sync.body.contains("redacted-") && !sync.body.contains("dinner") && !sync.body.contains("party"), "\(sync.body)")
            #expect(try await parts.store.countdowns(inFeed: "family").map(\.title) == ["Sunday dinner at Grandma's"], "nothing changed")
        }
    }

    static let query = """
        <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>
        <c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>
        """
}

extension HTTPFields {
    /// These fields with a `Depth` header.
    func depth(_ depth: String) -> HTTPFields {
        var fields = self
        fields[HTTPField.Name("Depth")!] = depth
        return fields
    }
}
