import CountdownStore
import Foundation

extension CountdownService {
    /// The person a command of the operator's acts for (`tminus focus`): the
    /// login given, else the only person there is. On a database nobody has
    /// an account in yet, the login given becomes the first administrator,
    /// with a password nobody knows (`tminus password LOGIN` sets one, to sign
    /// in); without one, nobody is made (`personNotFound("")`) and the caller
    /// says how to make the first account. Returns the person and whether
    /// they were made now.
    /// `makingFirst: false` (a command that only looks) refuses instead of making the first account.
    public func operatorsPerson(login: String?, makingFirst: Bool = true) async throws -> (person: PersonAccess, made: Bool) {
        try await authorize(.administer)
        let people = try await people()
        if people.isEmpty {
            // Never a made-up name: a first account the person did not choose made `tminus password anna` fail later.
            guard makingFirst, let login else { throw StoreError.personNotFound(login ?? "") }
            // `addPerson` checks the login (`newPerson`).
            let made = try await addPerson(login: login, password: Secret.generate(bytes: 32), isAdmin: true)
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
