import CountdownStore
import Foundation

/// What each person's feeds, and each space's, may hold together (issue #59,
/// 14: nothing bounded what one person stored, and a 30 MB description was
/// kept). One setting for the whole server (`tminus users quota`), kept in the
/// store so that every replica and the command line apply the same. Feeds of
/// no one (feed files', the operator's) have none.
public struct StorageQuota: Codable, Sendable, Equatable {
    /// Countdowns in all of the owner's feeds.
    public var countdowns: Int
    /// Megabytes (10^6 bytes) of their kept text.
    public var megabytes: Int
    /// Countdowns showing an uploaded image (each at most `StoreLimits.maxImageBytes`).
    public var images: Int

    /// 10,000 countdowns, 100 MB, 500 images: a family's or a class's years of
    /// countdowns, a hundred times over, and well inside one server's disk.
    public static let standard = StorageQuota(countdowns: 10_000, megabytes: 100, images: 500)

    public init(countdowns: Int, megabytes: Int, images: Int) {
        self.countdowns = countdowns
        self.megabytes = megabytes
        self.images = images
    }

    public var bytes: Int { megabytes.multipliedReportingOverflow(by: 1_000_000).overflow ? .max : megabytes * 1_000_000 }

    /// Why `usage` is over this quota, after the owner's name ("would hold …"); nil while it fits.
    func excess(of usage: StorageUsage) -> String? {
        let advice = "delete some, or ask an administrator to raise the quota (tminus users quota); nothing was changed"
        if usage.countdowns > countdowns {
            return "would hold \(usage.countdowns) countdowns, over the quota of \(countdowns): \(advice)"
        }
        if usage.bytes > bytes {
            return "would hold \(Self.megabytes(usage.bytes)) MB of countdown text, over the quota of \(megabytes) MB: \(advice)"
        }
        if usage.images > images {
            return "would show \(usage.images) uploaded images, over the quota of \(images): \(advice)"
        }
        return nil
    }

    /// Bytes as megabytes with one decimal, as people read them.
    public static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f", Double(bytes) / 1_000_000)
    }
}
