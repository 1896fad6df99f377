import Countdowns
import ICalendar

/// How long an event lasts, as a rule's `duration:` compares it: its DURATION,
/// else from its start to its DTEND on the wall clock (a day that changes the
/// clocks does not make a one-hour meeting two), else a day for an all-day
/// event and nothing for a timed one, as RFC 5545 §3.6.1 reads them.
package enum EventLength {
    package static func seconds(of countdown: Countdown) -> Int {
        if let duration = countdown.duration { return duration.days * 86_400 + duration.seconds }
        if let end = countdown.end { return max(0, Int(end.local.wallSeconds - countdown.target.local.wallSeconds)) }
        return countdown.isAllDay ? 86_400 : 0
    }
}
