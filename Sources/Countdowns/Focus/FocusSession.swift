import Foundation

/// A running focus session, kept on the server (so the phone and the laptop
/// show the same one, and a restart loses nothing) as one document per
/// person. Its phase keeps time from instants, never from ticks: what is
/// left is `phaseEnd(at:) - now`, whoever asks and whenever.
///
/// Every change is a pure step returning the new session and the blocks it
/// finished; the service stores both in one transaction, and the clock is
/// the caller's (a test drives a whole Pomodoro cycle with a `TestClock`).
public struct FocusSession: Sendable, Codable, Equatable {
    /// A session's committed length, and each Pomodoro length, in minutes.
    public static let minuteRange = 1...180

    public var tag: String
    public var mode: FocusMode
    /// The committed length (`down`, `up`); for a Pomodoro, `pomodoro.study`.
    public var minutes: Int
    public var pomodoro: PomodoroPlan?
    /// Breaks are kept as events of their own, or left out.
    public var keepBreaks: Bool
    public var startedAt: Date
    public var phase: FocusPhase
    /// The study round the phase belongs to, from 1.
    public var round: Int
    public var phaseStartedAt: Date
    /// The current phase's length, extensions included.
    public var phaseMinutes: Int
    public var pausedAt: Date?
    /// Paused time of the current phase, before `pausedAt`.
    public var pausedSeconds: Double
    /// The live event of the current phase in the person's focus feed.
    public var uid: String

    /// A new session from `now`; refused (with what is wrong) when a length is out of range.
    public static func start(tag: String, mode: FocusMode, minutes: Int?, pomodoro: PomodoroPlan?, keepBreaks: Bool, now: Date,
                             uid: String) throws(FocusInvalid) -> FocusSession {
        let plan = mode == .pomodoro ? (pomodoro ?? .standard) : nil
        if let problem = plan?.problem { throw FocusInvalid(field: "pomodoro", message: problem) }
        let length = plan?.study ?? minutes ?? 25
        guard minuteRange.contains(length) else {
            throw FocusInvalid(field: "minutes", message: "\(length) minutes is not from \(minuteRange.lowerBound) to \(minuteRange.upperBound)")
        }
        return FocusSession(tag: tag, mode: mode, minutes: length, pomodoro: plan, keepBreaks: keepBreaks, startedAt: now, phase: .study, round: 1,
                            phaseStartedAt: now, phaseMinutes: length, pausedAt: nil, pausedSeconds: 0, uid: uid)
    }

    /// Paused time of the current phase up to `now`.
    public func paused(at now: Date) -> Double { pausedSeconds + (pausedAt.map { max(0, now.timeIntervalSince($0)) } ?? 0) }

    /// When the current phase ends, if it is not paused again: its start, its
    /// length and every pause so far.
    public func phaseEnd(at now: Date) -> Date { phaseStartedAt.addingTimeInterval(Double(phaseMinutes) * 60 + paused(at: now)) }

    /// Seconds left in the current phase (never below zero).
    public func remaining(at now: Date) -> Double { max(0, phaseEnd(at: now).timeIntervalSince(now)) }

    /// Seconds of the current phase spent, pauses left out.
    public func elapsed(at now: Date) -> Double { max(0, min(now, phaseEnd(at: now)).timeIntervalSince(phaseStartedAt) - paused(at: now)) }

    public var isPaused: Bool { pausedAt != nil }

    /// The session as it stands at `now`: each phase whose end has passed is
    /// finished (a Pomodoro moves on to its next phase, from the instant the
    /// last one ended); nil once the session is over. A paused phase never ends.
    public func rolled(to now: Date) -> (session: FocusSession?, finished: [FocusBlock]) {
        var session = self
        var finished: [FocusBlock] = []
        while session.pausedAt == nil {
            let end = session.phaseEnd(at: now)
            guard end <= now else { return (session, finished) }
            finished.append(session.block(endingAt: end))
            guard let plan = session.pomodoro, let next = plan.next(after: session.phase, round: session.round) else { return (nil, finished) }
            session.phase = next.phase
            session.round = next.round
            session.phaseStartedAt = end
            session.phaseMinutes = next.minutes
            session.pausedSeconds = 0
            session.uid = FocusSession.uid(after: session.uid, phase: next.phase, round: next.round)
        }
        return (session, finished)
    }

    /// Stops at `now`: the current phase is finished as far as it went (a
    /// study stopped early keeps what was done, however short, as at least a
    /// second; a break, or a study paused from its first instant, is dropped).
    public func stopped(at now: Date) -> FocusBlock? {
        let end = min(now, phaseEnd(at: now))
        guard phase == .study, end.timeIntervalSince(phaseStartedAt) - paused(at: now) > 0 else { return nil }
        var block = block(endingAt: end, at: now)
        block.focusedSeconds = max(1, block.focusedSeconds)
        return block
    }

    public func pausing(at now: Date) -> FocusSession {
        guard pausedAt == nil else { return self }
        var session = self
        session.pausedAt = now
        return session
    }

    public func resuming(at now: Date) -> FocusSession {
        guard pausedAt != nil else { return self }
        var session = self
        session.pausedSeconds = paused(at: now)
        session.pausedAt = nil
        return session
    }

    /// The current phase, `minutes` longer (at most `minuteRange`'s upper bound in all).
    public func extended(by minutes: Int) throws(FocusInvalid) -> FocusSession {
        guard (1...Self.minuteRange.upperBound).contains(minutes), phaseMinutes <= Self.minuteRange.upperBound - minutes else {
            throw FocusInvalid(field: "minutes", message: "a phase is at most \(Self.minuteRange.upperBound) minutes; it has \(phaseMinutes)")
        }
        var session = self
        session.phaseMinutes += minutes
        return session
    }

    private func block(endingAt end: Date, at now: Date? = nil) -> FocusBlock {
        let pauses = paused(at: now ?? end)
        let focused = max(0, end.timeIntervalSince(phaseStartedAt) - pauses)
        return FocusBlock(tag: tag, phase: phase, start: phaseStartedAt, end: end, focusedSeconds: Int(focused.rounded()), uid: uid)
    }

    /// Each phase's event has its own UID, made from the session's first.
    static func uid(after previous: String, phase: FocusPhase, round: Int) -> String {
        let base = previous.split(separator: "#").first.map(String.init) ?? previous
        return "\(base)#\(round)-\(phase.rawValue)"
    }
}

/// A focus request refused: which field, and why.
public struct FocusInvalid: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
    public var description: String { "\(field): \(message)" }
}
