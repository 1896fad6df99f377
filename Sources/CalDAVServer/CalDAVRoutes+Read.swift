import CalDAV
import Countdowns
import CountdownStore
import Foundation
import HTTPTypes
import Hummingbird
import ICalendar
import Rules
import Services

/// PROPFIND, GET and the REPORTs: answered from stored rows and the change
/// log; an object's bytes are written only when asked for (GET, calendar-data).
extension CalDAVRoutes {
    func propfind(_ path: DAVPath, _ request: Request, person: PersonAccess) async throws -> Response {
        let properties = DAVProperties(body: try PropfindBody.parse(try await Self.xmlBody(request)))
        // Depth infinity is answered as 1: a home holds calendars, and calendars hold objects, nothing deeper.
        let deep = request.headers[Self.depth] != "0"
        var status = MultiStatus(names: properties.names)
        switch path {
        case .root:
            status.add(properties.response(href: path.href, DAVProperties.root(person: person)))
        case .principal:
            let name = (try? await service.me().displayName) ?? person.login
            status.add(properties.response(href: path.href, DAVProperties.principal(person: person, name: name)))
        case .home(let login):
            status.add(properties.response(href: path.href, DAVProperties.home(person: person)))
            if deep {
                // Every calendar the person sees, a busy-only member's among them.
                let feeds = try await service.busyReadable(parts.catalog.storedFeeds).sorted { $0.feed.slug < $1.feed.slug }
                let newest = try await service.newestChanges(feeds: feeds.map(\.feed.slug))
                for feed in feeds {
                    let slug = feed.feed.slug
                    let token = SyncToken(changeId: newest[slug] ?? 0, personalId: try await newestPersonal(slug))
                    status.add(properties.response(href: DAVPath.calendar(login: login, feed: slug).href,
                                                   DAVProperties.calendar(feed, token: token, access: await access(feed, person: person), person: person)))
                }
            }
        case .calendar(let login, let segment):
            let slug = Self.slug(segment)
            let listing = try await listing(slug, bodies: properties.wantsData)
            status.add(properties.response(href: path.href, DAVProperties.calendar(listing.feed, token: listing.token,
                                                                                  access: await access(listing.feed, person: person), person: person)))
            if deep {
                for object in listing.objects where !status.overflowed {
                    let data = { self.data(object, feed: listing.feed.feed) }
                    status.add(properties.response(href: DAVPath.object(login: login, feed: segment, name: object.name).href,
                                                   DAVProperties.object(object, data: data)))
                }
            }
        case .object(_, let segment, let name):
            let slug = Self.slug(segment)
            guard let object = try await object(slug, name) else { throw HTTPError(.notFound, message: "no object \(name) in this calendar") }
            let feed = try await listing(slug, uids: []).feed.feed
            status.add(properties.response(href: path.href, DAVProperties.object(object, data: { self.data(object, feed: feed) })))
        }
        return Self.multistatus(status)
    }

    func get(_ path: DAVPath) async throws -> Response {
        guard case .object(_, let segment, let name) = path else {
            throw HTTPError(.methodNotAllowed, message: "a calendar is read with PROPFIND and REPORT; GET reads one of its objects")
        }
        let slug = Self.slug(segment)
        guard let object = try await object(slug, name) else { throw HTTPError(.notFound, message: "no object \(name) in this calendar") }
        let feed = try await listing(slug, uids: []).feed.feed
        guard let text = data(object, feed: feed) else { throw HTTPError(.internalServerError, message: "object \(name) cannot be read: see the server's log") }
        let bytes = Array(text.utf8)
        return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8", .eTag: object.etag],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    func report(_ path: DAVPath, _ request: Request) async throws -> Response {
        let report = try ReportBody.parse(try await Self.xmlBody(request))
        if case .principalSearch(let match, let names) = report, let person {
            return try await principalSearch(match: match, properties: names, person: person)
        }
        guard case .calendar(let login, let segment) = path else {
            throw HTTPError(.forbidden, message: "REPORTs are asked of a calendar (\(DAVPath.home(login: person?.login ?? "").href)FEED/)")
        }
        let slug = Self.slug(segment)
        var status = MultiStatus(names: report.properties)
        func href(_ name: String) -> String { DAVPath.object(login: login, feed: segment, name: name).href }
        switch report {
        case .multiget(let names, let hrefs):
            let properties = DAVProperties(body: .properties(names))
            let asked = hrefs.compactMap { href -> String? in if case .object(_, _, let name)? = DAVPath(href) { name } else { nil } }
            let listing = try await listing(slug, names: asked, bodies: properties.wantsData)
            let byName = Dictionary(listing.objects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for requested in hrefs where !status.overflowed {
                guard case .object(_, _, let name)? = DAVPath(requested), let object = byName[name] else {
                    status.add(MultiStatus.Response(href: requested, status: 404))
                    continue
                }
                status.add(properties.response(href: href(object.name), DAVProperties.object(object, data: { self.data(object, feed: listing.feed.feed) })))
            }
            return Self.multistatus(status)
        case .query(let names, let filter, let expand):
            if let unsupported = filter.unsupported {
                return Self.error(.forbidden, .c("supported-filter"), "tminus does not filter by \(unsupported)")
            }
            if let expand, let condition = CalendarBounds.refusal(of: expand) {
                return Self.error(.forbidden, condition, "an expand looks from \(CalendarBounds.earliestText) to \(CalendarBounds.latestText) at most")
            }
            let listing = try await listing(slug, bodies: DAVProperties(body: .properties(names)).wantsData)
            let hrefs = { @Sendable (name: String) in DAVPath.object(login: login, feed: segment, name: name).href }
            // The feed's compilation, when it is of the listing's revision, is the index a time range is answered from.
            // Not for busy time only: a search by title must not find what the titles are.
            let index = listing.isBusyOnly ? nil : await SeriesIndex.of(parts.catalog, slug: slug, listed: listing.feed)
            return try await heavyReport {
                try self.query(listing, names: names, filter: filter, expand: expand, index: index, href: hrefs)
            }
        case .syncCollection(let token, let names, let limit):
            let properties = DAVProperties(body: .properties(names))
            if token.isEmpty {
                let listing = try await listing(slug, bodies: properties.wantsData)
                for object in listing.objects where !status.overflowed {
                    status.add(properties.response(href: href(object.name), DAVProperties.object(object, data: { self.data(object, feed: listing.feed.feed) })))
                }
                return Self.multistatus(status, syncToken: listing.token.text)
            }
            guard let seen = SyncToken(token) else {
                return Self.error(.forbidden, .d("valid-sync-token"), "this sync token is not one of this calendar's: sync again from the start")
            }
            guard let (changes, names, newest) = try await service.calendarChanges(feed: slug, after: seen.changeId) else {
                return Self.error(.forbidden, .d("valid-sync-token"),
                                  "this sync token is no longer valid (older than the 90 days of changes kept, or from before a backup was restored): sync again from the start")
            }
            // Each object changed since, once: as it is now, or gone. With a limit, the changes up to the
            // last one that fits, the token naming it, and a 507 that says there is more (RFC 6578 §3.6).
            // A busy-only member knows objects by their hashed UIDs alone, and not the names clients gave.
            let busyOnly = try await service.isBusyOnly(slug)
            let customNames = busyOnly ? [:] : names
            func uid(_ uid: String) -> String { busyOnly ? Redaction.redactedUID(uid) : uid }
            var order: [String] = [], seenUIDs = Set<String>(), through = newest, truncated = false
            for change in changes {
                if !seenUIDs.contains(change.uid) {
                    if let limit, order.count == limit { truncated = true; break }
                    seenUIDs.insert(change.uid)
                    order.append(change.uid)
                }
                through = change.id ?? through
            }
            // And the person's own parts saved since, each object once (all of them fit: they are one person's).
            let ownChanged = truncated ? [:] : try await service.personalParts(feed: slug, after: seen.personalId)
            for changed in ownChanged.keys.sorted() where seenUIDs.insert(changed).inserted { order.append(changed) }
            let personalThrough = max(seen.personalId, ownChanged.values.compactMap(\.id).max() ?? 0)
            order = order.map(uid)
            if !order.isEmpty {
                let listing = try await listing(slug, uids: order, bodies: properties.wantsData)
                let present = Dictionary(listing.objects.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
                for uid in order {
                    if let object = present[uid] {
                        status.add(properties.response(href: href(object.name), DAVProperties.object(object, data: { self.data(object, feed: listing.feed.feed) })))
                    } else {
                        status.add(MultiStatus.Response(href: href(customNames[uid] ?? CalendarObject.defaultName(uid: uid)), status: 404))
                    }
                }
            }
            if truncated { status.add(MultiStatus.Response(href: path.href, status: 507)) }
            return Self.multistatus(status, syncToken: SyncToken(changeId: truncated ? through : newest, personalId: personalThrough).text)
        case .principalSearch:
            return Self.multistatus(status)
        case .freeBusy(let asked):
            guard let window = CalendarBounds.clamped(start: asked.start, end: asked.end) else {
                return Self.error(.forbidden, .c(asked.end < CalendarBounds.earliest ? "min-date-time" : "max-date-time"),
                                  "a free-busy-query looks from \(CalendarBounds.earliestText) to \(CalendarBounds.latestText)")
            }
            let listing = try await listing(slug)
            let now = parts.clock()
            return try await heavyReport {
                let text = CalendarQuery.freeBusy(listing.objects, feed: listing.feed.feed, within: window, now: now)
                return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
    }

    /// A calendar-query's answer: the objects its filter matches, with their
    /// data spelled out when asked (`expand` within the instance budget), in
    /// at most `reportCPU` of CPU (507 past it, or past the budget).
    func query(_ listing: CalendarListing, names: [DAVName], filter: CalendarFilter, expand: DateInterval?,
               index: SeriesIndex? = nil, href: (String) -> String) throws -> Response {
        let properties = DAVProperties(body: .properties(names))
        let feed = listing.feed.feed
        var status = MultiStatus(names: names)
        let budget = CalendarQuery.InstanceBudget()
        let cpu = WorkBudget(limit: Self.reportCPU, stopWhen: { WorkerPool.isCancelled })
        do {
            try cpu.measure { () throws(WorkBudget.Exhausted) in
                for object in listing.objects where !status.overflowed && !budget.exceeded {
                    try cpu.check()
                    guard CalendarQuery.matches(object, filter: filter, feed: feed, index: index) else { continue }
                    let data = { expand.map { self.expanded(object, feed: feed, within: $0, budget: budget) } ?? self.data(object, feed: feed, index: index) }
                    status.add(properties.response(href: href(object.name), DAVProperties.object(object, data: data)))
                }
            }
        } catch .stopped {
            throw CancellationError()
        } catch {
            return Self.error(.init(code: 507, reasonPhrase: "Insufficient Storage"), .d("number-of-matches-within-limits"),
                              "this query took more than \(Self.reportCPU) of CPU: ask for a shorter range or fewer objects")
        }
        if budget.exceeded {
            return Self.error(.init(code: 507, reasonPhrase: "Insufficient Storage"), .d("number-of-matches-within-limits"),
                              "an expand spells out at most \(CalendarBounds.maxExpandedInstances) instances in one answer: ask for a shorter range")
        }
        return Self.multistatus(status)
    }

    /// What one calendar-query may spend.
    static let reportCPU: Duration = .seconds(5)

    /// Runs a REPORT that expands repeats on threads of its own (`Offload.searches`),
    /// never on a request's: four heavy REPORTs held both of Swift's threads,
    /// and `/healthz` went unanswered (issue #59). A person has at most two
    /// running at once, and the server eight; past that the answer is 503 with Retry-After.
    func heavyReport(_ work: @escaping @Sendable () throws -> Response) async throws -> Response {
        let key = person.map { "person \($0.id)" }
        guard heavyReports.enter(key) else {
            var response = Self.error(.serviceUnavailable, nil, "several searches of yours are running: try again in a few seconds")
            response.headers[.retryAfter] = "2"
            return response
        }
        defer { heavyReports.leave(key) }
        return try await Offload.searches.run(work)
    }

    /// A principal search finds the signed-in person alone (when their name
    /// matches): who else has an account is not a calendar app's to list.
    func principalSearch(match: String?, properties names: [DAVName], person: PersonAccess) async throws -> Response {
        let name = (try? await service.me().displayName) ?? person.login
        var status = MultiStatus()
        if match.map({ $0.isEmpty || name.localizedCaseInsensitiveContains($0) || person.login.localizedCaseInsensitiveContains($0) }) ?? true {
            let properties = DAVProperties(body: names.isEmpty ? .allProperties : .properties(names))
            status = MultiStatus(names: names)
            status.add(properties.response(href: DAVPath.principal(login: person.login).href, DAVProperties.principal(person: person, name: name)))
        }
        return Self.multistatus(status)
    }

    static let depth = HTTPField.Name("Depth")!

    /// `slug`'s calendar (the objects with `uids`, when given), from the listing kept for its
    /// current revision; with `bodies`, with the text of those kept as their apps wrote them.
    func listing(_ slug: String, uids: [String]? = nil, bodies: Bool = false) async throws -> CalendarListing {
        let kept = try await keptListing(slug)
        return try await personalized(try await withTexts(uids.map(kept.withUIDs) ?? kept.listing, bodies: bodies, slug), slug)
    }

    /// The objects at these names (a multiget's), each once, in the order asked.
    func listing(_ slug: String, names: [String], bodies: Bool) async throws -> CalendarListing {
        try await personalized(try await withTexts(try await keptListing(slug).named(names), bodies: bodies, slug), slug)
    }

    /// The listing as the signed-in person reads it: with their own alarms on
    /// a space's objects (one read of their parts of this calendar, kept apart from the shared listing).
    private func personalized(_ listing: CalendarListing, _ slug: String) async throws -> CalendarListing {
        guard !listing.isBusyOnly else { return listing }
        let parts = try await service.personalParts(feed: slug)
        guard !parts.isEmpty else { return listing }
        var own = listing
        own.objects = listing.objects.map { $0.with(personal: parts[$0.uid]) }
        own.newestPersonal = parts.values.compactMap(\.id).max() ?? 0
        return own
    }

    /// The newest of the signed-in person's own parts of `slug`'s objects (0: none), for its sync token.
    func newestPersonal(_ slug: String) async throws -> Int64 {
        try await service.personalParts(feed: slug).values.compactMap(\.id).max() ?? 0
    }

    /// What the person may do with a calendar, as its privileges tell their app.
    func access(_ feed: StoredFeed, person: PersonAccess) async -> CalendarAccess {
        let slug = feed.feed.slug
        if (try? await service.isBusyOnly(slug)) == true { return .busyOnly }
        if await allowed(.editFeed(slug)) { return .edit }
        return feed.spaceId != nil && !person.readOnly ? .ownAlarms : .read
    }

    private func keptListing(_ slug: String) async throws -> CalendarListings.Kept {
        let service = service
        return try await listings.listing(slug, version: try await service.calendarVersion(feed: slug)) {
            try await service.calendarListing(feed: slug)
        }
    }

    /// The listing with the text of its objects kept as written, read for those objects alone.
    private func withTexts(_ listing: CalendarListing, bodies: Bool, _ slug: String) async throws -> CalendarListing {
        let wanted = listing.objects.filter { $0.kept != nil && $0.written == nil }.map(\.uid)
        guard bodies, !wanted.isEmpty else { return listing }
        let texts = try await service.keptTexts(feed: slug, uids: wanted)
        var filled = listing
        for index in filled.objects.indices {
            // Only the text the listing's ETag was made from: one changed since is read at the next revision.
            if let kept = filled.objects[index].kept, let text = texts[kept.uid], text.etag == kept.etag { filled.objects[index].kept?.body = text.body }
        }
        return filled
    }

    func object(_ slug: String, _ name: String) async throws -> CalendarObject? {
        guard let object = try await service.calendarObject(feed: slug, name: name) else { return nil }
        return object.with(personal: try await service.personalParts(feed: slug, uids: [object.uid])[object.uid])
    }

    /// Whether the signed-in person may do `permission` (what privileges say).
    func allowed(_ permission: Permission) async -> Bool {
        (try? await service.authorize(permission)) != nil
    }

    var imageURL: @Sendable (String) -> String? {
        let settings = parts.settings
        return { settings.imageURL($0) }
    }

    /// An object's bytes, as text: as a calendar app wrote them, while they are the object, else
    /// written from its countdown (nil: its row cannot be read, which a listing reports as a missing property).
    func data(_ object: CalendarObject, feed: Feed, index: SeriesIndex? = nil) -> String? {
        guard let shared = sharedData(object, feed: feed, index: index) else { return nil }
        guard let part = object.personalPart, let calendar = try? ICalendarParser.parse(shared, options: ParseOptions(mode: .lenient)).calendar else { return shared }
        return CalendarWriter(timeZones: .keep).write(part.merged(into: calendar))
    }

    /// The object as everyone sees it, without the signed-in person's own part.
    func sharedData(_ object: CalendarObject, feed: Feed, index: SeriesIndex? = nil) -> String? {
        if let written = object.written { return written }
        guard let countdown = object.row?.id.flatMap({ index?.countdown(row: $0) }) ?? (try? object.countdown()) else { return nil }
        return String(decoding: CalendarExport.object(feed: feed, countdown: countdown, otherCalendarDates: spelling(feed), imageURL: imageURL),
                      as: UTF8.self)
    }

    /// Repeats in another calendar as dates from this year on, as the feed's `.ics` writes them.
    func spelling(_ feed: Feed) -> OtherCalendarDates {
        OtherCalendarDates(today: CivilDate(year: OtherCalendarDates.year(at: parts.clock(), in: feed.zone), month: 1, day: 1))
    }

    /// An object's repeats spelled out within `window` (calendar-data's `expand`).
    func expanded(_ object: CalendarObject, feed: Feed, within window: DateInterval, budget: CalendarQuery.InstanceBudget) -> String? {
        guard let countdown = try? object.countdown() else { return nil }
        return CalendarQuery.expanded(countdown, feed: feed, within: window, budget: budget, imageURL: imageURL)
    }
}
