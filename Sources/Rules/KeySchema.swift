import ICalendar
import Yams

/// The keys a YAML document may use at each level. Decoding ignores a key no
/// field has, so a misspelt one (`souces:`, `exlude:`) would pass silently and
/// its setting would be lost; the composed document is walked against this
/// first, and the first key that is not known is named with its line and the
/// nearest known key.
///
/// A struct, not an indirect enum: LeakSanitizer (the fuzz harnesses) reads
/// an indirect case's box, reached through a tagged pointer, as leaked.
package struct KeySchema: Sendable {
    enum Kind: Sendable { case settings, map, list, value }

    let kind: Kind
    /// What a key of `.settings` is ("a feed setting"), for the error.
    let noun: String
    /// `.settings`: each key allowed, and the schema of its value.
    let keys: [String: KeySchema]
    /// `.settings`: keys still read under an old spelling: accepted, never
    /// suggested (`timezone` beside `timeZone`).
    let old: Set<String>
    /// `.map`: its values' schema; `.list`: its items' (one element).
    let inner: [KeySchema]

    /// A value whose shape only its decoder knows.
    package static let value = KeySchema(kind: .value, noun: "", keys: [:], old: [], inner: [])

    /// Settings with names: each key must be one of `keys`.
    package static func settings(noun: String, keys: [String: KeySchema], old: Set<String> = []) -> KeySchema {
        KeySchema(kind: .settings, noun: noun, keys: keys, old: old, inner: [])
    }

    /// Keys that are data (a category's name, a header's name): any key, each value checked by the schema.
    package static func map(_ values: KeySchema) -> KeySchema { KeySchema(kind: .map, noun: "", keys: [:], old: [], inner: [values]) }

    /// A list, each item checked by the schema.
    package static func list(_ items: KeySchema) -> KeySchema { KeySchema(kind: .list, noun: "", keys: [:], old: [], inner: [items]) }

    /// Settings whose values are plain values, but for `nested`.
    package static func settings(noun: String, plain names: some Sequence<String>, nested: [String: KeySchema] = [:],
                                 old: some Sequence<String> = [String]()) -> KeySchema {
        var keys = Dictionary(uniqueKeysWithValues: names.map { ($0, KeySchema.value) })
        keys.merge(nested) { _, nested in nested }
        for name in old { keys[name] = .value }
        return .settings(noun: noun, keys: keys, old: Set(old))
    }

    /// A key the schema does not know, where it was met.
    package struct UnknownKey: Error, Sendable, CustomStringConvertible {
        package var key: String
        /// Where it is: `sources[0].include`, empty at the top.
        package var path: String
        /// Its line in the text, from 1.
        package var line: Int?
        /// What a key there is ("a source setting").
        package var noun: String
        /// The keys that level knows, sorted.
        package var known: [String]
        /// The one known key a slip away, if there is one.
        package var suggestion: String?

        /// `` `exlude` in sources[0] is not a source setting; did you mean `exclude`? ``
        package var description: String {
            let place = path.isEmpty ? "" : " in \(path)"
            let hint = suggestion.map { "did you mean `\($0)`?" } ?? "it may be one of \(known.map { "`\($0)`" }.joined(separator: ", "))"
            return "`\(key)`\(place) is not \(noun); \(hint)"
        }
    }

    /// The first key of `node`, in the order written, that this schema does not know.
    package func firstUnknownKey(in node: Node, at path: String = "") -> UnknownKey? {
        switch (kind, node) {
        case (.settings, .mapping(let mapping)):
            for (keyNode, value) in mapping {
                let key = keyNode.string ?? "\(keyNode)"
                if keyNode.tag == Tag(.merge) || key == "<<" {
                    // A merge key (`<<: *defaults`) brings the anchor's keys here: they are checked as this level's.
                    let merged = value.sequence.map(Array.init) ?? [value]
                    if let unknown = merged.lazy.compactMap({ self.firstUnknownKey(in: $0, at: path) }).first { return unknown }
                    continue
                }
                guard let schema = keys[key] else {
                    let current = keys.keys.filter { !old.contains($0) }.sorted()
                    return UnknownKey(key: key, path: path, line: keyNode.mark?.line, noun: noun, known: current,
                                      suggestion: Spelling.suggestion(for: key, among: current))
                }
                if let unknown = schema.firstUnknownKey(in: value, at: path.isEmpty ? key : "\(path).\(key)") { return unknown }
            }
            return nil
        case (.map, .mapping(let mapping)):
            for (keyNode, value) in mapping {
                let key = keyNode.string ?? "\(keyNode)"
                if let unknown = inner[0].firstUnknownKey(in: value, at: path.isEmpty ? key : "\(path).\(key)") { return unknown }
            }
            return nil
        case (.list, .sequence(let sequence)):
            for (index, item) in sequence.enumerated() {
                if let unknown = inner[0].firstUnknownKey(in: item, at: "\(path)[\(index)]") { return unknown }
            }
            return nil
        default:
            // Another shape than the schema's (a list where a mapping belongs) is the decoder's to refuse, with its own words.
            return nil
        }
    }
}

extension KeySchema {
    /// `include:` and `exclude:`: the conditions a rule may test.
    package static let condition = KeySchema.settings(
        noun: "a condition", plain: SubscriptionRules.Keys.filter.subtracting(["duration"]),
        nested: ["duration": .settings(noun: "a duration bound", plain: SubscriptionRules.Keys.duration)])

    /// `change:`: what a rule may change.
    package static let change = KeySchema.settings(
        noun: "a change", plain: SubscriptionRules.Keys.change.subtracting(["replace"]),
        nested: ["replace": .list(.settings(noun: "a replacement's setting", plain: SubscriptionRules.Keys.replace))])

    /// The rules of a source: what `SubscriptionRules` compiles.
    package static let sourceRules = KeySchema.settings(noun: "a rule", plain: [], nested: ["include": condition, "exclude": condition, "change": change])
}
