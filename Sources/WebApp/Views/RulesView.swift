import Pages
import Subscriptions

/// `/app/feeds/{slug}/rules`: each event of the feed's sources and what its
/// rules did to it (`RulesDryRun`), before an import does it.
package struct RulesView: TemplateView {
    package struct Line {
        package var result: String
        package var start: String
        package var title: String
        package var newTitle: String?
        package var because: String
    }

    package struct Source {
        package var name: String
        package var location: String
        package var error: String?
        package var lines: [Line]
        /// Stored, not computed: the templates read a value's stored properties.
        package var hasLines: Bool
    }

    package var slug: String
    package var name: String
    package var summary = ""
    package var sources: [Source] = []
    /// Why there is nothing to show (no definition, a rejected one).
    package var problem: String?

    package mutating func fill(_ report: RulesDryRun.Report, _ words: WebWords) {
        let counts = report.counts
        summary = words["rules.summary", Dictionary(uniqueKeysWithValues: ["kept", "changed", "dropped", "duplicate"].map { ($0, String(counts[$0] ?? 0)) })]
            + (report.sources.count > 1 ? " " + words["rules.dedupe", ["by": report.dedupe ?? "uid"]] : "")
        sources = report.sources.map { source in
            let lines = source.lines.map { Line(result: words["rules.\($0.result)"], start: $0.start, title: $0.title, newTitle: $0.newTitle, because: $0.because.joined(separator: ", ")) }
            return Source(name: source.name, location: source.location, error: source.error, lines: lines, hasLines: !lines.isEmpty)
        }
    }
}
