/// The server's settings, kept in the store so that every replica on one store
/// shares them. Stored by these raw names, which never change.
public enum SettingKey: String, Sendable, CaseIterable {
    /// The one-time setup link's hash, while nobody has an account. (The
    /// owner's password and the sessions' epoch, settings before schema v15,
    /// became the first administrator's and each person's own.)
    case setupTokenHash = "ownerSetupTokenHash"
    /// The key the web app's CSRF tokens are signed with.
    case csrfKey
    /// The admin API token's hash (PostgreSQL replicas share it).
    case adminTokenHash
    /// The key `?cursor=` texts are signed with (HMAC-SHA256): made at first
    /// start and shared by replicas, so a walk may continue on another one.
    case cursorKey
    /// The last notice of each kind sent for each feed (JSON: `{"changes:exams": "12", "milestones:exams": "2026-11-25"}`),
    /// so that replicas and restarts send each one once.
    case noticeClaims
    /// "on" when anyone may make an account at /app/signup (issue #37; off by default).
    case openSignup
    /// The id of the newest change the log no longer keeps (it keeps 90 days):
    /// a calendar app's sync token at or before it must sync again (issue #38).
    case changeLogFloor
    /// The ids of the people with a running focus session (JSON: `[1, 4]`), so
    /// that the server's focus round finishes what ends without anyone asking (issue #42).
    case focusRunning
    /// "on" once the countdowns kept before issue #39 were rewritten as they
    /// are understood (`CountdownService.repairKeptCountdowns`).
    case keptCountdownsRepaired
    /// What each person's and each space's feeds may hold (JSON `StorageQuota`,
    /// issue #59, 14); the defaults when unset. `tminus users quota` sets it.
    case storageQuota
    /// The address the last server on this store was reached at (its
    /// `--base-url`, else where it listened): what `tminus users invite`
    /// starts its links with when it is not told one (issue #63, 5).
    case publicAddress
}
