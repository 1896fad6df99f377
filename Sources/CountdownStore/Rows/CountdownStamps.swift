import Countdowns
import Foundation

/// How a write stamps a countdown, the same in every store: SEQUENCE and
/// LAST-MODIFIED only rise, CREATED never changes after the first save. Calendar
/// clients take an event as news only when its SEQUENCE or LAST-MODIFIED moved.
public enum CountdownStamps {
    /// Added by hand: sequence 0, created and modified now.
    public static func added(_ countdown: Countdown, now: Date) -> Countdown {
        var fresh = countdown
        fresh.sequence = 0
        fresh.created = now
        fresh.lastModified = now
        return fresh
    }

    /// Edited, when its content really changed: one sequence above the row's,
    /// the row's creation date, and a last-modified that never moves back.
    public static func edited(_ countdown: Countdown, row: CountdownRecord, now: Date) -> Countdown {
        var edited = countdown
        edited.sequence = row.sequence + 1
        edited.created = row.createdAt
        edited.lastModified = max(now, row.lastModified)
        return edited
    }

    /// Written by a calendar app (a CalDAV PUT): its SEQUENCE as it wrote it (RFC 5546 has the
    /// organizer, not the server, decide when it rises: a PUT with SEQUENCE:3 read back 0), its
    /// CREATED and LAST-MODIFIED where it gave them; otherwise as `added` or `edited` say.
    public static func written(_ countdown: Countdown, row: CountdownRecord?, now: Date) -> Countdown {
        var written = countdown
        written.created = countdown.created ?? row?.createdAt ?? now
        written.lastModified = countdown.lastModified ?? max(now, row?.lastModified ?? now)
        return written
    }

    /// Put back after a delete (Undo): the same UID, a sequence above the one it
    /// had, so that clients that saw it go take it back.
    public static func restored(_ countdown: Countdown, now: Date) -> Countdown {
        var restored = countdown
        restored.id = nil
        restored.sequence = countdown.sequence + 1
        restored.created = countdown.created ?? now
        restored.lastModified = now
        return restored
    }
}
