import CountdownStore
import Foundation
import HTTPSupport
import Hummingbird
import Services

/// One-time links in the admin API (issue #37): an invitation (into a space
/// with a role, or none) and a reset link for a person who forgot their
/// password. The answer holds the link once; only its hash is kept.
extension AdminRoutes {
    struct InvitationInput: Decodable {
        var space: String?
        var role: String?
    }

    struct LinkJSON: Encodable {
        var url: String
        var expiresAt: Date
        var space: String?
        var role: String?
        var user: String?
    }

    /// An open invitation, never its secret (issue #59, 9).
    struct OpenInvitationJSON: Encodable {
        var id: String
        var space: String?
        var role: String?
        var madeBy: String
        var expiresAt: Date

        init(_ invitation: OpenInvitation) {
            (id, space, role, madeBy, expiresAt) = (invitation.id, invitation.space, invitation.role?.rawValue, invitation.madeBy, invitation.expiresAt)
        }
    }

    struct MoveInput: Decodable {
        /// The space it goes to; null or absent: the caller's own.
        var space: String?
    }

    func registerLinks(on api: RouterGroup<ServerContext>) {
        api.post("feeds/{slug}/move") { request, context in
            let slug = context.parameters.get("slug") ?? ""
            let input = try await AdminJSON.decode(MoveInput.self, request, limit: 4 << 10)
            try await self.service.moveFeed(slug, toSpace: input.space)
            return try AdminJSON.encode(FeedJSON(try await self.stored(context), baseURL: self.settings.baseURL))
        }
        api.post("invitations") { request, _ in
            let input = try await AdminJSON.decode(InvitationInput.self, request, limit: 16 << 10)
            let role = try input.role.map(Self.role)
            let (secret, link) = try await self.service.createInvitation(space: input.space, role: role)
            guard case .invitation(let space, let granted) = link.purpose else { throw HTTPError(.internalServerError) }
            return try AdminJSON.encode(LinkJSON(url: "\(self.settings.baseURL)/app/join/\(secret)", expiresAt: link.expiresAt,
                                                 space: space, role: granted?.rawValue), status: .created)
        }
        api.get("invitations") { request, _ in
            let space = request.uri.queryParameters["space"].map(String.init)
            return try AdminJSON.encode(try await self.service.openInvitations(space: space).map(OpenInvitationJSON.init))
        }
        api.delete("invitations/{id}") { _, context in
            _ = try await self.service.revokeInvitation(id: context.parameters.get("id") ?? "")
            return Response(status: .noContent)
        }
        api.post("people/{user}/reset-link") { _, context in
            let login = context.parameters.get("user") ?? ""
            let (secret, link) = try await self.service.createResetLink(login: login)
            return try AdminJSON.encode(LinkJSON(url: "\(self.settings.baseURL)/app/reset/\(secret)", expiresAt: link.expiresAt, user: login),
                                        status: .created)
        }
    }
}
