import CountdownStore
import Foundation
import Hummingbird
import HummingbirdAuth
import Services

/// Sign in, sign out, and the first-run setup link. A session is created only
/// by a person's right login and password (or the setup link, which makes the
/// first administrator); five attempts in a minute from one address are all
/// it gets until the minute has passed (429).
package struct SignInPages: Sendable {
    package let app: WebApp

    package struct SignInForm: PostedForm {
        package var csrf: String?
        package var login: String?
        package var password: String?
    }

    package struct SetupForm: PostedForm {
        package var csrf: String?
        package var login: String?
        package var name: String?
        package var password: String?
        package var confirm: String?
    }

    package struct SignInView {
        package var error: String?
        package var needsSetup: Bool
        package var login = ""
    }

    package struct SetupView {
        package var error: String?
        package var action: String
        package var login = ""
        package var name = ""
    }

    /// Sign-in and setup happen before anyone is signed in: they ask as the server.
    private var service: CountdownService { app.parts.service.acting(as: .system) }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("signin") { request, context in
            if context.isSignedIn { return Response.redirect(to: "/app", type: .normal) }
            let needsSetup = try await self.service.needsFirstAccount()
            return try self.app.render("signin", title: self.app.words(context)["signin.title"], SignInView(needsSetup: needsSetup), context: context)
                .response(from: request, context: context)
        }
        app.post("signin") { request, context in try await self.signIn(request, context) }
        app.post("signout") { request, context in
            context.sessions.clearSession()
            return Response.redirect(to: "/app/signin", type: .normal)
        }
        app.post("signout-everywhere") { request, context in
            guard let person = context.person else { return Response.redirect(to: "/app/signin", type: .normal) }
            var renewed = person
            renewed.sessionEpoch = try await self.app.parts.service.acting(as: .person(person.access)).signOutEverywhere()
            self.app.logger.notice("signed out everywhere: every other session has ended", metadata: ["person": "\(person.access.login)"])
            self.startSession(context, renewed, flash: self.app.words(context)["signin.everywhere"])
            return Response.redirect(to: "/app", type: .normal)
        }
        app.get("setup/{token}") { _, context in
            let token = context.parameters.get("token") ?? ""
            guard try await self.service.acceptsSetupLink(token) else {
                throw HTTPError(.notFound, message: self.app.words(context)["error.setupUsed"])
            }
            return self.app.render("setup", title: self.app.words(context)["setup.title"], SetupView(action: "/app/setup/\(token)"), context: context)
        }
        app.post("setup/{token}") { request, context in try await self.setUp(request, context) }
    }

    private func signIn(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let now = app.clock()
        let client = context.clientKey(request, trustForwardedFor: app.trustForwardedFor)
        let words = app.words(context)
        if let wait = app.throttle.admit(client: client, now: now) {
            app.logger.notice("sign-in throttled", metadata: ["client": "\(client)", "retryAfter": "\(wait)"])
            var response = try app.render("signin", title: words["signin.title"],
                                          SignInView(error: words["signin.throttled", ["seconds": String(wait)]], needsSetup: false),
                                          context: context, status: .tooManyRequests).response(from: request, context: context)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        let form = try await WebForm.decode(SignInForm.self, request, limit: 4 << 10)
        let login = String((form.login ?? "").prefix(64))
        let person: SignedInPerson?
        do { person = try await service.signIn(login: login, password: form.password ?? "") } catch is PasswordHashing.Busy {
            var response = try app.render("signin", title: words["signin.title"], SignInView(error: words["signin.busy"], needsSetup: false, login: login),
                                          context: context, status: .serviceUnavailable).response(from: request, context: context)
            response.headers[.retryAfter] = "5"
            return response
        }
        guard let person else {
            app.logger.notice("sign-in failed", metadata: ["client": "\(client)", "login": "\(login)"])
            let needsSetup = try await service.needsFirstAccount()
            return try app.render("signin", title: words["signin.title"],
                                  SignInView(error: words[needsSetup ? "signin.noPassword" : "signin.wrong"], needsSetup: needsSetup, login: login),
                                  context: context, status: .unauthorized).response(from: request, context: context)
        }
        app.throttle.recordSuccess(client: client)
        startSession(context, person, flash: words["signin.signedIn"])
        app.logger.info("signed in", metadata: ["client": "\(client)", "person": "\(person.access.login)"])
        return .redirect(to: "/app", type: .normal)
    }

    private func setUp(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let words = app.words(context)
        guard try await service.acceptsSetupLink(token) else {
            throw HTTPError(.notFound, message: words["error.setupUsed"])
        }
        let form = try await WebForm.decode(SetupForm.self, request, limit: 4 << 10)
        let (login, name, password) = ((form.login ?? "").trimmingCharacters(in: .whitespaces).lowercased(), form.name ?? "", form.password ?? "")
        var problem: String?
        if !PersonRecord.isValidLogin(login) { problem = words["setup.badLogin"] }
        do { try PasswordPolicy.check(password) } catch {
            problem = problem ?? words[error.reason == .tooShort ? "setup.tooShort" : "setup.tooLong"]
        }
        if problem == nil, password != form.confirm { problem = words["setup.differ"] }
        if let problem {
            return try app.render("setup", title: words["setup.title"],
                                  SetupView(error: problem, action: "/app/setup/\(token)", login: String(login.prefix(64)), name: String(name.prefix(200))),
                                  context: context, status: .unprocessableContent).response(from: request, context: context)
        }
        let person = try await service.createFirstAccount(setupLink: token, login: login, displayName: name, password: password)
        app.logger.notice("the first administrator was made through the setup link", metadata: ["person": "\(login)"])
        startSession(context, person, flash: words["signin.signedIn"])
        return .redirect(to: "/app", type: .normal)
    }

    /// A new session (a new id, so none chosen before sign-in survives it) in the person's current epoch.
    private func startSession(_ context: WebAppContext, _ person: SignedInPerson, flash: String) {
        context.sessions.createSession(WebSession(signedInAt: app.clock(), person: person, flash: flash), expiresIn: WebApp.sessionLifetime)
    }
}
