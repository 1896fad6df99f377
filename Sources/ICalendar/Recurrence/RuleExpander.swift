/// Expands one RRULE in wall-clock time: the plain Gregorian rules most
/// calendars hold by date arithmetic (`PlainRuleExpander`, the fast path),
/// RFC 7529 rules in other calendars with `RscaleExpander`, and every other
/// Gregorian rule by RFC 5545's expand/limit table (`GregorianRuleExpander`,
/// which replaced libical 3.0.16's iterator: issue #61). The first two agree
/// with the third wherever they answer (`PlainRuleExpanderTests`), so the
/// path never shows in the result. Unbounded rules are cut off by the caller's
/// limit and a period budget, never by hanging.
public struct RuleExpander: Sendable {
    public struct Result: Sendable, Equatable {
        public var occurrences: [LocalDateTime]
        /// True when the limit or the iteration budget stopped expansion early.
        public var truncated: Bool
    }

    public var rule: RecurrenceRule
    public var start: LocalDateTime
    public var isDate: Bool
    /// Periods looked at per expansion, so filters that rarely match still end.
    public var iterationBudget: Int
    /// Wall time allowed per expansion, checked between periods: a last bound
    /// where a period holds many candidates (a SECONDLY day).
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
        return gregorianExpansion(from: from, to: to, limit: limit)
    }

    /// The same answer by RFC 5545's whole table, for every rule `PlainRuleExpander`
    /// does not take (and, in its tests, for the ones it does).
    func gregorianExpansion(from: LocalDateTime?, to: LocalDateTime, limit: Int) -> Result {
        // What is left of RSCALE is calendar-independent (RscaleExpander.problem).
        let gregorian = rule.removing(["RSCALE", "SKIP"])
        guard let expander = GregorianRuleExpander(rule: gregorian, start: start, isDate: isDate, periodBudget: iterationBudget,
                                                   timeBudget: timeBudget) else {
            return Result(occurrences: [], truncated: false)
        }
        return expander.expand(from: from, to: to, limit: limit)
    }
}
