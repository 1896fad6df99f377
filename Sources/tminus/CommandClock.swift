import Foundation

/// The instant the command line counts from: now, or `TMINUS_NOW`
/// (`2026-11-24T12:00:00Z`) for output that must not change from day to day —
/// the manual's examples are run with it in `make test`, and a script can
/// ask "how would this look on the first of the month". Commands that keep
/// time (the store's stamps, a focus session) count from it too, so what they
/// write agrees with what they print. Read once; a value that is not an
/// instant stops the command (exit 64) before anything is read or written.
/// Commands only: `serve` keeps the real clock whatever the environment says.
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

    /// Now, or the instant `TMINUS_NOW` says, which stands still: a command
    /// that took a second longer on a busy machine must print the same
    /// ("18:00 left", not "17:59 left"). (How long work took is measured
    /// with the real clock, as `import` does.)
    static func now() -> Date {
        fixed ?? Date()
    }
}
