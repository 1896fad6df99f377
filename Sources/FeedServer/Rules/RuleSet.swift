import Countdowns

/// One level of rules: a source's (its `include:`, `exclude:` and `change:`)
/// or the feed's (`rules:`), named by where it was written for the dry run.
struct RuleSet: Sendable {
    /// Where the rules were written: `sources[1]`, `rules`.
    var label: String
    var filter: SourceFilter
    var change: RuleChange

    var isEmpty: Bool { filter.isEmpty && change.isEmpty }
}

/// What the rules did to one event.
enum RuleVerdict: Sendable, Equatable, CustomStringConvertible {
    case kept
    /// Kept and changed: the keys of what changed (`sources[0].change.prefix`).
    case changed([String])
    /// Dropped by the first condition that decided it (`rules.exclude.status`).
    case dropped(by: String)
    /// Dropped because another source has the same event and is preferred.
    case duplicate(of: String)

    var description: String {
        switch self {
        case .kept: "kept"
        case .changed(let keys): "changed (\(keys.joined(separator: ", ")))"
        case .dropped(let rule): "dropped by \(rule)"
        case .duplicate(let source): "duplicate, \(source) wins"
        }
    }
}

/// The rules an event of one source goes through, in order: the source's,
/// then the feed's. Both the import and `tminus rules test` call `apply`,
/// so the dry run says what the import does.
struct SourceRules: Sendable {
    var levels: [RuleSet]

    static let none = SourceRules(levels: [])

    var isEmpty: Bool { levels.allSatisfy(\.isEmpty) }

    /// The event as it passes, or nil when a rule drops it, and the verdict.
    func apply(_ countdown: Countdown, in context: RuleContext) -> (Countdown?, RuleVerdict) {
        var countdown = countdown
        var changed: [String] = []
        for level in levels {
            if let rule = level.filter.rejection(of: countdown, in: context) { return (nil, .dropped(by: "\(level.label).\(rule)")) }
            changed += level.change.apply(to: &countdown).map { "\(level.label).change.\($0)" }
        }
        return (countdown, changed.isEmpty ? .kept : .changed(changed))
    }
}
