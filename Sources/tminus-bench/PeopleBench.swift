import Countdowns
import CountdownStore
import Foundation
import Services
import StoreFactory

/// `make bench`'s people section (issue #37): 1,000 people in 1,000 spaces
/// with 10 feeds each, on a real SQLite file. It times what every signed-in
/// request pays before its answer (the person behind an API token or a
/// session, then their standing toward the feed) with the permission
/// check's cache (`AccessCache`) and, as the reference, without it.
/// `bench/people.py` serves the same store and compares the cached `.ics`.
enum PeopleBench {
    static let people = 1_000
    static let feedsPerSpace = 10

    /// Each person's API token: known, so that the HTTP bench can send it.
    static func token(_ person: Int) -> String { "tmp_bench_person_\(person)" }
    static func login(_ person: Int) -> String { "p\(person)" }
    static func spaceSlug(_ space: Int) -> String { "s\(space)" }
    static func feedSlug(space: Int, _ feed: Int) -> String { "s\(space)-f\(feed)" }

    /// Adds the people, spaces, feeds, memberships and tokens: person i owns
    /// space i, edits space i+1 and views space i+2 (modulo the count).
    static func populate(_ store: any CountdownStore) async throws {
        let batch = 100
        for first in stride(from: 0, to: people, by: batch) {
            try await store.transaction { tx in
                for i in first..<min(first + batch, people) {
                    let person = try await tx.save(PersonRecord(login: login(i), displayName: "Person \(i)", passwordHash: nil, createdAt: tx.now))
                    _ = try await tx.save(PersonTokenRecord(personId: try person.savedID(), label: "bench", tokenHash: Secret.hash(token(i)),
                                                                       readOnly: false, createdAt: tx.now))
                    let space = try await tx.save(SpaceRecord(slug: spaceSlug(i), name: "Space \(i)", createdAt: tx.now))
                    for f in 0..<feedsPerSpace {
                        var row = FeedRecord(Feed(slug: feedSlug(space: i, f), isPublic: false), now: tx.now)
                        row.spaceId = space.id
                        _ = try await tx.save(row)
                    }
                }
            }
        }
        try await store.transaction { tx in
            let personIds = try await tx.personRows(nil).reduce(into: [String: Int64]()) { $0[$1.login] = $1.id }
            let spaceIds = try await tx.spaceRows(nil).reduce(into: [String: Int64]()) { $0[$1.slug] = $1.id }
            for i in 0..<people {
                guard let person = personIds[login(i)] else { continue }
                for (offset, role) in [(0, SpaceRole.owner), (1, .editor), (2, .viewer)] {
                    guard let space = spaceIds[spaceSlug((i + offset) % people)] else { continue }
                    try await tx.setMember(spaceId: space, personId: person, to: MemberRecord(spaceId: space, personId: person, role: role, joinedAt: tx.now))
                }
            }
        }
    }

    /// `tminus-bench people-store PATH [FEED…]`: adds the people to the SQLite
    /// file at PATH and moves each FEED into the space person 0 views (for `bench/people.py`).
    static func populate(path: String, movingIntoTheirSpace feeds: [String]) async throws {
        try await DatabaseLocation.sqlite(path: path).withStore { store in
            try await populate(store)
            try await store.transaction { tx in
                guard let space = try await tx.spaceRows(.slug(spaceSlug(2))).first?.id else { return }
                for slug in feeds {
                    guard var row = try await tx.feedRow(slug: slug) else { throw StoreError.feedNotFound(slug) }
                    row.spaceId = space
                    _ = try await tx.save(row)
                }
            }
        }
    }

    /// Times the checks on a fresh store in a temporary directory and prints a table.
    static func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tminus-people-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await DatabaseLocation.sqlite(path: directory.appendingPathComponent("people.sqlite").path).withStore { store in
            let start = ContinuousClock.now
            try await populate(store)
            print("\npeople: \(people) people in \(people) spaces with \(feedsPerSpace) feeds each, SQLite (made in \(String(format: "%.1f", seconds(ContinuousClock.now - start))) s)")
            try await measure(CountdownService(store: store), store: store)
        }
    }

    private static func measure(_ service: CountdownService, store: any CountdownStore) async throws {
        let ids = try await store.read { try await $0.personRows(nil) }.reduce(into: [String: Int64]()) { $0[$1.login] = $1.id }
        let access = (0..<people).map { PersonAccess(id: ids[login($0)] ?? 0, login: login($0), isAdmin: false) }
        let services = access.map { service.acting(as: .person($0)) }
        let tokens = (0..<people).map(token)
        // Each person reads a feed of the space they view: the membership decides.
        let slugs = (0..<people).map { feedSlug(space: ($0 + 2) % people, $0 % feedsPerSpace) }
        for i in 0..<people { _ = try await service.person(forToken: tokens[i]) }   // each token's first use is written once

        func perCall(_ calls: Int, forgetting: Bool, _ body: (Int) async throws -> Void) async throws -> Double {
            var samples: [Double] = []
            for _ in 0..<5 {
                let start = ContinuousClock.now
                for call in 0..<calls {
                    if forgetting { service.access.forget() }
                    try await body(call % people)
                }
                samples.append(seconds(ContinuousClock.now - start) / Double(calls) * 1e6)
            }
            return samples.sorted()[2]
        }
        let checks: [(String, (Int) async throws -> Void)] = [
            ("the person behind an API token", { i in guard try await service.person(forToken: tokens[i]) != nil else { throw Missing() } }),
            ("a session's person", { i in guard try await service.sessionPerson(id: access[i].id, epoch: nil) != nil else { throw Missing() } }),
            ("permission check (a viewer reads a space's feed)", { i in try await services[i].authorize(.readFeed(slugs[i])) }),
            ("both: a person's API request", { i in
                guard let person = try await service.person(forToken: tokens[i]) else { throw Missing() }
                try await service.acting(as: .person(person)).authorize(.readFeed(slugs[i]))
            }),
        ]
        func column(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
        print(column("per request, median of 5", 52) + "      cached    store read")
        for (label, body) in checks {
            let cached = try await perCall(100_000, forgetting: false, body)
            let uncached = try await perCall(2_000, forgetting: true, body)
            let goal = label.hasPrefix("permission") ? "goal < 5 µs: " + (cached < 5 ? "ok" : "MISSED") : ""
            print(column(label, 52) + String(format: " %8.2f µs %10.2f µs   ", cached, uncached) + goal)
        }
    }

    private struct Missing: Error {}

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
