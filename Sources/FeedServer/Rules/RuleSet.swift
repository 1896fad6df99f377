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
    /// The CPU time the rules take is counted in `budget` (one per source
    /// import); past it, or once a shutdown stops the import, this throws,
    /// naming the rule and the event it was at.
    func apply(_ countdown: Countdown, in context: RuleContext, budget: WorkBudget) throws(RulesStopped) -> (Countdown?, RuleVerdict) {
        var countdown = countdown
        var changed: [String] = []
        for level in levels {
            var part = "\(level.label).include/exclude"
            do {
                if let rule = try budget.measure({ () throws(WorkBudget.Exhausted) in try level.filter.rejection(of: countdown, in: context, budget: budget) }) {
                    return (nil, .dropped(by: "\(level.label).\(rule)"))
                }
                part = "\(level.label).change"
                changed += try budget.measure { () throws(WorkBudget.Exhausted) in try level.change.apply(to: &countdown, budget: budget) }
                    .map { "\(level.label).change.\($0)" }
            } catch {
                throw RulesStopped(reason: error, rule: part, event: countdown.title, uid: countdown.uid, limit: budget.limit)
            }
        }
        return (countdown, changed.isEmpty ? .kept : .changed(changed))
    }
}

/// Rules that stopped before an import was done: past their CPU time, or
/// asked to stop (a shutdown). The source's import fails with this message.
struct RulesStopped: Error, CustomStringConvertible {
    var reason: WorkBudget.Exhausted
    /// Where the rule was written (`sources[0].change`).
    var rule: String
    var event: String
    var uid: String
    var limit: Duration

    var description: String {
        switch reason {
        case .overBudget: "the rules took more than \(limit.components.seconds) s of CPU at \(rule), on event '\(event)' (UID \(uid)); simplify that rule's patterns"
        case .stopped: "the import was stopped (the server is shutting down) at \(rule), on event '\(event)'"
        }
    }
}
