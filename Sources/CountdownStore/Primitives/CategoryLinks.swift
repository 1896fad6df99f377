import Foundation

/// The categories one countdown is linked to.
public struct CategoryLinks: Sendable {
    public var countdownId: Int64
    public var names: [String]

    public init(countdownId: Int64, names: [String]) {
        self.countdownId = countdownId
        self.names = names
    }
}
