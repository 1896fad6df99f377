/// Who made a change, as the store keeps it: the label a countdown's history
/// shows, and the person's id when a person made it. The board and anything
/// else that credits a person go by the id (issue #59, 13): a label can name
/// a person deleted since ("bob (former member)" read as `bob`), or no person
/// at all ("admin token" read as `admin`).
struct ChangeActor: Sendable, Equatable {
    var label: String
    var personId: Int64?
}

extension Principal {
    /// This principal as the author of a change.
    var changeActor: ChangeActor {
        if case .person(let person) = self { return ChangeActor(label: actorLabel, personId: person.id) }
        return ChangeActor(label: actorLabel, personId: nil)
    }
}
