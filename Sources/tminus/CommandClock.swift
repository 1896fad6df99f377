import Foundation

/// The instant the command line counts from: now, or `TMINUS_NOW`
/// (`2026-11-24T12:00:00Z`) for output that must not change from day to day —
/// the manual's examples are run with it in `make test`, and a script can
/// ask "how would this look on the first of the month". Commands that keep
/// time (the store's stamps, a focus session) count from it too, so what they
/// write agrees with what they print. Read once; a value that is not an
/// instant stops the command (exit 64) before anything is read or written.
enum CommandClock {
    static let variable = "TMINUS_NOW"

    private static let fixed: Date? = {
        guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else { return nil }
        guard let date = ISO8601DateFormatter().date(from: text) else {
            FileHandle.standardError.write(Data("error: \(variable)='\(text.prefix(40))' is not an instant such as 2026-11-24T12:00:00Z (unset it to count from now)\n".utf8))
            exit(ExitStatus.usage.rawValue)
        }
        return date
    }()

    /// When the command started, by `TMINUS_NOW`; the clock runs on from it.
    private static let started = Date()

    /// Now, or as `TMINUS_NOW` says: that instant plus the time the command has run.
    static func now() -> Date {
        guard let fixed else { return Date() }
        return fixed.addingTimeInterval(Date().timeIntervalSince(started))
    }
}
