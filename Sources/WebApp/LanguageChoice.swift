import Countdowns

/// One entry of the language switch, in its own language ("Deutsch").
package struct LanguageChoice {
    package var code: String
    package var name: String
    package var selected: Bool

    package static func all(current: Language) -> [LanguageChoice] {
        Language.all.map { LanguageChoice(code: $0.code, name: $0.name, selected: $0 == current) }
    }
}
