import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import Pages
import Services

/// Spaces in the app (issue #37): the signed-in person's households, classes
/// and teams, each with its members and feeds. Owners (and administrators)
/// add members, change roles, remove them, and make invitation links; every
/// change is a use case that checks the person's standing first.
package struct SpacePages: Sendable {
    package let app: WebApp

    package struct SpaceForm: PostedForm {
        package var csrf: String?
        package var name: String?
        package var slug: String?
    }

    package struct MemberForm: PostedForm {
        package var csrf: String?
        package var login: String?
        package var role: String?
    }

    package struct ListView: TemplateView {
        package struct Row {
            package var slug: String
            package var name: String
            package var role: String?
        }

        package var spaces: [Row]
        package var error: String?
        package var name = ""
        package var slug = ""
        package var templateValues: [String: Any] { ["hasSpaces": !spaces.isEmpty] }
    }

    package struct SpaceView: TemplateView {
        package struct Member {
            package var login: String
            package var name: String
            package var role: String
            package var roles: [Choice]
        }

        package struct Feed {
            package var slug: String
            package var name: String
            /// Seen as busy time only (a `busy` member): linked to its busy page.
            package var busyOnly = false
        }

        package struct Choice {
            package var value: String
            package var label: String
            package var selected: Bool
        }

        package var slug: String
        package var name: String
        package var members: [Member]
        package var feeds: [Feed]
        package var canManage: Bool
        package var canAddFeeds: Bool
        /// May read the space in full (its activity and board): not a busy-only member.
        package var canRead = true
        /// The person is a member (and may leave).
        package var isMember: Bool
        package var roles: [Choice]
        /// An invitation just made: shown once.
        package var invitation: String?
        /// Its open invitations (for those who manage it), to revoke.
        package var openInvitations: [OpenInvitationRow]
        package var error: String?
        package var templateValues: [String: Any] { ["hasFeeds": !feeds.isEmpty, "hasOpenInvitations": !openInvitations.isEmpty] }
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("spaces") { request, context in try await self.list(context).response(from: request, context: context) }
        app.post("spaces") { request, context in try await self.create(request, context) }
        app.get("spaces/{space}") { request, context in try await self.show(context).response(from: request, context: context) }
        app.post("spaces/{space}/members") { request, context in
            let form = try await WebForm.decode(MemberForm.self, request, limit: 4 << 10)
            return try await self.change(request, context) { service, space in
                try await service.setMember(space: space, login: PersonRecord.normalizedLogin(form.login ?? ""),
                                            role: try Self.role(form.role), replacing: false)
            }
        }
        app.post("spaces/{space}/members/{login}") { request, context in
            let form = try await WebForm.decode(MemberForm.self, request, limit: 4 << 10)
            return try await self.change(request, context) { service, space in
                try await service.setMember(space: space, login: context.parameters.get("login") ?? "", role: try Self.role(form.role), replacing: true)
            }
        }
        app.post("spaces/{space}/members/{login}/remove") { request, context in
            try await self.change(request, context) { service, space in
                try await service.removeMember(space: space, login: context.parameters.get("login") ?? "")
            }
        }
        app.post("spaces/{space}/leave") { request, context in
            let slug = context.parameters.get("space") ?? ""
            let (space, _) = try await self.app.service.space(slug: slug)
            let me = context.person?.access.login ?? ""
            do { try await self.app.service.removeMember(space: slug, login: me) } catch let error as StoreError {
                return try await self.show(context, error: error.description).response(from: request, context: context)
            }
            self.app.logger.info("left a space", metadata: ["space": "\(slug)", "person": "\(me)"])
            return self.app.redirect("/app/spaces", flash: self.app.words(context)["flash.spaceLeft", ["name": space.name]], context: context)
        }
        app.post("spaces/{space}/invite") { request, context in
            let form = try await WebForm.decode(MemberForm.self, request, limit: 4 << 10)
            let slug = context.parameters.get("space") ?? ""
            let (secret, _) = try await self.app.service.createInvitation(space: slug, role: try Self.role(form.role))
            self.app.logger.notice("invitation made in the app", metadata: ["space": "\(slug)", "by": "\(context.person?.access.login ?? "")"])
            return try await self.show(context, invitation: "\(self.app.settings.baseURL)/app/join/\(secret)").response(from: request, context: context)
        }
        app.post("spaces/{space}/invitations/{id}/revoke") { request, context in
            let slug = context.parameters.get("space") ?? ""
            let id = context.parameters.get("id") ?? ""
            // Revoked only if it leads into this space: a form on one space's page never ends another's.
            guard try await self.app.service.openInvitations(space: slug).contains(where: { $0.id == id }) else { throw StoreError.invitationNotFound(id) }
            _ = try await self.app.service.revokeInvitation(id: id)
            self.app.logger.notice("invitation revoked in the app", metadata: ["space": "\(slug)", "by": "\(context.person?.access.login ?? "")"])
            return self.app.redirect("/app/spaces/\(slug)#invite", flash: self.app.words(context)["flash.invitationRevoked"], context: context)
        }
    }

    static func role(_ text: String?) throws -> SpaceRole {
        guard let text, let role = SpaceRole(rawValue: text) else { throw StoreError.invalid("choose a role: owner, editor, viewer or busy") }
        return role
    }

    private func list(_ context: WebAppContext, error: String? = nil, form: SpaceForm? = nil) async throws -> HTMLPage {
        let words = app.words(context)
        let rows = try await app.service.spaces().map { ListView.Row(slug: $0.space.slug, name: $0.space.name, role: $0.role.map { words["role.\($0.rawValue)"] }) }
        return app.render("spaces", title: words["nav.spaces"], section: "spaces",
                          ListView(spaces: rows, error: error, name: form?.name ?? "", slug: form?.slug ?? ""), context: context,
                          status: error == nil ? .ok : .unprocessableContent)
    }

    private func create(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let form = try await WebForm.decode(SpaceForm.self, request, limit: 4 << 10)
        let name = (form.name ?? "").trimmingCharacters(in: .whitespaces)
        let slug = ((form.slug ?? "").isEmpty ? Slug.make(from: name) : form.slug ?? "").lowercased()
        do {
            let space = try await app.service.createSpace(slug: slug, name: name)
            app.logger.info("space made in the app", metadata: ["space": "\(space.slug)"])
            return app.redirect("/app/spaces/\(space.slug)", flash: app.words(context)["flash.spaceCreated", ["name": space.name]], context: context)
        } catch let error as StoreError {
            return try await list(context, error: error.description, form: form).response(from: request, context: context)
        }
    }

    private func show(_ context: WebAppContext, invitation: String? = nil, error: String? = nil) async throws -> HTMLPage {
        let slug = context.parameters.get("space") ?? ""
        let words = app.words(context)
        let (space, members) = try await app.service.space(slug: slug)
        let canManage = await app.allows(.manageSpace(slug))
        let canAddFeeds = await app.allows(.createFeed(space: slug))
        func choices(_ selected: SpaceRole) -> [SpaceView.Choice] {
            SpaceRole.allCases.map { SpaceView.Choice(value: $0.rawValue, label: words["role.\($0.rawValue)"], selected: $0 == selected) }
        }
        let readable = try await app.readableFeeds().filter { $0.spaceId == space.id }
        let busyOnly = try await app.service.busyReadable(app.catalog.storedFeeds)
            .filter { feed in feed.spaceId == space.id && !readable.contains { $0.feed.slug == feed.feed.slug } }
        let feeds = readable.map { SpaceView.Feed(slug: $0.feed.slug, name: $0.feed.name) }
            + busyOnly.map { SpaceView.Feed(slug: $0.feed.slug, name: $0.feed.name, busyOnly: true) }
        let open = canManage ? try await app.service.openInvitations(space: slug).map {
            OpenInvitationRow(id: $0.id, text: words["space.invitationRow", ["role": words["role.\(($0.role ?? .viewer).rawValue)"], "who": $0.madeBy,
                                                                              "until": AppDates.text($0.expiresAt)]])
        } : []
        var view = SpaceView(slug: space.slug, name: space.name,
                             members: members.map { SpaceView.Member(login: $0.person.login, name: $0.person.displayName, role: words["role.\($0.role.rawValue)"],
                                                                     roles: choices($0.role)) },
                             feeds: feeds, canManage: canManage, canAddFeeds: canAddFeeds,
                             isMember: members.contains { $0.person.id == context.person?.access.id }, roles: choices(.viewer),
                             invitation: invitation, openInvitations: open, error: error)
        view.canRead = await app.allows(.readSpace(slug))
        return app.render("space", title: space.name, section: "spaces", view, context: context, status: error == nil ? .ok : .unprocessableContent)
    }

    /// A change to the space's members: done, or shown on the page with why not.
    private func change(_ request: Request, _ context: WebAppContext,
                        _ body: (CountdownService, String) async throws -> Void) async throws -> Response {
        let slug = context.parameters.get("space") ?? ""
        do {
            try await body(app.service, slug)
        } catch let error as StoreError {
            if case .spaceNotFound = error { throw error }
            return try await show(context, error: error.description).response(from: request, context: context)
        }
        return app.redirect("/app/spaces/\(slug)", flash: app.words(context)["flash.spaceSaved"], context: context)
    }
}
