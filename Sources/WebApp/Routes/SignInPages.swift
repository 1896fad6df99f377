import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import HummingbirdAuth
import Services

/// Sign in and sign out. A session is created only by a person's right login
/// and password (or by `AccountPages`, which make accounts); five attempts in
/// a minute from one address are all it gets until the minute has passed (429).
package struct SignInPages: Sendable {
    package let app: WebApp

    package struct SignInForm: PostedForm {
        package var csrf: String?
        package var login: String?
        package var password: String?
    }

    package struct CodeForm: PostedForm {
        package var csrf: String?
        package var code: String?
    }

    package struct CodeView {
        package var error: String?
    }

    package struct SignInView {
        package var error: String?
        package var needsSetup: Bool
        package var login = ""
        /// Sign-up is open: the page links to it.
        package var signupOpen = false
    }

    /// Sign-in happens before anyone is signed in: it asks as the server.
    private var service: CountdownService { app.parts.service.acting(as: .system) }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("signin") { request, context in
            if context.isSignedIn { return Response.redirect(to: "/app", type: .normal) }
            if context.awaitingCode != nil { return Response.redirect(to: "/app/signin/code", type: .normal) }
            let needsSetup = try await self.service.needsFirstAccount()
            let open = try await self.service.isSignupOpen(serverAllows: self.app.openSignup)
            return try self.app.render("signin", title: self.app.words(context)["signin.title"], SignInView(needsSetup: needsSetup, signupOpen: open),
                                       context: context)
                .response(from: request, context: context)
        }
        app.post("signin") { request, context in try await self.signIn(request, context) }
        app.get("signin/code") { request, context in
            guard context.awaitingCode != nil else { return Response.redirect(to: "/app/signin", type: .normal) }
            return try self.app.render("signin-code", title: self.app.words(context)["signin.codeTitle"], CodeView(), context: context)
                .response(from: request, context: context)
        }
        app.post("signin/code") { request, context in try await self.checkCode(request, context) }
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
        // Wrong passwords for one login from many addresses are limited too: a delay of at most a
        // minute (`loginThrottle`), never a lockout the real person cannot wait out.
        let loginKey = "login " + login.lowercased()
        if let wait = app.loginThrottle.waitTime(client: loginKey, now: now) {
            app.logger.notice("sign-in throttled for the login", metadata: ["client": "\(client)", "login": "\(login)", "retryAfter": "\(wait)"])
            var response = try app.render("signin", title: words["signin.title"],
                                          SignInView(error: words["signin.throttled", ["seconds": String(wait)]], needsSetup: false, login: login),
                                          context: context, status: .tooManyRequests).response(from: request, context: context)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        let person: SignedInPerson?
        do { person = try await service.signIn(login: login, password: form.password ?? "") } catch let busy as PasswordHashing.Busy {
            var response = try app.render("signin", title: words["signin.title"], SignInView(error: words["signin.busy"], needsSetup: false, login: login),
                                          context: context, status: .serviceUnavailable).response(from: request, context: context)
            response.headers[.retryAfter] = String(busy.retryAfter)
            return response
        }
        guard let person else {
            _ = app.loginThrottle.admit(client: loginKey, now: now)
            app.logger.notice("sign-in failed", metadata: ["client": "\(client)", "login": "\(login)"])
            let needsSetup = try await service.needsFirstAccount()
            return try app.render("signin", title: words["signin.title"],
                                  SignInView(error: words[needsSetup ? "signin.noPassword" : "signin.wrong"], needsSetup: needsSetup, login: login),
                                  context: context, status: .unauthorized).response(from: request, context: context)
        }
        app.throttle.recordSuccess(client: client)
        if person.needsSecondFactor {
            // A session that opens nothing until the code is right (a new one then).
            context.sessions.createSession(WebSession(signedInAt: app.clock(), person: person, flash: nil, awaitingSecondFactor: true),
                                           expiresIn: .seconds(600))
            return .redirect(to: "/app/signin/code", type: .normal)
        }
        startSession(context, person, flash: words["signin.signedIn"])
        app.logger.info("signed in", metadata: ["client": "\(client)", "person": "\(person.access.login)"])
        return speaking(person, .redirect(to: "/app", type: .normal))
    }

    /// A person who chose a language gets it on every device they sign in on.
    private func speaking(_ person: SignedInPerson, _ response: Response) -> Response {
        guard let code = person.language, let language = Language.named(code) else { return response }
        var response = response
        response.headers[values: .setCookie].append(AppLanguageSwitch.cookie(language, app).description)
        return response
    }

    /// The second factor's code, after the right password.
    private func checkCode(_ request: Request, _ context: WebAppContext) async throws -> Response {
        guard let person = context.awaitingCode else { return .redirect(to: "/app/signin", type: .normal) }
        let client = context.clientKey(request, trustForwardedFor: app.trustForwardedFor)
        let words = app.words(context)
        let personKey = "code person \(person.access.id)"
        if let wait = app.codeThrottle.waitTime(client: personKey, now: app.clock()) ?? app.throttle.admit(client: client, now: app.clock()) {
            app.logger.notice("second factor throttled", metadata: ["client": "\(client)", "person": "\(person.access.login)"])
            var response = try app.render("signin-code", title: words["signin.codeTitle"], CodeView(error: words["signin.throttled", ["seconds": String(wait)]]),
                                          context: context, status: .tooManyRequests).response(from: request, context: context)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        let form = try await WebForm.decode(CodeForm.self, request, limit: 4 << 10)
        guard let sealer = app.secrets,
              try await service.checkSecondFactor(personId: person.access.id, code: String((form.code ?? "").prefix(64)), sealer: sealer) else {
            app.logger.notice("second factor failed", metadata: ["client": "\(client)", "person": "\(person.access.login)"])
            _ = app.codeThrottle.admit(client: personKey, now: app.clock())
            if var session = context.sessions.session, (session.wrongCodes ?? 0) + 1 < WebSession.maxWrongCodes {
                session.wrongCodes = (session.wrongCodes ?? 0) + 1
                _ = context.sessions.updateSession(session)
            } else {
                // The waiting session ends: the next try starts from the password again.
                context.sessions.clearSession()
                app.logger.notice("second factor: too many wrong codes, the waiting session ended", metadata: ["person": "\(person.access.login)"])
                return try app.render("signin", title: words["signin.title"], SignInView(error: words["signin.codeTooMany"], needsSetup: false, login: person.access.login),
                                      context: context, status: .unauthorized).response(from: request, context: context)
            }
            return try app.render("signin-code", title: words["signin.codeTitle"], CodeView(error: words["signin.codeWrong"]), context: context,
                                  status: .unauthorized).response(from: request, context: context)
        }
        app.throttle.recordSuccess(client: client)
        startSession(context, person, flash: words["signin.signedIn"])
        app.logger.info("signed in with a second factor", metadata: ["client": "\(client)", "person": "\(person.access.login)"])
        return speaking(person, .redirect(to: "/app", type: .normal))
    }

    /// A new session (a new id, so none chosen before sign-in survives it) in the person's current epoch.
    package func startSession(_ context: WebAppContext, _ person: SignedInPerson, flash: String) {
        context.sessions.createSession(WebSession(signedInAt: app.clock(), person: person, flash: flash), expiresIn: WebApp.sessionLifetime)
    }
}
