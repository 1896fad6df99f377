/// A Pomodoro cycle's lengths, in minutes: `rounds` studies, a short break
/// after each but the last, and a long break that ends the cycle (25/5/15/4,
/// the technique's own). A cycle ends, so a session left running on a
/// forgotten laptop does not fill the calendar with studies nobody did.
public struct PomodoroPlan: Sendable, Codable, Equatable {
    public var study: Int
    public var shortBreak: Int
    public var longBreak: Int
    public var rounds: Int

    public static let standard = PomodoroPlan(study: 25, shortBreak: 5, longBreak: 15, rounds: 4)

    public init(study: Int, shortBreak: Int, longBreak: Int, rounds: Int) {
        self.study = study
        self.shortBreak = shortBreak
        self.longBreak = longBreak
        self.rounds = rounds
    }

    /// Each length from 1 to `FocusSession.maxMinutes`, rounds from 1 to 12;
    /// nil when it holds, else what is wrong, naming the field.
    public var problem: String? {
        for (name, value) in [("study", study), ("short break", shortBreak), ("long break", longBreak)]
            where !FocusSession.minuteRange.contains(value) {
            return "a \(name) of \(value) minutes is not from \(FocusSession.minuteRange.lowerBound) to \(FocusSession.minuteRange.upperBound)"
        }
        return (1...12).contains(rounds) ? nil : "\(rounds) rounds is not from 1 to 12"
    }

    /// The phase that follows `phase` of round `round`, nil when the cycle is over.
    func next(after phase: FocusPhase, round: Int) -> (phase: FocusPhase, round: Int, minutes: Int)? {
        switch phase {
        case .study: round >= rounds ? (.longBreak, round, longBreak) : (.shortBreak, round, shortBreak)
        case .shortBreak: (.study, round + 1, study)
        case .longBreak: nil
        }
    }
}
