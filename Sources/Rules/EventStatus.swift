import Countdowns

/// An event's iCalendar STATUS as a rule matches it, in lower case. tminus
/// models cancelled and completed; the others stay in the event's properties.
/// Without a STATUS an event counts as confirmed and a task as needs-action,
/// as calendar clients show them.
package enum EventStatus {
    package static let names: Set<String> = ["tentative", "confirmed", "cancelled", "needs-action", "completed", "in-process"]

    package static func of(_ countdown: Countdown) -> String {
        switch countdown.status {
        case .cancelled: return "cancelled"
        case .completed: return "completed"
        case .active:
            if let written = countdown.extraProperties.first(where: { $0.name == "STATUS" })?.value.lowercased(), names.contains(written) {
                return written
            }
            return countdown.kind == .task ? "needs-action" : "confirmed"
        }
    }
}
