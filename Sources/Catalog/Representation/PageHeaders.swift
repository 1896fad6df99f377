import HTTPTypes

/// Security headers for what a browser renders.
package enum PageHeaders {
    /// Scripts only from this origin; inline styles are allowed for the per-card colours.
    package static let page: HTTPFields = [
        .contentSecurityPolicy: "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        .vary: "Accept-Language",
    ]

    /// Pages and cards follow the browser's Accept-Language when neither
    /// `?lang=` nor the feed names a language, so caches must keep them apart.
    package static let card: HTTPFields = [.vary: "Accept-Language"]

    /// The web app: the same script rule as the public pages; forms post only
    /// here; the live preview may call back to this origin.
    package static let app: HTTPFields = [
        .contentSecurityPolicy: "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' https: data: blob:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    package static let asset: HTTPFields = [.xContentTypeOptions: "nosniff"]

    /// Uploaded images: even an SVG that got past `SVGCheck` can run nothing,
    /// load nothing and be embedded only by the same site.
    package static let image: HTTPFields = [
        .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        HTTPField.Name("Cross-Origin-Resource-Policy")!: "same-site",
        .xContentTypeOptions: "nosniff",
    ]
}
