import Foundation

/// One master VEVENT/VTODO with the overrides that share its UID: the
/// "what a series is" half of expansion. libical's own foreach_recurrence
/// ignores RECURRENCE-ID overrides, so they are grouped and applied here.
public struct RecurringSeries: Sendable {
    public var master: Component?
    public var overrides: [Component]
    public var uid: String
    /// Older copies of the master (the same UID, no RECURRENCE-ID) that the
    /// newest copy replaced (`EditPrecedence`). Kept so that `validate` can
    /// say they were ignored.
    public var ignoredMasters: [Component] = []

    /// Groups items by UID; items without a UID stand alone. Of several masters
    /// with one UID (a client that wrote the whole series again after an edit),
    /// the newest stands for the series.
    public static func group(_ items: [Component]) -> [RecurringSeries] {
        var order: [String] = []
        var byUID: [String: RecurringSeries] = [:]
        for (index, item) in items.enumerated() {
            let uid = item.first("UID")?.text ?? "tminus-anonymous-\(index)"
            if byUID[uid] == nil {
                order.append(uid)
                byUID[uid] = RecurringSeries(master: nil, overrides: [], uid: uid)
            }
            if item.first("RECURRENCE-ID") != nil {
                byUID[uid]!.overrides.append(item)
            } else if let current = byUID[uid]!.master {
                if EditPrecedence.replaces(item, current) {
                    byUID[uid]!.master = item
                    byUID[uid]!.ignoredMasters.append(current)
                } else {
                    byUID[uid]!.ignoredMasters.append(item)
                }
            } else {
                byUID[uid]!.master = item
            }
        }
        return order.compactMap { byUID[$0] }
    }
}
