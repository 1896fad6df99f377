/// Which feed row a read means: by its slug (what people and URLs name) or by
/// its id (what other rows point at).
public enum FeedKey: Sendable, Hashable {
    case slug(String)
    case id(Int64)
}
