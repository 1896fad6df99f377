/// The property names and hrefs a request lists, once each and bounded.
///
/// A PROPFIND that named 2,000 unknown properties in a 100 KB namespace
/// made a 200 MB answer from a 109 KB body, and a multiget that named one
/// href 4,000 times made 168 MB (issue #59): each name is answered once, and
/// a list longer than any calendar app sends is refused before anything is read.
public enum RequestedNames {
    /// Calendar apps ask for 10–40 properties at once; 100 leaves room.
    public static let maxProperties = 100
    /// DAVx5 asks for 10–100 objects per multiget, Apple's apps a few hundred.
    public static let maxHrefs = 1000

    /// The names of a `prop` element's children, in order, each once.
    public static func properties(_ prop: XMLTree) throws(XMLTree.Refused) -> [DAVName] {
        let names = unique(prop.children.map(\.name))
        guard names.count <= maxProperties else {
            throw XMLTree.Refused("a request asks for at most \(maxProperties) properties; this one asks for \(names.count)")
        }
        return names
    }

    /// The hrefs of a multiget, in order, each once.
    public static func hrefs(_ root: XMLTree) throws(XMLTree.Refused) -> [String] {
        let hrefs = unique(root.children(.d("href")).map(\.text).filter { !$0.isEmpty })
        guard hrefs.count <= maxHrefs else {
            throw XMLTree.Refused("a calendar-multiget names at most \(maxHrefs) objects; this one names \(hrefs.count): ask in parts")
        }
        return hrefs
    }

    static func unique<T: Hashable>(_ items: [T]) -> [T] {
        var seen = Set<T>()
        return items.filter { seen.insert($0).inserted }
    }
}
