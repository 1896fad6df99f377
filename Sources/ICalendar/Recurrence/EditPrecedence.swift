import Foundation

/// Which of two copies of one component (the same UID, and the same
/// RECURRENCE-ID or none) a calendar shows. Exports and sync tools leave older
/// copies beside newer ones: an edited instance saved twice, or the whole
/// master written again after an instance was deleted. A calendar shows only
/// the latest edit: the higher SEQUENCE, then the later LAST-MODIFIED, then the
/// later DTSTAMP, then the copy that comes last in the file (a tool that
/// appends its edits writes the newer one last).
///
/// recurring-ical-events agrees while SEQUENCE differs; on a tie it keeps the
/// first copy in the file whatever the stamps say (docs/icalendar.md, "What the iCalendar
/// core handles").
public enum EditPrecedence {
    /// True when `later` (which came after `earlier` in the file) replaces it.
    public static func replaces(_ later: Component, _ earlier: Component) -> Bool {
        let new = Stamps(later), old = Stamps(earlier)
        if new.sequence != old.sequence { return new.sequence > old.sequence }
        if let decided = newer(new.lastModified, old.lastModified) { return decided }
        if let decided = newer(new.dtstamp, old.dtstamp) { return decided }
        return true
    }

    /// Why `winner` beat `loser`, for a diagnostic.
    public static func reason(_ winner: Component, over loser: Component) -> String {
        let new = Stamps(winner), old = Stamps(loser)
        if new.sequence != old.sequence { return "SEQUENCE \(new.sequence) against \(old.sequence)" }
        if newer(new.lastModified, old.lastModified) != nil { return "a later LAST-MODIFIED" }
        if newer(new.dtstamp, old.dtstamp) != nil { return "a later DTSTAMP" }
        return "it comes later in the file, and nothing else tells them apart"
    }

    /// The stamps an edit raises, read once per comparison.
    struct Stamps {
        var sequence: Int
        var lastModified: LocalDateTime?
        var dtstamp: LocalDateTime?

        init(_ component: Component) {
            sequence = component.first("SEQUENCE").flatMap { Int($0.value) } ?? 0
            lastModified = component.first("LAST-MODIFIED").flatMap(DateTimeValue.init(property:))?.local
            dtstamp = component.first("DTSTAMP").flatMap(DateTimeValue.init(property:))?.local
        }
    }

    /// Whether `new` is later than `old`, or nil when that does not decide it
    /// (equal, or neither given). A stamp beats no stamp.
    private static func newer(_ new: LocalDateTime?, _ old: LocalDateTime?) -> Bool? {
        switch (new, old) {
        case (nil, nil): nil
        case (_?, nil): true
        case (nil, _?): false
        case let (new?, old?): new == old ? nil : new > old
        }
    }
}
