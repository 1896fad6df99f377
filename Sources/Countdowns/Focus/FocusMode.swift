/// How a focus session counts (issue #42): down to its end ("panicking"), up
/// from its start ("growing"), both for a committed length; or in Pomodoro
/// rounds of study and break.
public enum FocusMode: String, Sendable, Codable, CaseIterable {
    case down, up, pomodoro
}

/// Which stretch of a session is running: study, or one of the two breaks.
public enum FocusPhase: String, Sendable, Codable, CaseIterable {
    case study
    case shortBreak = "short-break"
    case longBreak = "long-break"

    public var isBreak: Bool { self != .study }
}
