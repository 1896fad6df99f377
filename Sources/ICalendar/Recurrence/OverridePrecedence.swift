import Foundation

/// Which of two overrides for the same instance wins. Exports and sync tools
/// sometimes leave an older copy of an edited instance beside the newer one;
/// a calendar shows only the latest edit: the higher SEQUENCE, then the later
/// LAST-MODIFIED, then the one that came first in the file (as
/// recurring-ical-events does when SEQUENCE ties).
enum OverridePrecedence {
    /// True when `candidate` replaces `current` (which came earlier in the file).
    static func replaces(_ candidate: Component, _ current: Component) -> Bool {
        let sequence = { (component: Component) in component.first("SEQUENCE").flatMap { Int($0.value) } ?? 0 }
        if sequence(candidate) != sequence(current) { return sequence(candidate) > sequence(current) }
        guard let new = lastModified(candidate) else { return false }
        guard let old = lastModified(current) else { return true }
        return new > old
    }

    private static func lastModified(_ component: Component) -> LocalDateTime? {
        component.first("LAST-MODIFIED").flatMap(DateTimeValue.init(property:))?.local
    }
}
