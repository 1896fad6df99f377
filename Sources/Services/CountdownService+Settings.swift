import CountdownStore
import Foundation

extension CountdownService {
    /// Sets a server setting (the admin token's hash, the app's keys), or
    /// removes it with `nil`.
    public func setSetting(_ key: SettingKey, to value: String?) async throws {
        try await authorize(.administer)
        try await transaction { tx in try await tx.setSetting(key, to: value) }
    }

    /// The setting's value if it holds a usable one, else `make()`'s, kept in
    /// the same transaction: two replicas starting at once agree on one value.
    public func keptSetting(_ key: SettingKey, usable: @escaping @Sendable (String) -> Bool,
                            make: @escaping @Sendable () -> String) async throws -> String {
        try await authorize(.administer)
        return try await transaction { tx in
            if let stored = try await tx.setting(key), usable(stored) { return stored }
            let made = make()
            try await tx.setSetting(key, to: made)
            return made
        }
    }

    /// Saves when tokens were last used: the server gathers uses in memory and
    /// writes them now and then, never on the request path.
    public func recordTokenUse(_ uses: [Int64: Date]) async throws {
        try await authorize(.administer)
        guard !uses.isEmpty else { return }
        try await transaction { tx in
            // Each token's last use moves forward, never back.
            for var row in try await tx.tokenRows(feedId: nil) {
                guard let id = row.id, let used = uses[id], used > (row.lastUsedAt ?? .distantPast) else { continue }
                row.lastUsedAt = used
                _ = try await tx.save(row)
            }
        }
    }
}

extension CountdownService {
    /// Claims the sending of a notice: true, and `mark` recorded for
    /// `subject`, when nothing was claimed for it yet or `newer(mark, held)`;
    /// false when this or another server already sent it (a replica, or this
    /// one before a restart). `subject` is `changes:{feed}` or
    /// `milestones:{feed}`; `mark` the revision or the day.
    public func claimNotice(subject: String, mark: String, newer: @escaping @Sendable (String, String) -> Bool) async throws -> Bool {
        try await authorize(.administer)
        return try await transaction { tx in
            var claims = (try await tx.setting(.noticeClaims)).flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
            if let held = claims[subject], !newer(mark, held) { return false }
            claims[subject] = mark
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try await tx.setSetting(.noticeClaims, to: String(decoding: try encoder.encode(claims), as: UTF8.self))
            return true
        }
    }
}
