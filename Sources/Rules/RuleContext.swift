import Foundation
import ICalendar

/// What a rule is checked against besides the event: the instant of the
/// import and the feed's zone, so `from: -7d` means seven days before today
/// where the feed lives. Injected, never read from the clock inside a rule.
package struct RuleContext: Sendable {
    package var now: Date
    package var zone: Zone

    package init(now: Date, zone: Zone) {
        self.now = now
        self.zone = zone
    }

    package var today: CivilDate { zone.local(of: now).date }
}
