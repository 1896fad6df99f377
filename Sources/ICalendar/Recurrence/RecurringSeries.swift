import Foundation

/// One master VEVENT/VTODO with the overrides that share its UID: the
/// "what a series is" half of expansion. libical's own foreach_recurrence
/// ignores RECURRENCE-ID overrides, so they are grouped and applied here.
public struct RecurringSeries: Sendable {
    public var master: Component?
    public var overrides: [Component]
    public var uid: String

    /// Groups items by UID; items without a UID stand alone.
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
            } else if byUID[uid]!.master == nil {
                byUID[uid]!.master = item
            } else {
                // A second master with the same UID: keep it as its own series.
                let extra = "\(uid)#\(index)"
                order.append(extra)
                byUID[extra] = RecurringSeries(master: item, overrides: [], uid: uid)
            }
        }
        return order.compactMap { byUID[$0] }
    }
}
