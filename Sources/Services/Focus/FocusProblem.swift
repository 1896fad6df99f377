import Countdowns
import Foundation

/// Why a focus request was refused; each case leaves everything as it was.
public enum FocusProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field is out of range or empty.
    case invalid(FocusInvalid)
    /// One person runs one session at a time: this one (409 to HTTP clients).
    case alreadyRunning(FocusStatus)
    /// Stop, pause, resume or extend, with nothing running.
    case notRunning
    /// Only a person focuses: the admin token and feed tokens have no focus of their own.
    case noPerson

    public var description: String {
        switch self {
        case .invalid(let invalid): invalid.description
        case .alreadyRunning(let status):
            "a session is running: \(status.tag), \(status.phase == FocusPhase.study.rawValue ? "" : status.phase + ", ")"
                + "\(Int((status.remainingSeconds / 60).rounded(.up))) min left (`tminus focus stop` ends it)"
        case .notRunning: "no focus session is running (`tminus focus start TAG` starts one)"
        case .noPerson: "focus sessions are a person's: sign in, or use a person's token"
        }
    }
}
