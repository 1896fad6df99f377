/// How a calendar came in, as `/metrics` counts imports (`tminus_imports_total{via=…}`).
package enum ImportChannel: String, Sendable, CaseIterable {
    /// A source of a feed file or a subscription, fetched or read by the server.
    case source
    /// `POST /api/…` with a calendar or an address.
    case api
    /// The web app's import page.
    case app
}
