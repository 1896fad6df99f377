import Countdowns
import CountdownStore
import Foundation

/// What happened in a space: its activity (the newest changes first, from
/// the change log) and its board (who completed the most tasks, from what
/// each countdown keeps).
extension CountdownService {
    /// The last `limit` changes in `slug`'s feeds (additions, changes,
    /// deletions and moves), newest first.
    public func activity(space slug: String, limit: Int = 200) async throws -> [ActivityEntry] {
        try await authorize(.readSpace(slug))
        let limit = max(1, min(limit, 1_000))
        return try await store.read { reader in
            let space = try await Self.requireSpace(slug, reader)
            let feeds = try await reader.feedRows(nil, lock: false).filter { $0.spaceId == space.id }
            var names: [Int64: (slug: String, name: String)] = [:]
            for feed in feeds { names[try feed.savedID()] = (feed.slug, feed.feed(categoryColors: [:]).name) }
            let changes = try await reader.changeRows(ChangeQuery(feedIds: Array(names.keys), limit: limit, newestFirst: true))
            return changes.compactMap { change in
                guard let feed = names[change.feedId] else { return nil }
                return ActivityEntry(kind: change.kind, who: change.actor, title: change.title, feed: feed.slug, feedName: feed.name,
                                     countdownId: change.countdownId, at: change.at)
            }
        }
    }

    /// The members of `slug` by tasks they completed in `period` up to now,
    /// most first (ties by name), with the time each focused (issue #42);
    /// those who chose to be left off are. A
    /// completion tminus recorded is in UTC; one imported in a zone is read
    /// as if UTC (a day's difference at a period's edge, at most).
    public func board(space slug: String, period: BoardPeriod) async throws -> [BoardStanding] {
        try await authorize(.readSpace(slug))
        let since = period.start(containing: clock())
        let me: Int64? = if case .person(let person) = principal { person.id } else { nil }
        return try await store.read { reader in
            let space = try await Self.requireSpace(slug, reader)
            var done: [Int64: Int] = [:]
            for feed in try await reader.feedRows(nil, lock: false) where feed.spaceId == space.id {
                for row in try await reader.countdownRows(.feed(try feed.savedID(), uid: nil)) where row.kind == .task && row.status == .completed {
                    // By the person's id, never a label (issue #59, 13): one deleted since, or none, is credited to nobody.
                    guard let who = row.changedByPerson, let completed = try row.countdown(source: nil).completedAt,
                          Date(timeIntervalSince1970: TimeInterval(completed.local.wallSeconds)) >= since else { continue }
                    done[who, default: 0] += 1
                }
            }
            var standings: [BoardStanding] = []
            for member in try await reader.memberRows(spaceId: try space.savedID(), personId: nil) where !member.hiddenFromBoard {
                guard let person = try await reader.personRows(.id(member.personId)).first else { continue }
                var standing = BoardStanding(login: person.login, name: person.displayName, completed: done[member.personId] ?? 0,
                                             isMe: member.personId == me)
                standing.focusedSeconds = try await Self.focusedSeconds(of: PersonAccess(id: member.personId, login: person.login, isAdmin: person.isAdmin),
                                                                        since: since, reader)
                standings.append(standing)
            }
            return standings.sorted { ($1.completed, $0.name) < ($0.completed, $1.name) }
        }
    }

    /// Leaves the signed-in person off `slug`'s board, or puts them back.
    public func setOnBoard(space slug: String, _ shown: Bool) async throws {
        try await authorize(.seeSpace(slug))
        guard case .person(let me) = principal else { throw StoreError.invalid("only a member may hide from a board") }
        try await transaction { tx in
            let space = try await Self.requireSpace(slug, tx)
            guard var member = try await tx.memberRows(spaceId: try space.savedID(), personId: me.id).first else {
                throw StoreError.invalid("you are not a member of '\(slug)'")
            }
            member.hiddenFromBoard = !shown
            try await tx.setMember(spaceId: member.spaceId, personId: member.personId, to: member)
        }
    }
}
