import Yams

/// YAML with a ceiling on what it expands to. An alias (`*a`) repeats the
/// value of its anchor (`&a`), so a few hundred bytes of anchors that each
/// repeat the one before ("billion laughs") become millions of values: 420
/// bytes took 18 s of a core to decode, and a little more exhausts memory.
/// The document is composed once (aliases share their anchor's node, so that
/// is cheap), its values are counted with a budget, and only then is it
/// decoded. libyaml already stops nesting deeper than it can handle.
package enum BoundedYAML {
    /// Far more than any feed file or rule needs (a big feed file has hundreds).
    package static let maxValues = 100_000

    package struct TooLarge: Error, CustomStringConvertible {
        package var description: String { "the YAML holds more than \(BoundedYAML.maxValues) values once its aliases (*name) are expanded" }
    }

    /// The document's node (nil when it is empty), or `TooLarge`; YAML errors as Yams throws them.
    package static func compose(_ text: String) throws -> Node? {
        // The resolver YAMLDecoder uses: merge keys, and no implicit types, so `no` stays the text "no" until a field asks for a Bool.
        guard let node = try Yams.compose(yaml: text, Resolver.basic.appending(.merge)) else { return nil }
        var budget = maxValues
        try count(node, &budget)
        return node
    }

    private static func count(_ node: Node, _ budget: inout Int) throws(TooLarge) {
        budget -= 1
        guard budget >= 0 else { throw TooLarge() }
        switch node {
        case .scalar, .alias: return
        case .mapping(let mapping):
            for (key, value) in mapping {
                try count(key, &budget)
                try count(value, &budget)
            }
        case .sequence(let sequence):
            for value in sequence { try count(value, &budget) }
        }
    }
}
