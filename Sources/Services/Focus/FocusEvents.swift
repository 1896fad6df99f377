import Countdowns
import Foundation
import ICalendar

/// The events a session leaves in the focus feed: "Focus: Maths" while it
/// runs (busy, ending when the phase ends), "Focus: Maths — 25 min" when it is
/// done, its tag as CATEGORIES and its phase and focused seconds in
/// `X-TMINUS-FOCUS` (what `FocusEntry` reads back).
enum FocusEvents {
    static func live(_ session: FocusSession, at now: Date) -> Countdown {
        var event = Countdown(uid: session.uid, title: title(session.tag, session.phase, done: nil), target: instant(session.phaseStartedAt))
        event.end = instant(session.phaseEnd(at: now))
        event.categories = [session.tag]
        event.extraProperties = [Property(name: FocusEntry.property, value: "\(session.phase.rawValue);running")]
        return event
    }

    static func finished(_ block: FocusBlock) -> Countdown {
        var event = Countdown(uid: block.uid, title: title(block.tag, block.phase, done: block.focusedText), target: instant(block.start))
        event.end = instant(max(block.end, block.start.addingTimeInterval(1)))
        event.categories = [block.tag]
        event.direction = .up
        event.extraProperties = [Property(name: FocusEntry.property, value: "\(block.phase.rawValue);\(block.focusedSeconds)")]
        return event
    }

    /// "Focus: Maths", "Focus: Maths — 25 min", "Break — 5 min".
    static func title(_ tag: String, _ phase: FocusPhase, done: String?) -> String {
        let what = phase == .study ? "Focus: \(tag)" : phase == .longBreak ? "Long break" : "Break"
        return done.map { "\(what) — \($0)" } ?? what
    }

    /// An instant as a UTC DATE-TIME to the second.
    static func instant(_ date: Date) -> DateTimeValue { .utc(Zone.utc.local(of: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))) }
}
