import CountdownStore
import Foundation
import Hummingbird
import HummingbirdAuth
import Services

/// Sign in, sign out, and the first-run setup link. A session is created only
/// by a correct password (or a valid setup link); five attempts in a minute
/// from one address are all it gets until the minute has passed (429).
package struct SignInPages: Sendable {
    package let app: WebApp

    package struct SignInForm: PostedForm {
        package var csrf: String?
        package var password: String?
    }

    package struct SetupForm: PostedForm {
        package var csrf: String?
        package var password: String?
        package var confirm: String?
    }

    package struct SignInView {
        package var error: String?
        package var needsSetup: Bool
    }

    package struct SetupView {
        package var error: String?
        package var action: String
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("signin") { request, context in
            if context.isSignedIn { return Response.redirect(to: "/app", type: .normal) }
            let needsSetup = try await !OwnerPassword.isSet(in: self.app.service)
            return try self.app.render("signin", title: self.app.words(context)["signin.title"], SignInView(needsSetup: needsSetup), context: context)
                .response(from: request, context: context)
        }
        app.post("signin") { request, context in try await self.signIn(request, context) }
        app.post("signout") { request, context in
            context.sessions.clearSession()
            return Response.redirect(to: "/app/signin", type: .normal)
        }
        app.post("signout-everywhere") { request, context in
            guard context.isSignedIn else { return Response.redirect(to: "/app/signin", type: .normal) }
            let epoch = try await self.app.service.renewSessionEpoch()
            self.app.logger.notice("signed out everywhere: every other session has ended")
            self.startSession(context, epoch: epoch, flash: self.app.words(context)["signin.everywhere"])
            return Response.redirect(to: "/app", type: .normal)
        }
        app.get("setup/{token}") { _, context in
            let token = context.parameters.get("token") ?? ""
            guard try await OwnerPassword.acceptsSetupToken(token, in: self.app.service) else {
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
        let verified: Bool
        do { verified = try await OwnerPassword.verify(form.password ?? "", in: app.service) } catch is PasswordHashing.Busy {
            var response = try app.render("signin", title: words["signin.title"], SignInView(error: words["signin.busy"], needsSetup: false),
                                          context: context, status: .serviceUnavailable).response(from: request, context: context)
            response.headers[.retryAfter] = "5"
            return response
        }
        guard verified else {
            app.logger.notice("sign-in failed", metadata: ["client": "\(client)"])
            let needsSetup = try await !OwnerPassword.isSet(in: app.service)
            return try app.render("signin", title: words["signin.title"],
                                  SignInView(error: words[needsSetup ? "signin.noPassword" : "signin.wrong"], needsSetup: needsSetup),
                                  context: context, status: .unauthorized).response(from: request, context: context)
        }
        app.throttle.recordSuccess(client: client)
        startSession(context, epoch: try await SessionEpoch.current(in: app.service), flash: words["signin.signedIn"])
        app.logger.info("signed in", metadata: ["client": "\(client)"])
        return .redirect(to: "/app", type: .normal)
    }

    private func setUp(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let words = app.words(context)
        guard try await OwnerPassword.acceptsSetupToken(token, in: app.service) else {
            throw HTTPError(.notFound, message: words["error.setupUsed"])
        }
        let form = try await WebForm.decode(SetupForm.self, request, limit: 4 << 10)
        let password = form.password ?? ""
        var problem: String?
        do { try OwnerPassword.check(password) } catch {
            problem = words[password.count < OwnerPassword.minCharacters ? "setup.tooShort" : "setup.tooLong"]
        }
        if problem == nil, password != form.confirm { problem = words["setup.differ"] }
        if let problem {
            return try app.render("setup", title: words["setup.title"], SetupView(error: problem, action: "/app/setup/\(token)"),
                                  context: context, status: .unprocessableContent).response(from: request, context: context)
        }
        try await OwnerPassword.set(password, in: app.service)
        app.logger.notice("owner password set through the setup link")
        startSession(context, epoch: try await SessionEpoch.current(in: app.service), flash: words["signin.signedIn"])
        return .redirect(to: "/app", type: .normal)
    }

    /// A new session (a new id, so none chosen before sign-in survives it) in the current epoch.
    private func startSession(_ context: WebAppContext, epoch: String?, flash: String) {
        context.sessions.createSession(WebSession(signedInAt: app.clock(), epoch: epoch, flash: flash), expiresIn: WebApp.sessionLifetime)
    }
}
