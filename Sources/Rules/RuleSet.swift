import Countdowns

/// One level of rules: a source's (its `include:`, `exclude:` and `change:`)
/// or the feed's (`rules:`), named by where it was written for the dry run.
package struct RuleSet: Sendable {
    /// Where the rules were written: `sources[1]`, `rules`.
    package var label: String
    package var filter: SourceFilter
    package var change: RuleChange

    package init(label: String, filter: SourceFilter, change: RuleChange) {
        self.label = label
        self.filter = filter
        self.change = change
    }

    package var isEmpty: Bool { filter.isEmpty && change.isEmpty }
}

/// What the rules did to one event.
package enum RuleVerdict: Sendable, Equatable, CustomStringConvertible {
    case kept
    /// Kept and changed: the keys of what changed (`sources[0].change.prefix`).
    case changed([String])
    /// Dropped by the first condition that decided it (`rules.exclude.status`).
    case dropped(by: String)
    /// Dropped because another source has the same event and is preferred.
    case duplicate(of: String)

    package var description: String {
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
package struct SourceRules: Sendable {
    package var levels: [RuleSet]

    package init(levels: [RuleSet]) {
        self.levels = levels
    }

    package static let none = SourceRules(levels: [])

    package var isEmpty: Bool { levels.allSatisfy(\.isEmpty) }

    /// The event as it passes, or nil when a rule drops it, and the verdict.
    /// The CPU time the rules take is counted in `budget` (one per source
    /// import); past it, or once a shutdown stops the import, this throws,
    /// naming the rule and the event it was at.
    package func apply(_ countdown: Countdown, in context: RuleContext, budget: WorkBudget) throws(RulesStopped) -> (Countdown?, RuleVerdict) {
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
package struct RulesStopped: Error, CustomStringConvertible {
    package var reason: WorkBudget.Exhausted
    /// Where the rule was written (`sources[0].change`).
    package var rule: String
    package var event: String
    package var uid: String
    package var limit: Duration

    package var description: String {
        switch reason {
        case .overBudget: "the rules took more than \(limit.components.seconds) s of CPU at \(rule), on event '\(event)' (UID \(uid)); simplify that rule's patterns"
        case .stopped: "the import was stopped (the server is shutting down) at \(rule), on event '\(event)'"
        }
    }
}
