import CountdownStore
import Foundation
import Hummingbird
import Pages
import Services

/// People, for administrators (`/app/people`; 403 for anyone else): who has
/// an account, invitations into no space, reset links, disabling and
/// enabling, and whether sign-up is open. What the command line's `tminus
/// users` does, from a phone.
package struct PeoplePages: Sendable {
    package let app: WebApp

    package struct ListView: TemplateView {
        package struct Row {
            package var login: String
            package var name: String
            package var isAdmin: Bool
            package var disabled: Bool
            package var twoStep: Bool
            package var isMe: Bool
        }

        package var people: [Row]
        package var signupOpen: Bool
        /// Forced open by `--open-signup`: the setting cannot close it.
        package var signupForced: Bool
        /// A link just made, and what it is for: shown once.
        package var link: String?
        package var linkFor: String?
        /// Every open invitation, into any space or none, to revoke.
        package var openInvitations: [OpenInvitationRow]
        package var templateValues: [String: Any] { ["hasOpenInvitations": !openInvitations.isEmpty] }
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("people") { request, context in try await self.list(context).response(from: request, context: context) }
        app.post("people/invite") { request, context in
            let (secret, _) = try await self.app.service.createInvitation(space: nil, role: nil)
            self.app.logger.notice("invitation made in the app", metadata: ["by": "\(context.person?.access.login ?? "")"])
            return try await self.list(context, link: "\(self.app.settings.baseURL)/app/join/\(secret)", linkFor: self.app.words(context)["people.invitation"])
                .response(from: request, context: context)
        }
        app.post("people/{login}/reset-link") { request, context in
            let login = context.parameters.get("login") ?? ""
            let (secret, _) = try await self.app.service.createResetLink(login: login)
            self.app.logger.notice("reset link made in the app", metadata: ["person": "\(login)", "by": "\(context.person?.access.login ?? "")"])
            return try await self.list(context, link: "\(self.app.settings.baseURL)/app/reset/\(secret)",
                                       linkFor: self.app.words(context)["people.resetFor", ["login": login]])
                .response(from: request, context: context)
        }
        app.post("people/invitations/{id}/revoke") { _, context in
            let gone = try await self.app.service.revokeInvitation(id: context.parameters.get("id") ?? "")
            self.app.logger.notice("invitation revoked in the app", metadata: ["space": "\(gone.space ?? "-")", "by": "\(context.person?.access.login ?? "")"])
            return self.app.redirect("/app/people#open-invitations", flash: self.app.words(context)["flash.invitationRevoked"], context: context)
        }
        app.post("people/{login}/disable") { _, context in try await self.setDisabled(context, true) }
        app.post("people/{login}/enable") { _, context in try await self.setDisabled(context, false) }
        app.post("people/signup/open") { _, context in try await self.setSignup(context, true) }
        app.post("people/signup/close") { _, context in try await self.setSignup(context, false) }
    }

    private func list(_ context: WebAppContext, link: String? = nil, linkFor: String? = nil) async throws -> HTMLPage {
        let people = try await app.service.people()
        let me = context.person?.access.id
        let open = try await app.service.isSignupOpen(serverAllows: app.openSignup)
        let rows = people.map { ListView.Row(login: $0.login, name: $0.displayName, isAdmin: $0.isAdmin, disabled: $0.disabledAt != nil,
                                             twoStep: $0.hasSecondFactor, isMe: $0.id == me) }
        let words = app.words(context)
        let invitations = try await app.service.openInvitations(space: nil).map { invitation in
            let values = ["space": invitation.space ?? "", "role": words["role.\((invitation.role ?? .viewer).rawValue)"], "who": invitation.madeBy,
                          "until": AppDates.text(invitation.expiresAt)]
            return OpenInvitationRow(id: invitation.id, text: words[invitation.space == nil ? "people.invitationNoSpace" : "people.invitationRow", values])
        }
        return app.render("people", title: words["nav.people"], section: "people",
                          ListView(people: rows, signupOpen: open, signupForced: app.openSignup, link: link, linkFor: linkFor,
                                   openInvitations: invitations), context: context)
    }

    private func setDisabled(_ context: WebAppContext, _ disabled: Bool) async throws -> Response {
        let login = context.parameters.get("login") ?? ""
        try await app.service.setDisabled(login: login, disabled)
        app.logger.notice(disabled ? "person disabled in the app" : "person enabled in the app",
                          metadata: ["person": "\(login)", "by": "\(context.person?.access.login ?? "")"])
        return app.redirect("/app/people", flash: app.words(context)[disabled ? "people.disabledFlash" : "people.enabledFlash", ["login": login]], context: context)
    }

    private func setSignup(_ context: WebAppContext, _ open: Bool) async throws -> Response {
        try await app.service.setSignupOpen(open)
        app.logger.notice(open ? "sign-up opened in the app" : "sign-up closed in the app", metadata: ["by": "\(context.person?.access.login ?? "")"])
        return app.redirect("/app/people", flash: app.words(context)[open ? "people.signupOpen" : "people.signupClosed"], context: context)
    }
}
