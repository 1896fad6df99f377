/// Which person rows a read means.
public enum PersonKey: Sendable, Hashable {
    case id(Int64)
    case login(String)
}

/// Which space rows a read means.
public enum SpaceKey: Sendable, Hashable {
    case id(Int64)
    case slug(String)
}

/// Which person-token rows a read means: the one with a secret's hash (a
/// request's bearer), or a person's.
public enum PersonTokenKey: Sendable, Hashable {
    case hash(String)
    case person(Int64)
}
