/// How forgiving the parser is, and the limits it enforces.
public struct ParseOptions: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Keep what is usable, report the rest (the default).
        case lenient
        /// Any error diagnostic makes parsing throw.
        case strict
    }

    public var mode: Mode
    /// Deepest BEGIN nesting accepted; real calendars use 3 (VCALENDAR › VEVENT › VALARM).
    public var maxDepth: Int
    /// Most components accepted in one input, a guard against hostile files.
    public var maxComponents: Int

    /// Check values and time zones (diagnostics). Off only for text tminus wrote itself.
    public var validate: Bool

    public init(mode: Mode = .lenient, maxDepth: Int = 10, maxComponents: Int = 1_000_000, validate: Bool = true) {
        self.mode = mode
        self.validate = validate
        self.maxDepth = maxDepth
        self.maxComponents = maxComponents
    }

    /// Most diagnostics one input reports (then one line saying the rest were left out).
    public static let maxDiagnostics = 1_000

    public static let lenient = ParseOptions()
    public static let strict = ParseOptions(mode: .strict)
    /// For calendars tminus wrote itself (the store's content): no value checks.
    public static let trusted = ParseOptions(validate: false)
}
