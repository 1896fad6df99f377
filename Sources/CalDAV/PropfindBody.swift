import Foundation

/// What a PROPFIND asks for (RFC 4918 §9.1): every property, their names,
/// or the listed ones. An empty body means every property.
public enum PropfindBody: Sendable, Equatable {
    case allProperties
    case propertyNames
    case properties([DAVName])

    public static func parse(_ data: Data) throws(XMLTree.Refused) -> PropfindBody {
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return .allProperties }
        let root = try XMLTree.parse(data)
        guard root.name == .d("propfind") else { throw XMLTree.Refused("a PROPFIND body is a DAV:propfind element, not \(root.name)") }
        if let prop = root.child(.d("prop")) { return .properties(try RequestedNames.properties(prop)) }
        if root.child(.d("propname")) != nil { return .propertyNames }
        return .allProperties
    }
}
