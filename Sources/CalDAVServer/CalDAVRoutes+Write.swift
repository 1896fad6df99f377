import CalDAV
import Countdowns
import CountdownStore
import Foundation
import HTTPTypes
import Hummingbird
import Services

/// PUT, DELETE, MKCALENDAR and PROPPATCH: the web app's use cases, as the
/// person the app password signed in (same checks, history, revision bump).
extension CalDAVRoutes {
    func put(_ path: DAVPath, _ request: Request) async throws -> Response {
        guard case .object(_, let segment, let name) = path else {
            throw HTTPError(.methodNotAllowed, message: "PUT writes an object of a calendar (…/FEED/NAME.ics)")
        }
        let limit = parts.service.limits.maxInputBytes
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: limit) } catch { throw HTTPError(.contentTooLarge, message: "an object is at most \(limit) bytes") }
        let saved: (created: Bool, etag: String)
        do {
            // What the object is for everyone, written as a read writes it: a person's write that changes only their alarms is theirs.
            let current: @Sendable (CalendarObject, Feed) -> String? = { object, feed in self.sharedData(object, feed: feed) }
            saved = try await service.putCalendarObject(Array(buffer: body), feed: Self.slug(segment), name: name,
                                                          ifMatch: request.headers[.ifMatch], ifNoneMatch: request.headers[.ifNoneMatch] == "*", current: current)
        } catch StoreError.overQuota(let why) {
            // RFC 4331 §6: the precondition a calendar app shows as "the account is full".
            return Self.error(.init(code: 507, reasonPhrase: "Insufficient Storage"), .d("quota-not-exceeded"), why)
        }
        // The bytes sent are what a GET answers (RFC 4791 §5.3.4): their ETag spares the app a read back.
        return Response(status: saved.created ? .created : .noContent, headers: [.eTag: saved.etag])
    }

    func delete(_ path: DAVPath, _ request: Request) async throws -> Response {
        if case .calendar(_, let segment) = path {
            // The feed itself, as its page's Delete does: for those who may delete it (its owner, an administrator).
            try await service.deleteFeed(slug: Self.slug(segment))
            return Response(status: .noContent)
        }
        guard case .object(_, let segment, let name) = path else { throw HTTPError(.forbidden, message: "only calendars and their objects are deleted") }
        guard try await service.deleteCalendarObject(feed: Self.slug(segment), name: name, ifMatch: request.headers[.ifMatch]) else {
            throw HTTPError(.notFound, message: "no object \(name) in this calendar")
        }
        return Response(status: .noContent)
    }

    /// A new calendar is a new feed of the person's own, at an address made
    /// from the app's name for it; its display name and colour as the app set them.
    func mkcalendar(_ path: DAVPath, _ request: Request, person: PersonAccess) async throws -> Response {
        guard case .calendar(_, let segment) = path else { throw HTTPError(.forbidden, message: "MKCALENDAR makes a calendar in your home (…/calendars/LOGIN/NAME/)") }
        let update = try PropertyUpdate.parse(try await Self.xmlBody(request), root: .c("mkcalendar"))
        let slug = Self.slug(segment)
        guard Feed.isValidSlug(slug) else { throw HTTPError(.forbidden, message: "'\(segment.prefix(64))' cannot be made a feed address") }
        var feed = Feed(slug: slug, isPublic: false)
        feed.name = update.text(of: .d("displayname")).map { String($0.prefix(200)) } ?? segment
        feed.color = update.text(of: .ical("calendar-color")).flatMap(Self.color)
        if let description = update.text(of: .c("calendar-description")) { feed.description = String(description.prefix(2_000)) }
        // The use case refuses a taken address in its transaction: no read ahead of it, which
        // would also be a read of the store past the permission check (issue #60).
        do { _ = try await service.createFeed(feed, inSpace: nil) } catch StoreError.feedExists {
            return Self.error(.methodNotAllowed, .d("resource-must-be-null"), "a calendar (feed) at this address exists")
        }
        return Response(status: .created, headers: [.location: path.href])
    }

    /// The name, colour and description of a calendar; other properties are refused (403), and then nothing changes.
    func proppatch(_ path: DAVPath, _ request: Request) async throws -> Response {
        guard case .calendar(_, let segment) = path else { throw HTTPError(.forbidden, message: "only a calendar's properties can be changed") }
        let update = try PropertyUpdate.parse(try await Self.xmlBody(request), root: .d("propertyupdate"))
        let slug = Self.slug(segment)
        // calendar-order is each app's own arrangement: not kept, so refused rather than ignored.
        let writable: Set<DAVName> = [.d("displayname"), .ical("calendar-color"), .c("calendar-description")]
        let names = update.set.map(\.name) + update.removed
        var status = MultiStatus(names: names)
        if names.contains(where: { !writable.contains($0) }) {
            status.add(MultiStatus.Response(href: path.href, others: [(403, names.filter { !writable.contains($0) }), (424, names.filter(writable.contains))]))
            return Self.multistatus(status)
        }
        var feed = try await service.requireFeed(slug: slug).feed
        for property in update.set {
            switch property.name {
            case .d("displayname"): if !property.text.isEmpty { feed.name = String(property.text.prefix(200)) }
            case .ical("calendar-color"): feed.color = Self.color(property.text) ?? feed.color
            case .c("calendar-description"): feed.description = property.text.isEmpty ? nil : String(property.text.prefix(2_000))
            default: break
            }
        }
        for name in update.removed where name == .c("calendar-description") { feed.description = nil }
        _ = try await service.saveFeed(feed)
        status = MultiStatus(names: names)
        status.add(MultiStatus.Response(href: path.href, found: names.map { ($0, PropertyValue.elements([])) }))
        return Self.multistatus(status)
    }

    /// `#RRGGBB` from a client's `#RRGGBBAA` or `#RRGGBB`.
    static func color(_ text: String) -> String? {
        let hex = text.trimmingCharacters(in: .whitespaces)
        guard hex.hasPrefix("#"), hex.count == 7 || hex.count == 9, hex.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        return String(hex.prefix(7)).uppercased()
    }
}
