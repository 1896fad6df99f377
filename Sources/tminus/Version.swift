/// What `tminus --version` prints: the release, and the git commit it was built
/// from (`buildCommit`, generated at build time by the BuildCommit plugin).
enum Version {
    /// The release; the Debian package's version follows it.
    static let release = "0.15.0"

    static var full: String { "\(release) (\(buildCommit))" }
}
