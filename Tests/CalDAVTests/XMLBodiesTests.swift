import Foundation
import Testing
@testable import CalDAV

/// Request bodies read through the real parser: namespaces by URI, not by
/// prefix; what a hostile body tries (entities, depth, size) refused by name.
struct XMLBodiesTests {
    @Test func aPropfindNamesPropertiesByNamespaceNotPrefix() throws {
        let body = Data("""
            <?xml version="1.0"?><X:propfind xmlns:X="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">
            <X:prop><X:getetag/><C:calendar-home-set/><A:calendar-color/></X:prop></X:propfind>
            """.utf8)
        #expect(try PropfindBody.parse(body) == .properties([.d("getetag"), .c("calendar-home-set"), .ical("calendar-color")]))
        #expect(try PropfindBody.parse(Data()) == .allProperties, "an empty body asks for every property")
        #expect(try PropfindBody.parse(Data(#"<propfind xmlns="DAV:"><propname/></propfind>"#.utf8)) == .propertyNames)
    }

    @Test func reportsAreReadWithTheirFiltersAndTokens() throws {
        let query = Data("""
            <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/>
            <c:calendar-data><c:expand start="20270101T000000Z" end="20270201T000000Z"/></c:calendar-data></d:prop>
            <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
            <c:time-range start="20270104T000000Z" end="20270105T000000Z"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
            """.utf8)
        guard case .query(let properties, let filter, let expand) = try ReportBody.parse(query) else { Issue.record("not a query"); return }
        #expect(properties == [.d("getetag"), .c("calendar-data")] && filter.component == "VEVENT")
        #expect(filter.start == Date(timeIntervalSince1970: 1_799_020_800) && filter.end == Date(timeIntervalSince1970: 1_799_107_200))
        #expect(expand?.duration == TimeInterval(31 * 86_400))
        let sync = Data(#"<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"#.utf8)
        #expect(try ReportBody.parse(sync) == .syncCollection(token: "", properties: [.d("getetag")], limit: nil))
        let text = Data(#"""
            <c:calendar-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">
            <c:prop-filter name="summary"><c:text-match collation="i;octet" negate-condition="yes">Essay</c:text-match></c:prop-filter>
            <c:prop-filter name="CATEGORIES"><c:is-not-defined/></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>
            """#.utf8)
        guard case .query(_, let byText, _) = try ReportBody.parse(text) else { Issue.record("not a query"); return }
        #expect(byText.properties == [CalendarFilter.PropertyFilter(name: "SUMMARY", textMatch: CalendarFilter.TextMatch(text: "Essay", caseless: false, negate: true)),
                                      CalendarFilter.PropertyFilter(name: "CATEGORIES", isNotDefined: true)])
        let param = Data(#"<c:calendar-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:prop-filter name="ATTENDEE"><c:param-filter name="PARTSTAT"/></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"#.utf8)
        // Read, and named as what tminus does not evaluate: the route answers 403 supported-filter (RFC 4791 §7.7).
        guard case .query(_, let byParameter, _) = try ReportBody.parse(param) else { Issue.record("not a query"); return }
        #expect(byParameter.unsupported == "a property's parameters (param-filter)")
        let alarm = Data(#"<c:calendar-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:comp-filter name="VALARM"><c:time-range start="20270101T000000Z" end="20270102T000000Z"/></c:comp-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"#.utf8)
        guard case .query(_, let byAlarm, _) = try ReportBody.parse(alarm) else { Issue.record("not a query"); return }
        #expect(byAlarm.unsupported == nil && byAlarm.alarmRange?.start != nil && byAlarm.alarmRange?.end != nil && !byAlarm.hasTimeRange)
        let badTime = Data(#"<c:calendar-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="2027-01-01"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"#.utf8)
        #expect(throws: XMLTree.Refused.self) { try ReportBody.parse(badTime) }
    }

    @Test func propertyFiltersMatchAsRFC4791Says() {
        let caseless = CalendarFilter.PropertyFilter(name: "summary", textMatch: CalendarFilter.TextMatch(text: "ESSAY"))
        #expect(caseless.matches(["Hand in the essay"]) && !caseless.matches(["Maths"]) && !caseless.matches([]))
        let octet = CalendarFilter.PropertyFilter(name: "SUMMARY", textMatch: CalendarFilter.TextMatch(text: "ESSAY", caseless: false))
        #expect(!octet.matches(["Hand in the essay"]))
        let negated = CalendarFilter.PropertyFilter(name: "CATEGORIES", textMatch: CalendarFilter.TextMatch(text: "work", negate: true))
        #expect(negated.matches(["Home"]) && !negated.matches(["Home", "Work"]))
        let undefined = CalendarFilter.PropertyFilter(name: "DTEND", isNotDefined: true)
        #expect(undefined.matches([]) && !undefined.matches(["20270101T000000Z"]))
        #expect(CalendarFilter.PropertyFilter(name: "UID").matches(["a@b"]) && !CalendarFilter.PropertyFilter(name: "UID").matches([]), "defined")
    }

    @Test func aHostileBodyIsRefusedNotExpanded() {
        let laughs = Data("""
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol2;</d:displayname></d:prop></d:propfind>
            """.utf8)
        #expect(throws: XMLTree.Refused("the XML body has a DOCTYPE or ENTITY declaration, which is not accepted")) { try XMLTree.parse(laughs) }
        let deep = Data((String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)).utf8)
        #expect(throws: XMLTree.Refused("the XML body nests deeper than 32")) { try XMLTree.parse(deep) }
        #expect(throws: XMLTree.Refused("the XML body is larger than 256 KB")) { try XMLTree.parse(Data(count: 300 * 1024)) }
        // Regression (fuzz, FuzzDAVBodies): a byte that is not UTF-8 in an element's name trapped inside FoundationXML.
        let notUTF8 = Data(#"<d:propfind xmlns:d="DAV:"><d:pr"#.utf8) + Data([0xF2]) + Data("op/></d:propfind>".utf8)
        #expect(throws: XMLTree.Refused("the XML body is not UTF-8 (UTF-16 and other encodings are not accepted)")) { try XMLTree.parse(notUTF8) }
        #expect(throws: XMLTree.Refused.self, "not well-formed") { try XMLTree.parse(Data("<d:propfind xmlns:d=\"DAV:\"><d:prop>".utf8)) }
        // Regression (fuzz, FuzzDAVBodies, session 23): a processing instruction with no data (`<?:target?>`) made
        // FoundationXML call strlen on NULL, and the server died.
        let instruction = Data(#"<d:propfind xmlns!d="DAV:" x/><?:calendar-home-set?></d:prop></d:propfind>"#.utf8)
        #expect(throws: XMLTree.Refused("the XML body has a processing instruction, which is not accepted")) { try XMLTree.parse(instruction) }
        let declared = Data(#"<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>"#.utf8)
        #expect((try? XMLTree.parse(declared))?.name == .d("propfind"), "the XML declaration itself is fine")
    }

    @Test func aMultistatusIsWellFormedAndEscaped() throws {
        var status = MultiStatus()
        status.add(MultiStatus.Response(href: "/dav/calendars/anna/x/a%40b.ics", found: [(.d("getetag"), .text("\"1<2\""))], missing: [.c("calendar-color")]))
        status.add(MultiStatus.Response(href: "/dav/gone.ics", status: 404))
        status.add(MultiStatus.Response(href: "/dav/", found: [(DAVName("urn:example", "odd"), .text("&"))]))
        let bytes = status.finish(syncToken: SyncToken(changeId: 7).text)
        let tree = try XMLTree.parse(Data(bytes))
        #expect(tree.name == .d("multistatus") && tree.children(.d("response")).count == 3)
        let first = try #require(tree.child(.d("response")))
        #expect(first.child(.d("propstat"))?.child(.d("prop"))?.child(.d("getetag"))?.text == "\"1<2\"")
        #expect(tree.children(.d("response"))[2].child(.d("propstat"))?.child(.d("prop"))?.child(DAVName("urn:example", "odd"))?.text == "&")
        #expect(tree.child(.d("sync-token"))?.text == "http://tminus.invalid/sync/7")
    }

    @Test func pathsAndTokensReadBackWhatWasWritten() {
        let object = DAVPath.object(login: "anna", feed: "family", name: "birthday@example.org/2027.ics")
        #expect(object.href == "/dav/calendars/anna/family/birthday%40example.org%2F2027.ics")
        #expect(DAVPath(object.href) == object && DAVPath("https://cal.example.org" + object.href) == object)
        #expect(DAVPath("/dav/") == .root && DAVPath("/dav/principals/anna/") == .principal(login: "anna") && DAVPath("/feeds/x.ics") == nil)
        #expect(SyncToken(SyncToken(changeId: 42).text) == SyncToken(changeId: 42) && SyncToken("http://tminus.invalid/sync/-1") == nil)
        #expect(SyncToken("http://example.org/sync/1") == nil && SyncToken("http://tminus.invalid/sync/9x") == nil)
    }
}
