import Foundation
import Yams

/// The rules of a source added in the web app or the admin API: the
/// `include:`, `exclude:` and `change:` a source has in `feeds/*.yaml`,
/// written as YAML (a JSON object is YAML too) and compiled by the same code
/// (`SourceFilter`, `RuleChange`), so a rule means the same wherever it was
/// written. Checked when it is saved, and compiled once each time the
/// server reads the subscriptions, never per import.
///
/// Unlike a feed file, which is read by a person who can look at it again,
/// the text comes from a form: a misspelt key (`exlude:`) would be ignored
/// silently by decoding, so every key is checked against the ones rules have.
package enum SubscriptionRules {
    /// What the dry run and the import's verdicts call this level: `source.change.prefix`.
    package static let label = "source"
    /// Longer rules than this are refused (a form's text, not a calendar).
    package static let maxBytes = 16 << 10

    package struct Invalid: Error, CustomStringConvertible {
        package var description: String
    }

    /// The rules, or nil for a text that says nothing (empty, or only comments).
    package static func compile(_ text: String) throws(Invalid) -> RuleSet? {
        guard text.utf8.count <= maxBytes else { throw Invalid(description: "the rules are longer than \(maxBytes / 1024) KB") }
        let composed: Node?
        do { composed = try BoundedYAML.compose(text) } catch let large as BoundedYAML.TooLarge {
            throw Invalid(description: "the rules are too large: \(large)")
        } catch { throw Invalid(description: "the rules are not valid YAML: \(Self.brief(error))") }
        guard let node = composed else { return nil }
        guard let mapping = node.mapping else {
            throw Invalid(description: "the rules are a mapping of include:, exclude: and change: (see docs/feeds.md, “Feed rules”)")
        }
        if let unknown = KeySchema.sourceRules.firstUnknownKey(in: node) {
            let place = unknown.path.isEmpty ? nil : unknown.path
            let hint = unknown.suggestion.map { " (did you mean \($0)?)" } ?? ""
            throw Invalid(description: "\(place.map { "\($0)." } ?? "")\(unknown.key): is not a rule\(hint); \(place ?? "the rules") may say \(unknown.known.joined(separator: ", "))")
        }
        for key in ["include", "exclude"] {
            guard let value = mapping[key] else { continue }
            guard let block = value.mapping else { throw Invalid(description: "\(key): is a mapping of conditions, such as status: [tentative]") }
            if let duration = block["duration"], duration.mapping == nil {
                throw Invalid(description: "\(key).duration: is a mapping of atLeast: and atMost:")
            }
        }
        if let value = mapping["change"] {
            guard let change = value.mapping else { throw Invalid(description: "change: is a mapping, such as prefix: \"School: \"") }
            for (index, entry) in (change["replace"]?.sequence ?? []).enumerated() where entry.mapping == nil {
                throw Invalid(description: "change.replace[\(index)] is a mapping of pattern:, with: and field:")
            }
        }
        let document: Document
        do { document = try YAMLDecoder().decode(Document.self, from: node) } catch { throw Invalid(description: Self.brief(error)) }
        // Each block alone first, so that an error says which one it is in.
        do { _ = try SourceFilter(include: document.include, exclude: nil) } catch { throw Invalid(description: "include.\(error)") }
        do { _ = try SourceFilter(include: nil, exclude: document.exclude) } catch { throw Invalid(description: "exclude.\(error)") }
        let rules: RuleSet
        do {
            rules = RuleSet(label: label, filter: try SourceFilter(include: document.include, exclude: document.exclude), change: try RuleChange(document.change))
        } catch { throw Invalid(description: "\(error)") }
        return rules.isEmpty ? nil : rules
    }

    /// Rules as a form or the API gave them, checked once: the text to keep
    /// and what it compiled to, which the import that follows uses as it is.
    package struct Checked: Sendable {
        /// Trimmed, ending in a newline: what the store keeps.
        package var text: String
        package var rules: RuleSet
    }

    /// The rules given, checked; nil when the text holds no rule. Throws what `compile` throws.
    package static func checked(_ text: String?) throws(Invalid) -> Checked? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty, let rules = try compile(text) else { return nil }
        return Checked(text: text + "\n", rules: rules)
    }

    /// What a source's rules may say; the rest of a source's keys (`url:`, `auth:`) are the form's.
    package struct Document: Decodable {
        package var include: FilterText?
        package var exclude: FilterText?
        package var change: ChangeText?
    }

    /// The keys each level knows, read from the types that decode them, so a
    /// key added to a rule is known here too.
    package enum Keys {
        package static let filter = Set(Mirror(reflecting: FilterText()).children.compactMap(\.label))
        package static let change = Set(Mirror(reflecting: ChangeText()).children.compactMap(\.label))
        package static let duration = Set(Mirror(reflecting: FilterText.Length()).children.compactMap(\.label))
        package static let replace = Set(Mirror(reflecting: ChangeText.Replace(pattern: "")).children.compactMap(\.label))
    }

    /// A decoding error in a sentence, with the key path where there is one.
    private static func brief(_ error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
            let path = String(context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined(separator: "").drop { $0 == "." })
            return "\(path): expected \(type == String.self ? "text" : type == Bool.self ? "true or false" : "\(type)")"
        case DecodingError.keyNotFound(let key, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path.isEmpty ? "" : path + ".")\(key.stringValue): is missing"
        case let error as YamlError:
            return "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        default:
            return "\(error)"
        }
    }
}
