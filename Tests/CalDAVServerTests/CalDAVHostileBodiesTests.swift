import CalDAV
@testable import CalDAVServer
import Countdowns
@testable import FeedServer
import Foundation
import HTTPSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ICalendar
import ServerTestSupport
import Services
import Testing

/// The third audit's CalDAV bodies (issue #59) sent through the whole server
/// on loopback with a read-only app password: each is answered 400 and the
/// server goes on answering.
struct CalDAVHostileBodiesTests {
    static let bodies: [(String, Data)] = [
        ("unclosed declaration", Data(#"<?xml version="1.0" <d:propfind xmlns:d="DAV:"><?x?><d:prop/></d:propfind>"#.utf8)),
        ("UTF-16LE", Data(#"<d:propfind xmlns:d="DAV:"><d:prop/></d:propfind>"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })),
        ("UTF-16BE", Data(#"<d:propfind xmlns:d="DAV:"><d:prop/></d:propfind>"#.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })),
        ("UTF-7", Data(#"<?xml version="1.0" encoding="UTF-7"?><d:propfind xmlns:d="DAV:"><d:prop/></d:propfind>"#.utf8)),
        ("2,000 properties", Data((#"<d:propfind xmlns:d="DAV:" xmlns:x="urn:x"><d:prop>"# + (0..<2000).map { "<x:p\($0)/>" }.joined() + "</d:prop></d:propfind>").utf8)),
    ]

    /// Anna, with her space's calendar `family` (private, empty).
    static func annasFamilyCalendar(_ service: CountdownService) async throws -> CountdownService {
        try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        try await service.createSpace(slug: "home", name: "Home", owner: "anna")
        try await service.createFeed(Feed(slug: "family", name: "Family", isPublic: false), inSpace: "home")
        return service
    }

    /// Anna's family calendar and her phone's headers (Depth 1).
    static func annasFamilyApp(_ service: CountdownService) async throws -> HTTPFields {
        let service = try await annasFamilyCalendar(service)
        return CalDAVRequests.basic("anna", try await service.createAppPassword(login: "anna", label: "phone").secret, depth: "1")
    }

    /// Regression (issue #59, 1): one PROPFIND with an unclosed declaration killed the server (SIGSEGV in FoundationXML).
    @Test func hostileBodiesAreRefusedAndTheServerStaysUp() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = try await Self.annasFamilyCalendar(parts.dependencies.parts.service)
            let secret = try await service.createAppPassword(login: "anna", label: "old phone", readOnly: true).secret
            let headers = CalDAVRequests.basic("anna", secret, depth: "0")
            for (name, body) in Self.bodies {
                for method in [CalDAVRequests.propfind, CalDAVRequests.report, CalDAVRequests.proppatch, CalDAVRequests.mkcalendar] {
                    let path = method == CalDAVRequests.mkcalendar ? "/dav/calendars/anna/new/" : "/dav/calendars/anna/family/"
                    let response = try await client.execute(uri: path, method: method, headers: headers, body: ByteBuffer(bytes: body))
                    #expect(response.status == .badRequest, "\(name), \(method): \(response.status) \(String(buffer: response.body))")
                    #expect(response.body.readableBytes < 1024, "\(name): a short refusal")
                }
            }
            let still = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/anna/family/", headers,
                                                   #"<d:propfind xmlns:d="DAV:"><d:prop><d:displayname/></d:prop></d:propfind>"#)
            #expect(still.status == 207 && still.body.contains("Family"), "the server still answers: \(still.status)")
        }
    }

    /// Regression (issue #59, 2): unknown namespaces are declared once on the multistatus, not on every property.
    @Test func anUnknownNamespaceIsWrittenOnce() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = try await Self.annasFamilyCalendar(parts.dependencies.parts.service)
            for day in 1...20 {
                try await service.add(Countdown(uid: "d\(day)@t", title: "Day \(day)", target: .date(CivilDate(year: 2027, month: 1, day: day))), toFeed: "family")
            }
            let secret = try await service.createAppPassword(login: "anna", label: "phone").secret
            let namespace = "urn:" + String(repeating: "n", count: 1000)
            let properties = (0..<100).map { "<x:p\($0)/>" }.joined()
            let body = #"<d:propfind xmlns:d="DAV:" xmlns:x="\#(namespace)"><d:prop>\#(properties)</d:prop></d:propfind>"#
            let answer = try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/calendars/anna/family/", CalDAVRequests.basic("anna", secret, depth: "1"), body)
            #expect(answer.status == 207)
            #expect(answer.body.components(separatedBy: namespace).count - 1 == 1, "the namespace once")
            #expect(answer.body.utf8.count < 100 * 1024, "21 resources × 100 missing properties: \(answer.body.utf8.count) bytes")
        }
    }

    static func query(expand: (String, String)? = nil, range: (String, String)? = nil) -> String {
        let expandElement = expand.map { #"<c:calendar-data><c:expand start="\#($0.0)" end="\#($0.1)"/></c:calendar-data>"# } ?? ""
        let rangeElement = range.map { #"<c:time-range start="\#($0.0)" end="\#($0.1)"/>"# } ?? ""
        return #"<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>\#(expandElement)</d:prop>"#
            + #"<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">\#(rangeElement)</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"#
    }

    /// Regression (issue #59, 4 and 6): an expand over 10,000 years answered 1.2 million instances (319 MB), and
    /// time ranges in the year 9000 stalled the server. Calendars announce their bounds; an expand outside them is
    /// refused, an answer's instances are capped in all, and a range beyond them matches nothing without expanding.
    @Test func expandAndTimeRangesStayWithinTheAnnouncedBounds() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let service = try await Self.annasFamilyCalendar(parts.dependencies.parts.service)
            for day in 1...5 {
                try await service.add(Countdown(uid: "b\(day)@t", title: "Birthday \(day)", target: .date(CivilDate(year: 1950, month: 1, day: 1 + day % 28)),
                                                repeatRule: .every(interval: 1, unit: .year, clamp: false)), toFeed: "family")
            }
            let anna = CalDAVRequests.basic("anna", try await service.createAppPassword(login: "anna", label: "phone").secret, depth: "1")
            let calendar = "/dav/calendars/anna/family/"
            let announced = try await CalDAVRequests.send(client, CalDAVRequests.propfind, calendar, CalDAVRequests.basic("anna", try await service.createAppPassword(login: "anna", label: "x").secret, depth: "0"),
                                                       #"<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:min-date-time/><c:max-date-time/></d:prop></d:propfind>"#)
            #expect(announced.body.contains("<c:min-date-time>19000101T000000Z</c:min-date-time>") && announced.body.contains("<c:max-date-time>22000101T000000Z</c:max-date-time>"))

            let ever = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, Self.query(expand: ("00010101T000000Z", "99991231T000000Z")))
            #expect(ever.status == 403 && ever.body.contains("min-date-time"), "\(ever.status) \(ever.body.prefix(300))")
            let later = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, Self.query(expand: ("20260101T000000Z", "99991231T000000Z")))
            #expect(later.status == 403 && later.body.contains("max-date-time"))
            let year = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, Self.query(expand: ("20270101T000000Z", "20280101T000000Z")))
            #expect(year.status == 207 && year.body.components(separatedBy: "BEGIN:VEVENT").count - 1 == 5, "one instance of each in 2027")

            let far = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, Self.query(range: ("90000101T000000Z", "90010101T000000Z")))
            #expect(far.status == 207 && !far.body.contains("<d:response>"), "the year 9000 is beyond the bounds: nothing matches")
            let open = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, Self.query(range: ("20270101T000000Z", "99991231T000000Z")))
            #expect(open.status == 207 && open.body.components(separatedBy: "<d:response>").count - 1 == 5, "a range ending past the bounds ends at them")
        }
    }

    /// Regression (issue #62, 4): an expanded all-day series came back as UTC midnights, its RECURRENCE-ID
    /// a DATE-TIME where DTSTART was a DATE (invalid, RFC 5545 §3.8.4.4). DATE and floating values stay as they are.
    @Test func anExpandedAllDaySeriesKeepsItsDates() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let anna = try await Self.annasFamilyApp(parts.dependencies.parts.service)
            let calendar = "/dav/calendars/anna/family/"
            let allDay = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nBEGIN:VEVENT\r\nUID:birthday@t\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART;VALUE=DATE:19971102\r\nDTEND;VALUE=DATE:19971103\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Birthday\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let floating = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nBEGIN:VEVENT\r\nUID:alarm@t\r\nDTSTAMP:20260101T000000Z\r\n"
                + "DTSTART:20270101T070000\r\nDTEND:20270101T073000\r\nRRULE:FREQ=DAILY;COUNT=3\r\nSUMMARY:Wake up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            #expect(try await CalDAVRequests.send(client, .put, calendar + "birthday.ics", anna, allDay).status == 201)
            #expect(try await CalDAVRequests.send(client, .put, calendar + "alarm.ics", anna, floating).status == 201)
            let year = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, Self.query(expand: ("20270101T000000Z", "20280101T000000Z")))
            #expect(year.status == 207)
            let body = year.body.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(body.contains("DTSTART;VALUE=DATE:20271102") && body.contains("DTEND;VALUE=DATE:20271103")
                    && body.contains("RECURRENCE-ID;VALUE=DATE:20271102"), "\(body)")
            #expect(!body.contains("20271102T000000Z"), "no all-day instance at a UTC midnight")
            #expect(body.contains("DTSTART:20270102T070000\n") && body.contains("RECURRENCE-ID:20270102T070000\n"), "a floating time stays floating: \(body)")
        }
    }

    /// Regression (issue #62, 5): a VALARM comp-filter with a time-range was a 400. It matches the objects
    /// with an alarm that triggers in the range, for any occurrence (RFC 4791 §9.9); a filter tminus does
    /// not evaluate is a 403 supported-filter, never a 400.
    @Test func alarmTimeRangesFindTheObjectWhoseAlarmTriggers() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let anna = try await Self.annasFamilyApp(parts.dependencies.parts.service)
            let calendar = "/dav/calendars/anna/family/"
            func event(_ uid: String, _ start: String, _ rule: String?, _ trigger: String) -> String {
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:\(start)\r\n"
                    + "DURATION:PT1H\r\n" + (rule.map { "RRULE:\($0)\r\n" } ?? "") + "SUMMARY:\(uid)\r\n"
                    + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:soon\r\n\(trigger)\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            }
            // A weekly meeting on Mondays at 09:00 UTC, told a day before; a one-off told at a fixed time.
            #expect(try await CalDAVRequests.send(client, .put, calendar + "weekly.ics", anna,
                                               event("weekly", "20270104T090000Z", "FREQ=WEEKLY", "TRIGGER:-P1D")).status == 201)
            #expect(try await CalDAVRequests.send(client, .put, calendar + "fixed.ics", anna,
                                               event("fixed", "20270301T120000Z", nil, "TRIGGER;VALUE=DATE-TIME:20270220T080000Z")).status == 201)
            func alarms(_ start: String, _ end: String) async throws -> (status: Int, body: String) {
                let answer = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, #"""
                    <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>
                    <c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:comp-filter name="VALARM">
                    <c:time-range start="\#(start)" end="\#(end)"/></c:comp-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
                    """#)
                return (answer.status, answer.body)
            }
            // Sunday 2027-02-07 09:00 UTC is the alarm of Monday the 8th's meeting, five weeks after the first.
            let sunday = try await alarms("20270207T080000Z", "20270207T100000Z")
            #expect(sunday.status == 207 && sunday.body.contains("weekly.ics") && !sunday.body.contains("fixed.ics"), "\(sunday.body)")
            // The object is read back with the alarm it was given (a calendar made over CalDAV does not include
            // alarms in its feed, which dropped them from the objects too).
            let served = try await CalDAVRequests.send(client, .get, calendar + "weekly.ics", anna).body
            #expect(served.contains("BEGIN:VALARM") && served.contains("TRIGGER:-P1D"), "\(served)")
            // Monday 09:00 itself is the meeting, not its alarm.
            let monday = try await alarms("20270208T083000Z", "20270208T100000Z")
            #expect(monday.status == 207 && !monday.body.contains("weekly.ics"), "\(monday.body)")
            let fixed = try await alarms("20270220T000000Z", "20270221T000000Z")
            #expect(fixed.status == 207 && fixed.body.contains("fixed.ics") && !fixed.body.contains("weekly.ics"), "\(fixed.body)")

            let unsupported = try await CalDAVRequests.send(client, CalDAVRequests.report, calendar, anna, #"""
                <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>
                <c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:prop-filter name="ATTENDEE"><c:param-filter name="PARTSTAT"/>
                </c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
                """#)
            #expect(unsupported.status == 403 && unsupported.body.contains("supported-filter"), "\(unsupported.status) \(unsupported.body)")
        }
    }

    /// Regression (issue #59, 7): five wrong app passwords from one address locked every calendar app out, and
    /// behind the TLS proxy the docs require every app has the proxy's address. The password is checked first,
    /// a right one is never throttled, and wrong ones count per login and per forwarded client.
    @Test func aRightAppPasswordIsAnsweredAfterWrongOnesFromTheSameProxy() async throws {
        let fixture = try ServerFixture(transport: .live)
        try await fixture.withServer(adjust: { $0.trustedProxies = [try! AddressRange("127.0.0.1")] }) { client, parts in
            let service = parts.dependencies.parts.service
            for login in ["anna", "ben", "carl"] { try await service.addPerson(login: login, password: "a long enough password", cost: 4) }
            let anna = try await service.createAppPassword(login: "anna", label: "phone").secret
            let ben = try await service.createAppPassword(login: "ben", label: "phone").secret
            func propfind(_ login: String, _ password: String, from address: String) async throws -> Int {
                var headers = CalDAVRequests.basic(login, password, depth: "0")
                headers[HTTPField.Name("X-Forwarded-For")!] = "198.51.100.7, \(address)"
                return try await CalDAVRequests.send(client, CalDAVRequests.propfind, "/dav/", headers).status
            }
            for _ in 0..<5 { #expect(try await propfind("anna", "wrong-wrong-wrong", from: "203.0.113.1") == 401) }
            #expect(try await propfind("anna", "wrong-wrong-wrong", from: "203.0.113.1") == 429, "the sixth wrong one waits")
            #expect(try await propfind("anna", anna, from: "203.0.113.1") == 207, "the right one is answered, from the same client")
            #expect(try await propfind("ben", ben, from: "203.0.113.1") == 207, "and another person's app behind the same proxy")
            #expect(try await propfind("carl", "wrong-wrong-wrong", from: "203.0.113.2") == 401, "another client's mistake is its own")
            #expect(try await propfind("anna", "wrong-wrong-wrong", from: "203.0.113.3") == 429, "anna's login has had its five")
        }
    }

    /// Regression (issue #59, 4): one answer spells out at most 10,000 instances over all its objects; a daily series
    /// over three centuries (109,000) is refused when the 10,001st is found, before any is written. Without HTTP: the
    /// expansion alone, so that a loaded machine's live client never waits on it.
    @Test func anExpandStopsAtItsAnswersInstanceBudget() {
        let feed = Feed(slug: "medicine", name: "Medicine", isPublic: false)
        let pill = Countdown(uid: "pill@t", title: "Pill", target: .date(CivilDate(year: 1990, month: 1, day: 1)),
                             repeatRule: .every(interval: 1, unit: .day, clamp: false))
        let budget = CalendarQuery.InstanceBudget()
        let centuries = DateInterval(start: CalendarBounds.earliest, end: CalendarBounds.latest)
        #expect(CalendarQuery.expanded(pill, feed: feed, within: centuries, budget: budget, imageURL: { _ in nil }) == nil)
        #expect(budget.exceeded && budget.remaining == CalendarBounds.maxExpandedInstances, "refused, nothing taken")
        let week = DateInterval(start: Date(timeIntervalSince1970: 1_798_761_600), duration: 7 * 86_400)   // 2027-01-01
        let spelled = CalendarQuery.expanded(pill, feed: feed, within: week, budget: CalendarQuery.InstanceBudget(), imageURL: { _ in nil })
        #expect(spelled?.components(separatedBy: "BEGIN:VEVENT").count == 8, "seven instances, each its own event")
        let shared = CalendarQuery.InstanceBudget()
        shared.remaining = 3
        #expect(CalendarQuery.expanded(pill, feed: feed, within: week, budget: shared, imageURL: { _ in nil }) == nil && shared.exceeded,
                "the budget is the whole answer's: what is left of it counts")
    }
}
