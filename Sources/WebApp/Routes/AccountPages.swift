import CountdownStore
import Foundation
import Hummingbird
import Pages
import Services

/// The pages that make an account or set a password before anyone is signed
/// in: the first-run setup link (the first administrator), an invitation,
/// open sign-up, and a reset link. Each is one form (`account.mustache`);
/// what it makes is one use case, and it signs the person in.
package struct AccountPages: Sendable {
    package let app: WebApp

    package struct AccountForm: PostedForm {
        package var csrf: String?
        package var login: String?
        package var name: String?
        package var password: String?
        package var confirm: String?
    }

    package struct AccountView {
        package var heading: String
        package var hint: String?
        package var action: String
        package var submit: String
        /// The first-run page, whose hint is the setup one.
        package var setup = false
        /// A new account asks for a login and a name; a reset only for the password.
        package var askLogin = true
        package var login = ""
        package var name = ""
        package var error: String?
    }

    /// What the page makes, with what its view says.
    private enum Kind {
        case setup(String), join(String, OneTimeLink), signup, reset(String, login: String)
    }

    /// These pages are used before anyone is signed in: they ask as the server.
    private var service: CountdownService { app.parts.service.acting(as: .system) }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("setup/{token}") { request, context in try await self.page(request, context, try await self.setup(context)) }
        app.post("setup/{token}") { request, context in try await self.save(request, context, try await self.setup(context)) }
        app.get("join/{token}") { request, context in try await self.page(request, context, try await self.join(context)) }
        app.post("join/{token}") { request, context in try await self.save(request, context, try await self.join(context)) }
        app.get("reset/{token}") { request, context in try await self.page(request, context, try await self.reset(context)) }
        app.post("reset/{token}") { request, context in try await self.save(request, context, try await self.reset(context)) }
        app.get("signup") { request, context in try await self.page(request, context, try await self.signup(context)) }
        app.post("signup") { request, context in try await self.save(request, context, try await self.signup(context)) }
    }

    // MARK: which page, or 404

    private func setup(_ context: WebAppContext) async throws -> Kind {
        let token = context.parameters.get("token") ?? ""
        guard try await service.acceptsSetupLink(token) else { throw HTTPError(.notFound, message: app.words(context)["error.setupUsed"]) }
        return .setup(token)
    }

    private func join(_ context: WebAppContext) async throws -> Kind {
        let token = context.parameters.get("token") ?? ""
        guard let link = try await service.oneTimeLink(token), case .invitation = link.purpose else {
            throw HTTPError(.notFound, message: app.words(context)["join.used"])
        }
        return .join(token, link)
    }

    private func reset(_ context: WebAppContext) async throws -> Kind {
        let token = context.parameters.get("token") ?? ""
        guard let link = try await service.oneTimeLink(token), case .reset(_, let login) = link.purpose else {
            throw HTTPError(.notFound, message: app.words(context)["reset.used"])
        }
        return .reset(token, login: login)
    }

    private func signup(_ context: WebAppContext) async throws -> Kind {
        guard try await service.isSignupOpen(serverAllows: app.openSignup) else { throw HTTPError(.notFound, message: app.words(context)["signup.closed"]) }
        return .signup
    }

    // MARK: the form

    private func view(_ kind: Kind, _ words: WebWords) -> AccountView {
        switch kind {
        case .setup(let token):
            return AccountView(heading: words["setup.heading"], action: "/app/setup/\(token)", submit: words["setup.submit"], setup: true)
        case .join(let token, let link):
            var hint = words["join.hint", ["by": link.madeBy]]
            if case .invitation(let space?, let role?) = link.purpose {
                hint = words["join.hintSpace", ["by": link.madeBy, "space": space, "role": words["role.\(role.rawValue)"]]]
            }
            return AccountView(heading: words["join.heading"], hint: hint, action: "/app/join/\(token)", submit: words["join.submit"])
        case .signup:
            return AccountView(heading: words["signup.heading"], hint: words["signup.hint"], action: "/app/signup", submit: words["join.submit"])
        case .reset(let token, let login):
            return AccountView(heading: words["reset.heading"], hint: words["reset.hint", ["login": login]], action: "/app/reset/\(token)",
                               submit: words["setup.submit"], askLogin: false)
        }
    }

    private func page(_ request: Request, _ context: WebAppContext, _ kind: Kind) async throws -> Response {
        let view = view(kind, app.words(context))
        return try app.render("new-account", title: view.heading, view, context: context).response(from: request, context: context)
    }

    private func save(_ request: Request, _ context: WebAppContext, _ kind: Kind) async throws -> Response {
        let words = app.words(context)
        let client = context.clientKey(request, trustForwardedFor: app.trustForwardedFor)
        // Each of these costs a bcrypt hash: the sign-in throttle counts them too.
        if let wait = app.throttle.admit(client: client, now: app.clock()) {
            throw HTTPError(.tooManyRequests, headers: [.retryAfter: String(wait)], message: words["signin.throttled", ["seconds": String(wait)]])
        }
        let form = try await WebForm.decode(AccountForm.self, request, limit: 4 << 10)
        var view = view(kind, words)
        let login = PersonRecord.normalizedLogin(form.login ?? "")
        let (name, password) = (form.name ?? "", form.password ?? "")
        (view.login, view.name) = (String(login.prefix(64)), String(name.prefix(200)))
        var problem: String?
        if view.askLogin, !PersonRecord.isValidLogin(login) { problem = words["setup.badLogin"] }
        problem = problem ?? Self.passwordProblem(password, confirm: form.confirm, words)
        let person: SignedInPerson
        do {
            if let problem { throw Refusal(message: problem) }
            switch kind {
            case .setup(let token):
                person = try await service.createFirstAccount(setupLink: token, login: login, displayName: name, password: password)
                app.logger.notice("the first administrator was made through the setup link", metadata: ["person": "\(login)"])
            case .join(let token, let link):
                person = try await service.acceptInvitation(token, login: login, displayName: name, password: password)
                app.logger.notice("an invitation was used", metadata: ["person": "\(login)", "invitedBy": "\(link.madeBy)"])
            case .signup:
                person = try await service.signUp(login: login, displayName: name, password: password, serverAllows: app.openSignup)
                app.logger.notice("signed up", metadata: ["person": "\(login)", "client": "\(client)"])
            case .reset(let token, let login):
                person = try await service.resetPassword(token, to: password)
                app.logger.notice("a password was reset through a reset link", metadata: ["person": "\(login)"])
            }
        } catch let refusal as Refusal {
            view.error = refusal.message
            return try app.render("new-account", title: view.heading, view, context: context, status: .unprocessableContent).response(from: request, context: context)
        } catch StoreError.loginTaken {
            view.error = words["setup.loginTaken"]
            return try app.render("new-account", title: view.heading, view, context: context, status: .conflict).response(from: request, context: context)
        }
        app.throttle.recordSuccess(client: client)
        SignInPages(app: app).startSession(context, person, flash: words["signin.signedIn"])
        return .redirect(to: "/app", type: .normal)
    }

    private struct Refusal: Error { var message: String }

    /// What is wrong with a new password and its confirmation, in the page's words; nil when nothing is.
    package static func passwordProblem(_ password: String, confirm: String?, _ words: WebWords) -> String? {
        do { try PasswordPolicy.check(password) } catch { return words[error.reason == .tooShort ? "setup.tooShort" : "setup.tooLong"] }
        return password == confirm ? nil : words["setup.differ"]
    }
}
