/// Expands one RRULE in wall-clock time: plain Gregorian rules by date
/// arithmetic (`PlainRuleExpander`), RFC 7529 rules in other calendars with
/// `RscaleExpander`, and the rest with libical, repairing what libical 3.0.16 gets wrong: unsorted and repeated output, BYSETPOS outside MONTHLY and
/// YEARLY, and negative BYMONTHDAY / BYYEARDAY used as limits. Unbounded rules
/// are cut off by the caller's limit and an iteration budget, never by hanging.
public struct RuleExpander: Sendable {
    public struct Result: Sendable, Equatable {
        public var occurrences: [LocalDateTime]
        /// True when the limit or the iteration budget stopped expansion early.
        public var truncated: Bool
    }

    public var rule: RecurrenceRule
    public var start: LocalDateTime
    public var isDate: Bool
    /// Raw libical steps allowed per expansion, so filters that rarely match still end.
    public var iterationBudget: Int
    /// Wall time allowed per expansion: what the step budget cannot see, since
    /// one libical step may test many candidates. Checked between steps.
    public var timeBudget: Duration

    public init(rule: RecurrenceRule, start: LocalDateTime, isDate: Bool, iterationBudget: Int = 500_000,
                timeBudget: Duration = .milliseconds(250)) {
        self.rule = rule
        self.start = start
        self.isDate = isDate
        self.iterationBudget = iterationBudget
        self.timeBudget = timeBudget
    }

    /// Occurrences with `from <= t < to` (no lower bound when `from` is nil),
    /// sorted and unique, at most `limit` of them.
    public func expand(from: LocalDateTime?, to: LocalDateTime, limit: Int) -> Result {
        if let rscale = RscaleExpander(rule: rule, start: start, isDate: isDate) {
            return rscale.expand(from: from, to: to, limit: limit, deadline: ContinuousClock.now + timeBudget)
        }
        if let plain = PlainRuleExpander(rule: rule, start: start, isDate: isDate, periodBudget: iterationBudget) {
            return plain.expand(from: from, to: to, limit: limit)
        }
        return libicalExpansion(from: from, to: to, limit: limit)
    }

    /// The same answer through libical's iterator, for every rule `PlainRuleExpander` does not take.
    func libicalExpansion(from: LocalDateTime?, to: LocalDateTime, limit: Int) -> Result {
        // What is left of RSCALE is calendar-independent (RscaleExpander.problem).
        let plan = RuleRepair(rule: rule.removing(["RSCALE", "SKIP"]), start: start, isDate: isDate)
        guard let iterator = LibicalRecurrenceIterator(rule: plan.libicalRule, start: plan.libicalStart, isDate: isDate) else {
            return Result(occurrences: [], truncated: false)
        }
        if let from, from > start, !plan.needsWholeSeries, plan.libicalRule.count == nil {
            // A yearly rule from 1900 starts next to `from` instead of walking 126 years.
            _ = iterator.jump(to: LocalDateTime(wallSeconds: from.wallSeconds - plan.periodSeconds))
        }
        let stopAfter = to.wallSeconds + plan.periodSeconds
        var raw: [LocalDateTime] = []
        var inWindow = 0
        var steps = 0
        var truncated = false
        let deadline = ContinuousClock.now + timeBudget
        while let next = iterator.next() {
            steps += 1
            if next.wallSeconds > stopAfter { break }
            if steps > iterationBudget || (steps % 16 == 0 && ContinuousClock.now > deadline) { truncated = true; break }
            guard plan.accepts(next) else { continue }
            raw.append(next)
            if next >= (from ?? next), next < to { inWindow += 1 }
            if let count = plan.count, plan.setPositions.isEmpty, raw.count >= count + 64 { break }
            if let count = plan.count, !plan.setPositions.isEmpty, raw.count % 4096 == 0,
               plan.selectPositions(Array(Set(raw)).sorted()).count > count + 1 { break }
            if inWindow > limit + 64 { truncated = true; break }
        }
        var occurrences = Array(Set(raw)).sorted()
        if !plan.setPositions.isEmpty {
            occurrences = plan.selectPositions(occurrences)
        }
        if let count = plan.count { occurrences = Array(occurrences.prefix(count)) }
        occurrences = occurrences.filter { $0 >= (from ?? $0) && $0 < to }
        if occurrences.count > limit {
            occurrences = Array(occurrences.prefix(limit))
            truncated = true
        }
        return Result(occurrences: occurrences, truncated: truncated)
    }
}
