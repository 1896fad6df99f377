import Countdowns
import Foundation

/// The web app's words in one language: `WebApp/Words/{code}.json`, a flat
/// table of keys to texts, beside the public outputs' own tables
/// (`Countdowns/Language/Tables`), which speak the same 13 languages.
///
/// A text names the page's values the way Mustache does ("Delete “{{name}}”?").
/// Templates get their texts spliced in before they are compiled
/// (`WebPages.localize`), so Mustache fills and escapes those values as it
/// does any other; Swift fills them with `self[key, values]`, and the result
/// is escaped where a template shows it. Texts have no plural forms: where a
/// language needs them for a count, its text says "Label: {{n}}".
package struct WebWords: Sendable {
    package let language: Language
    /// This language's texts over English's, so that a text missing from a
    /// table shows in English rather than as its key (a test keeps the tables whole).
    package let texts: [String: String]

    package struct Broken: Error, CustomStringConvertible {
        package var description: String
    }

    /// The table of `language` from `folder`, over `english` (nil when reading English itself).
    package static func load(_ language: Language, from folder: String, over english: WebWords?) throws -> WebWords {
        let path = folder + "/\(language.code).json"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Broken(description: "the web app's words \(language.code).json are missing from \(folder)")
        }
        let own: [String: String]
        do { own = try JSONDecoder().decode([String: String].self, from: data) } catch {
            throw Broken(description: "the web app's words \(language.code).json cannot be read: \(error)")
        }
        return WebWords(language: language, texts: (english?.texts ?? [:]).merging(own) { _, mine in mine })
    }

    /// The text of `key` with its `{{name}}` values filled in (not escaped: the
    /// page that shows it does that). An unknown key is shown as itself, so a
    /// mistake is visible, never a crash.
    package subscript(_ key: String, _ values: [String: String] = [:]) -> String {
        var text = texts[key] ?? key
        for (name, value) in values { text = text.replacingOccurrences(of: "{{\(name)}}", with: value) }
        return text
    }

    /// A template's text with every `{{t.key}}` replaced by this language's
    /// text: `{{t.code}}` and `{{t.dir}}` are the language's tag and direction.
    /// A key that no table has is an error at start, naming the template.
    package func localize(_ template: String, named name: String) throws -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.range(of: "{{t.") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw Broken(description: "template \(name): a “{{t.” is not closed")
            }
            let key = String(rest[open.upperBound..<close.lowerBound])
            switch key {
            case "code": result += language.code
            case "dir": result += language.isRightToLeft ? "rtl" : "ltr"
            default:
                guard let text = texts[key] else { throw Broken(description: "template \(name): no text for “t.\(key)”") }
                result += text
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}
