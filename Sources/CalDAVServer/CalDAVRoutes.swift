import CalDAV
import Countdowns
import CountdownStore
import Foundation
import HTTPSupport
import HTTPTypes
import Hummingbird
import Rules
import Services

/// CalDAV (RFC 4918, 4791, 6578, 6764): every feed a person may read is a
/// calendar in their home, `/dav/calendars/LOGIN/FEED/`, and each countdown
/// an object in it. Thin: each method reads its request, calls a use case
/// of `CountdownService` as the signed-in person, and writes its answer.
package struct CalDAVRoutes: Sendable {
    let parts: ServerParts
    let throttle: SignInThrottle
    let trusted: [AddressRange]
    /// REPORTs that expand repeats, running now: two per person, eight in all (`heavyReport`).
    let heavyReports = FairAdmission(total: 8, perClient: 2)
    /// Listings by feed and revision: a read of a calendar asks the store its revision, not its rows.
    let listings = CalendarListings()

    package init(parts: ServerParts, throttle: SignInThrottle, trusted: [AddressRange]) {
        self.parts = parts
        self.throttle = throttle
        self.trusted = trusted
    }

    static let methods: [HTTPRequest.Method] = [.options, .get, .put, .delete] + ["PROPFIND", "REPORT", "MKCALENDAR", "PROPPATCH"].compactMap {
        HTTPRequest.Method($0)
    }
    /// The body of a PROPFIND, REPORT, PROPPATCH or MKCALENDAR.
    static let maxXMLBytes = 256 * 1024

    package func register(on router: Router<ServerContext>) {
        for method in Self.methods {
            // RFC 6764: clients given only the server's address look here first.
            router.on(".well-known/caldav", method: method) { _, _ in
                Response(status: .movedPermanently, headers: [.location: DAVPath.base])
            }
        }
        let signIn = AppPasswordMiddleware(service: parts.service, throttle: throttle, trusted: trusted, clock: parts.clock)
        // Apps given only the server's address ask it who they are (current-user-principal): answered as /dav/.
        let root = router.group("").add(middleware: signIn)
        for method in ["PROPFIND", "REPORT"].compactMap({ HTTPRequest.Method($0) }) {
            root.on("", method: method) { request, context in try await self.answer(request, context) }
        }
        let group = router.group("dav").add(middleware: signIn)
        for method in Self.methods {
            group.on("", method: method) { request, context in try await self.answer(request, context) }
            group.on("**", method: method) { request, context in try await self.answer(request, context) }
        }
    }

    /// The use cases, as the person the app password signed in.
    var service: CountdownService { parts.service.acting(as: RequestPrincipal.current ?? .anonymous) }

    var person: PersonAccess? {
        if case .person(let person)? = RequestPrincipal.current { person } else { nil }
    }

    private func answer(_ request: Request, _ context: ServerContext) async throws -> Response {
        if request.method == .options { return Self.options() }
        guard let path = request.uri.path == "/" ? .root : DAVPath(request.uri.path), let person else { throw HTTPError(.notFound, message: "no such CalDAV resource") }
        // A person's principal and home are theirs alone.
        switch path {
        case .principal(let login), .home(let login), .calendar(let login, _), .object(let login, _, _):
            guard login == person.login else { throw HTTPError(.notFound, message: "no such CalDAV resource: your calendars are under \(DAVPath.home(login: person.login).href)") }
        case .root: break
        }
        do {
            switch request.method.rawValue {
            case "PROPFIND": return try await propfind(path, request, person: person)
            case "REPORT": return try await report(path, request)
            case "GET": return try await get(path)
            case "PUT": return try await put(path, request)
            case "DELETE": return try await delete(path, request)
            case "MKCALENDAR": return try await mkcalendar(path, request, person: person)
            case "PROPPATCH": return try await proppatch(path, request)
            default: throw HTTPError(.methodNotAllowed)
            }
        } catch let refused as XMLTree.Refused {
            throw HTTPError(.badRequest, message: refused.description)
        } catch let refused as Authorization.Refused {
            return Self.error(.forbidden, .d("need-privileges"), "you may not \(refused.permission): \(person.readOnly ? "a read-only app password" : "ask an owner of the space")")
        } catch let refused as CalendarObjectRefusal {
            return switch refused {
            case .preconditionFailed(let why): Self.error(.preconditionFailed, nil, why)
            case .uidConflict: Self.error(.conflict, .c("no-uid-conflict"), refused.description)
            case .fromSource: Self.error(.forbidden, .d("need-privileges"), refused.description)
            case .notOneObject: Self.error(.badRequest, .c("valid-calendar-object-resource"), refused.description)
            case .unsupportedComponent: Self.error(.forbidden, .c("supported-calendar-component"), refused.description)
            }
        }
    }

    static func options() -> Response {
        Response(status: .ok, headers: [
            HTTPField.Name("DAV")!: "1, 3, calendar-access, extended-mkcol",
            .allow: "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR",
            .contentLength: "0",
        ])
    }

    /// A 207 with the body `status` wrote, or a 507 when it reached its size bound.
    static func multistatus(_ status: consuming MultiStatus, syncToken: String? = nil) -> Response {
        guard !status.overflowed else {
            return error(.init(code: 507, reasonPhrase: "Insufficient Storage"), .d("number-of-matches-within-limits"),
                         "the answer would be larger than \(MultiStatus.maxBytes >> 20) MB: ask for fewer properties or objects (calendar-data with a multiget in parts)")
        }
        let bytes = status.finish(syncToken: syncToken)
        return Response(status: HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status"), headers: [.contentType: "application/xml; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A refusal with the WebDAV precondition it broke, if any, and why.
    static func error(_ status: HTTPResponse.Status, _ condition: DAVName?, _ message: String) -> Response {
        let body = condition.map { DAVError.body($0, message) } ?? Array((message + "\n").utf8)
        return Response(status: status, headers: [.contentType: condition == nil ? "text/plain; charset=utf-8" : "application/xml; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A request's XML body, bounded.
    static func xmlBody(_ request: Request) async throws -> Data {
        do { return Data(buffer: try await request.body.collect(upTo: maxXMLBytes)) }
        catch { throw HTTPError(.contentTooLarge, message: "an XML body of CalDAV is at most \(maxXMLBytes / 1024) KB") }
    }

    /// The feed a calendar's path segment stands for: its address as it is, or
    /// as MKCALENDAR made it from a client's name (Apple's upper-case UUIDs).
    static func slug(_ segment: String) -> String { FeedSlug.from(segment) }
}
