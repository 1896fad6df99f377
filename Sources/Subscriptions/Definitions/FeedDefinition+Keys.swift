import Countdowns
import Rules

extension FeedDefinition {
    /// Every key a feed file may use, level by level, read from the types that
    /// decode them (so a setting added to one is known here too). A file with
    /// another key is refused, naming it, its line and the nearest known key:
    /// decoding alone would drop `souces:` and serve an empty feed.
    package static let keys: KeySchema = {
        func names(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        let source = KeySchema.settings(noun: "a source setting", plain: names(Source()), nested: [
            "include": KeySchema.condition, "exclude": KeySchema.condition, "change": KeySchema.change,
            "auth": .settings(noun: "an auth: setting", plain: [], nested: [
                "basic": .settings(noun: "a basic: setting", plain: names(Auth.Basic(username: ""))),
                "bearer": .settings(noun: "a bearer: setting", plain: names(Auth.Token())),
                "headers": .map(.settings(noun: "a header's setting", plain: names(Auth.Value()))),
            ]),
        ])
        let rules = KeySchema.settings(noun: "a feed rule", plain: [], nested: [
            "include": KeySchema.condition, "exclude": KeySchema.condition, "change": KeySchema.change,
            "dedupe": .settings(noun: "a dedupe: setting", plain: names(Dedupe())),
        ])
        let settings = FeedSettingsDocument.keys + CodingKeys.allCases.map(\.rawValue)
        return .settings(noun: "a feed setting", plain: settings, nested: [
            "sources": .list(source),
            "rules": rules,
            "notify": .list(.settings(noun: "a notify: setting", plain: names(Notify()))),
            "countdown": .settings(noun: "a countdown: setting", plain: names(FeedSettingsDocument.CountdownSettings())),
            "celebrate": .settings(noun: "a celebrate: setting", plain: names(FeedSettingsDocument.CelebrationSettings())),
            "categories": .map(.value),
        ], old: FeedSettingsDocument.oldKeys)
    }()
}
