import CountdownStore
import Foundation
import HTTPSupport
import Hummingbird
import Services

/// Spaces and their members in the admin API (issue #37). A person's token
/// makes a space and becomes its owner; the operator's names the owner.
extension AdminRoutes {
    struct SpaceInput: Decodable {
        var slug: String
        var name: String
        /// The first owner's login, when the operator's token makes it.
        var owner: String?
    }

    struct MemberInput: Decodable {
        var user: String?
        var role: String
    }

    struct SpaceJSON: Encodable {
        struct Member: Encodable {
            var user: String
            var name: String
            var role: String
        }

        var slug: String
        var name: String
        var members: [Member]
    }

    struct SpaceListJSON: Encodable {
        var slug: String
        var name: String
        /// The caller's role there; none for an administrator who is no member.
        var role: String?
    }

    /// Who the token acts as: a person, or the operator (the admin token).
    struct MeJSON: Encodable {
        var user: String?
        var name: String?
        var admin: Bool
        var readOnly: Bool
        var spaces: [SpaceListJSON]
    }

    func registerSpaces(on api: RouterGroup<ServerContext>) {
        api.get("me") { _, _ in
            guard case .person(let me) = self.service.principal else {
                return try AdminJSON.encode(MeJSON(admin: true, readOnly: false, spaces: try await self.spaceList()))
            }
            let person = try await self.service.me()
            return try AdminJSON.encode(MeJSON(user: me.login, name: person.displayName, admin: me.isAdmin, readOnly: me.readOnly,
                                               spaces: try await self.spaceList()))
        }
        api.get("spaces") { _, _ in try AdminJSON.encode(try await self.spaceList()) }
        api.post("spaces") { request, _ in
            let input = try await AdminJSON.decode(SpaceInput.self, request, limit: 16 << 10)
            let space = try await self.service.createSpace(slug: input.slug, name: input.name, owner: input.owner)
            return try AdminJSON.encode(try await self.spaceJSON(space.slug), status: .created)
        }
        api.get("spaces/{slug}") { _, context in try AdminJSON.encode(try await self.spaceJSON(context.parameters.get("slug") ?? "")) }
        api.post("spaces/{slug}/members") { request, context in
            let slug = context.parameters.get("slug") ?? ""
            let input = try await AdminJSON.decode(MemberInput.self, request, limit: 16 << 10)
            guard let user = input.user else { throw HTTPError(.unprocessableContent, message: "name the person: {\"user\": \"ben\", \"role\": \"viewer\"}") }
            try await self.service.setMember(space: slug, login: user, role: try Self.role(input.role), replacing: false)
            return try AdminJSON.encode(try await self.spaceJSON(slug), status: .created)
        }
        api.patch("spaces/{slug}/members/{user}") { request, context in
            let slug = context.parameters.get("slug") ?? ""
            let input = try await AdminJSON.decode(MemberInput.self, request, limit: 16 << 10)
            try await self.service.setMember(space: slug, login: context.parameters.get("user") ?? "", role: try Self.role(input.role), replacing: true)
            return try AdminJSON.encode(try await self.spaceJSON(slug))
        }
        api.delete("spaces/{slug}/members/{user}") { _, context in
            try await self.service.removeMember(space: context.parameters.get("slug") ?? "", login: context.parameters.get("user") ?? "")
            return Response(status: .noContent)
        }
    }

    private func spaceList() async throws -> [SpaceListJSON] {
        try await service.spaces().map { SpaceListJSON(slug: $0.space.slug, name: $0.space.name, role: $0.role?.rawValue) }
    }

    private func spaceJSON(_ slug: String) async throws -> SpaceJSON {
        let (space, members) = try await service.space(slug: slug)
        return SpaceJSON(slug: space.slug, name: space.name,
                         members: members.map { SpaceJSON.Member(user: $0.person.login, name: $0.person.displayName, role: $0.role.rawValue) })
    }

    static func role(_ text: String) throws -> SpaceRole {
        guard let role = SpaceRole(rawValue: text) else {
            throw HTTPError(.unprocessableContent, message: "'\(text.prefix(40))' is not a role: use \(SpaceRole.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return role
    }
}
