import Countdowns
import Foundation
import ICalendar

/// A `countdown` row, the same in both stores. `content` is the countdown as
/// iCalendar with volatile fields (sequence, stamps, source) cleared; the
/// columns are authoritative for those.
public struct CountdownRecord: Codable, Sendable, Equatable {
    public var id: Int64?
    public var feedId: Int64
    public var sourceId: Int64?
    public var uid: String
    public var title: String
    public var kind: Countdown.Kind
    public var status: CountdownStatus
    public var startsOn: String
    public var sequence: Int
    public var createdAt: Date
    public var lastModified: Date
    public var content: String
    /// Who made it and who changed it last (schema v14; nil before).
    public var createdBy: String?
    public var changedBy: String?
    /// Where the countdown can at the earliest stand in its feed's list
    /// (`PlaceBound`, schema v21; nil before, until the upgrade's round places it).
    public var placeRank: Int?
    public var placeFrom: Int64?
    public var placeCheckAt: Int64?
    /// The person who changed it last, when a person did (schema v23): what the
    /// board credits, since a label can name a person deleted since, or no one
    /// (issue #59, 13: a new `bob` was credited with a deleted bob's tasks).
    public var changedByPerson: Int64?

    /// Every column, as a row holds them.
    public init(id: Int64?, feedId: Int64, sourceId: Int64?, uid: String, title: String, kind: Countdown.Kind, status: CountdownStatus, startsOn: String,
                sequence: Int, createdAt: Date, lastModified: Date, content: String, createdBy: String? = nil, changedBy: String? = nil,
                place: PlaceBound? = nil) {
        self.id = id
        self.feedId = feedId
        self.sourceId = sourceId
        self.uid = uid
        self.title = title
        self.kind = kind
        self.status = status
        self.startsOn = startsOn
        self.sequence = sequence
        self.createdAt = createdAt
        self.lastModified = lastModified
        self.content = content
        self.createdBy = createdBy
        self.changedBy = changedBy
        self.place = place
    }

    /// `content`, when the caller already has it, saves serializing the countdown
    /// again; `place`, placing it (an import places its rows before its transaction).
    public init(_ countdown: Countdown, feedId: Int64, sourceId: Int64?, now: Date, content: String? = nil, place: PlaceBound? = nil) {
        self.feedId = feedId
        self.sourceId = sourceId
        uid = countdown.uid
        title = countdown.title
        kind = countdown.kind
        status = countdown.status
        startsOn = countdown.target.civilDate.iso
        sequence = countdown.sequence
        createdAt = countdown.created ?? now
        lastModified = countdown.lastModified ?? now
        self.content = content ?? Self.content(of: countdown)
        createdBy = countdown.createdBy
        changedBy = countdown.changedBy
        // Every write places the row as it writes it: the first page reads it (issue #41).
        self.place = place ?? PlaceBound(countdown, at: now)
    }

    /// The three place columns as one value; nil while any is unknown.
    public var place: PlaceBound? {
        get {
            guard let placeRank, let placeFrom, let placeCheckAt else { return nil }
            return PlaceBound(rank: placeRank, from: placeFrom, checkAt: placeCheckAt)
        }
        set {
            placeRank = newValue?.rank
            placeFrom = newValue?.from
            placeCheckAt = newValue?.checkAt
        }
    }

    /// The canonical text two versions of a countdown are compared by.
    public static func content(of countdown: Countdown) -> String { CountdownArchive.text(of: countdown) }

    /// This row with its content as it is understood now (`CountdownArchive.repaired`);
    /// nil when nothing changes. Its id, stamps, sequence and authors stay.
    public func repaired() throws -> CountdownRecord? {
        guard let countdown = try CountdownArchive.repaired(content) else { return nil }
        var row = CountdownRecord(keepingStamps(countdown), feedId: feedId, sourceId: sourceId, now: lastModified)
        row.id = id
        row.changedByPerson = changedByPerson
        return row
    }

    public func countdown(source: String?) throws -> Countdown {
        guard let countdown = try CountdownArchive.countdown(from: content, source: source) else {
            throw StoreError.invalid("countdown \(id ?? 0) has unreadable content")
        }
        return keepingStamps(countdown)
    }

    /// `countdown` with what this row keeps beside its content (`CountdownArchive` leaves it out).
    private func keepingStamps(_ countdown: Countdown) -> Countdown {
        var kept = countdown
        kept.id = id
        kept.sequence = sequence
        kept.created = createdAt
        kept.lastModified = lastModified
        kept.createdBy = createdBy
        kept.changedBy = changedBy
        return kept
    }
}
