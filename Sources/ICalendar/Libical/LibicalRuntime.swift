import CLibical

/// One-time process setup for libical: errors must never abort the process.
enum LibicalRuntime {
    /// Swift initialises globals once, thread-safely, on first use.
    private static let configured: Bool = {
        icalerror_set_errors_are_fatal(0)
        return true
    }()

    static func ensure() { _ = configured }
}
