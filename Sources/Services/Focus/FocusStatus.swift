import Countdowns
import Foundation
import ICalendar

/// A running session as the CLI, the API and the app show it: what runs,
/// and the instants its phase keeps time by (a page counts from `phaseEndsAt`,
/// not from its own ticks, so a reload shows the same time left).
public struct FocusStatus: Sendable, Equatable, Encodable {
    public var tag: String
    public var mode: String
    public var phase: String
    public var round: Int
    public var rounds: Int?
    public var minutes: Int
    public var phaseMinutes: Int
    public var startedAt: String
    public var phaseStartedAt: String
    public var phaseEndsAt: String
    public var remainingSeconds: Double
    public var elapsedSeconds: Double
    public var paused: Bool
    /// The person's focus feed, where the running block shows as a busy event.
    public var feed: String

    public init(_ session: FocusSession, feed: String, now: Date) {
        tag = session.tag
        mode = session.mode.rawValue
        phase = session.phase.rawValue
        round = session.round
        rounds = session.pomodoro?.rounds
        minutes = session.minutes
        phaseMinutes = session.phaseMinutes
        startedAt = UTCStamp.iso(session.startedAt)
        phaseStartedAt = UTCStamp.iso(session.phaseStartedAt)
        phaseEndsAt = UTCStamp.iso(session.phaseEnd(at: now))
        remainingSeconds = session.remaining(at: now).rounded()
        elapsedSeconds = session.elapsed(at: now).rounded()
        paused = session.isPaused
        self.feed = feed
    }
}
