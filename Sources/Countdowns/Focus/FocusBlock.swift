import Foundation

/// A finished stretch of a focus session: what lands in the person's focus
/// feed as one event (a study; a break too, when they keep breaks).
public struct FocusBlock: Sendable, Equatable {
    public var tag: String
    public var phase: FocusPhase
    public var start: Date
    public var end: Date
    /// The time actually focused: `end - start` less the pauses.
    public var focusedSeconds: Int
    /// The live event this block finishes.
    public var uid: String

    public var focusedMinutes: Int { (focusedSeconds + 30) / 60 }

    /// "25 min", "under a minute": how long, for a title or a line.
    public var focusedText: String { focusedSeconds < 30 ? "under a minute" : "\(focusedMinutes) min" }
}
