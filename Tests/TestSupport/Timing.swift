import Foundation
import Testing

/// Whether wall-clock expectations mean anything in this run. `make tsan` sets
/// TMINUS_TSAN=1: under ThreadSanitizer everything runs 10–20 times slower, so
/// time limits, deadlines and "within 2 seconds" checks fail without a bug. Those
/// tests are skipped there; every other test still runs under the sanitizer.
public enum Timing {
    public static let isMeaningful = ProcessInfo.processInfo.environment["TMINUS_TSAN"] == nil
    public static let skipReason: Comment = "timing is not measured under ThreadSanitizer (make tsan)"

    /// True in `make test`'s second pass, which runs the wall-clock deadline
    /// tests alone (`DeadlineTimingTests`), without the rest of the suite
    /// competing for the two threads of Swift's pool; not under ThreadSanitizer.
    public static let isQuietPass = ProcessInfo.processInfo.environment["TMINUS_QUIET_PASS"] == "1" && isMeaningful
    public static let quietPassReason: Comment = "deadline timing runs in make test's quiet pass (TMINUS_QUIET_PASS=1)"
}
