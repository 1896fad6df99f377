/// A property's value as a multistatus writes it.
public enum PropertyValue: Sendable, Equatable {
    /// Text, escaped when written.
    case text(String)
    /// One `DAV:href` (a path, escaped when written).
    case href(String)
    case hrefs([String])
    /// Empty elements inside the property: a `resourcetype`'s kinds, a privilege set's privileges.
    case elements([DAVName])
    /// Privileges, each inside a `DAV:privilege`.
    case privileges([DAVName])
    /// `supported-calendar-component-set`: a `comp` element per name.
    case components([String])
    /// `supported-report-set`: a `supported-report`/`report` per report.
    case reports([DAVName])
}
