#if canImport(Glibc)
import Glibc
#endif

/// What `tminus --version` prints: the release, and the git commit it was built
/// from (`buildCommit`, generated at build time by the BuildCommit plugin).
enum Version {
    /// The release; the Debian package's version follows it.
    static let release = "0.15.0"

    static var full: String { "\(release) (\(buildCommit))" }

    /// This executable's size and modification time, "" when they cannot be
    /// read: what tells two binaries that name the same commit apart. SwiftPM
    /// does not always run the plugin that records the commit (measured: a
    /// release build after a commit kept naming the one before), so the
    /// commit alone could let a rebuilt server trust exports an older build
    /// kept. A package's binary keeps its time, so its exports stay kept.
    static var executable: String {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 || stat(CommandLine.arguments[0], &info) == 0 else { return "" }
        return "\(info.st_size)-\(info.st_mtim.tv_sec)"
    }
}
