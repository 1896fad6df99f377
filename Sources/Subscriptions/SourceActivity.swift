import CountdownStore
import Services

/// What the loader reports as it works: a port, so that the server can count
/// it for `/metrics` and show it on `/healthz` while a dry run (`tminus rules
/// test`) listens to nothing, and this target needs neither.
package protocol SourceActivity: Sendable {
    /// A source's calendar was imported (`ok`) or refused.
    func imported(via channel: ImportChannel, ok: Bool)
    /// A URL source's fetch ended.
    func refreshed(_ outcome: RefreshOutcome)
    /// What the sources look like now, after a fetch or an import.
    func sourcesChanged(_ sources: [SourceStatus])
}

/// How a URL source's fetch ended (`tminus_source_refreshes_total{outcome=…}`).
package enum RefreshOutcome: String, Sendable, CaseIterable {
    case fetched
    case notModified = "not-modified"
    case failed
}

/// For a run that reports nowhere (the dry run).
package struct NoSourceActivity: SourceActivity {
    package init() {}
    package func imported(via channel: ImportChannel, ok: Bool) {}
    package func refreshed(_ outcome: RefreshOutcome) {}
    package func sourcesChanged(_ sources: [SourceStatus]) {}
}
