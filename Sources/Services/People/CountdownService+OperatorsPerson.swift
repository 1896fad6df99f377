import CountdownStore
import Foundation

extension CountdownService {
    /// The person a command of the operator's acts for (`tminus focus`): the
    /// login given, else the only person there is. On a database nobody has
    /// an account in yet, the first administrator, `owner`, is made with a
    /// password nobody knows (`tminus password` sets one, to sign in), so that
    /// one person's first command works without a setup step. Returns the
    /// person and whether they were made now.
    /// `makingFirst: false` (a command that only looks) refuses instead of making the first account.
    public func operatorsPerson(login: String?, makingFirst: Bool = true) async throws -> (person: PersonAccess, made: Bool) {
        try await authorize(.administer)
        let people = try await people()
        if people.isEmpty, !makingFirst { throw StoreError.personNotFound(login ?? "owner") }
        if people.isEmpty, login == nil || login == "owner" {
            let made = try await addPerson(login: "owner", password: Secret.generate(bytes: 32), isAdmin: true)
            return (PersonAccess(id: try made.savedID(), login: made.login, isAdmin: true), true)
        }
        if let login {
            guard let person = people.first(where: { $0.login == login }) else { throw StoreError.personNotFound(login) }
            return (PersonAccess(id: try person.savedID(), login: person.login, isAdmin: person.isAdmin), false)
        }
        guard people.count == 1, let only = people.first else {
            throw StoreError.invalid("say who: --login LOGIN (people: \(people.map(\.login).joined(separator: ", ")))")
        }
        return (PersonAccess(id: try only.savedID(), login: only.login, isAdmin: only.isAdmin), false)
    }
}
