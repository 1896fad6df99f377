import Foundation

/// The properties a PROPPATCH sets or removes, or a MKCALENDAR sets (RFC
/// 4918 §9.2, RFC 4791 §5.3.1), in the order given.
public struct PropertyUpdate: Sendable, Equatable {
    public var set: [XMLTree] = []
    public var removed: [DAVName] = []

    public init(set: [XMLTree] = [], removed: [DAVName] = []) {
        self.set = set
        self.removed = removed
    }

    /// The text a set property was given (`displayname`, `calendar-color`).
    public func text(of name: DAVName) -> String? { set.last { $0.name == name }?.text }

    /// A PROPPATCH's `propertyupdate`, or a MKCALENDAR's `mkcalendar` (whose body may be empty).
    public static func parse(_ data: Data, root expected: DAVName) throws(XMLTree.Refused) -> PropertyUpdate {
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return PropertyUpdate() }
        let root = try XMLTree.parse(data)
        guard root.name == expected else { throw XMLTree.Refused("the body is a \(expected) element, not \(root.name)") }
        var update = PropertyUpdate()
        for instruction in root.children {
            let properties = instruction.child(.d("prop"))?.children ?? []
            switch instruction.name {
            case .d("set"): update.set += properties
            case .d("remove"): update.removed += properties.map(\.name)
            default: continue
            }
        }
        let named = RequestedNames.unique(update.set.map(\.name) + update.removed).count
        guard named <= RequestedNames.maxProperties else {
            throw XMLTree.Refused("a request sets or removes at most \(RequestedNames.maxProperties) properties; this one names \(named)")
        }
        return update
    }
}
