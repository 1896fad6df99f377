/// The exit statuses of every command, one table (the BSD `sysexits.h`
/// values), so that a script can tell a typo from a bad calendar from a
/// database that is down. Shown by `tminus --help` and the man page; a change
/// here is a change scripts see, so it belongs in the upgrade notes too.
enum ExitStatus: Int32, CaseIterable {
    /// The command line is wrong: an unknown option, a value not of its kind,
    /// a missing argument. Nothing was read or written.
    case usage = 64
    /// The input is wrong or refused: a calendar that is not one, a countdown
    /// or rule that is invalid, a check (`validate`, `rules test`) that failed.
    case data = 65
    /// What was named is not there: a file, a database, a feed, a countdown, a person.
    case noInput = 66
    /// A service is not available: the database (down, read-only, locked),
    /// the port to listen on, a source to fetch.
    case unavailable = 69
    /// Reading or writing a file failed (a full disk, a folder where a file was meant).
    case ioError = 74

    /// One line of the table, as `--help` and the man page print it.
    var line: String {
        let what = switch self {
        case .usage: "usage: an unknown option or a value not of its kind"
        case .data: "data: a calendar, countdown or rule refused, or a check that failed"
        case .noInput: "missing: the file, database, feed or countdown named is not there"
        case .unavailable: "unavailable: the database or the port cannot be used now"
        case .ioError: "I/O: a file could not be read or written"
        }
        return "\(rawValue)  \(what)"
    }

    /// The table, for `tminus --help`.
    static var table: String { "Exit status: 0 success\n" + allCases.map { "  " + $0.line }.joined(separator: "\n") }
}
