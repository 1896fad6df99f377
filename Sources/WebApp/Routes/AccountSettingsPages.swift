import CountdownStore
import Foundation
import Hummingbird
import Pages
import Services
import Subscriptions

/// "Your account" (`/app/account`): the signed-in person's password and
/// second factor. Changing either ends their other sessions; this one goes
/// on in a new session of the new epoch.
package struct AccountSettingsPages: Sendable {
    package let app: WebApp

    package struct PasswordForm: PostedForm {
        package var csrf: String?
        package var current: String?
        package var password: String?
        package var confirm: String?
        /// "Also end every API token and app password", checked by default: a browser sends "on", or nothing when unchecked.
        package var revokeTokens: String?
    }

    package struct FactorForm: PostedForm {
        package var csrf: String?
        package var pending: String?
        package var code: String?
        package var current: String?
    }

    package struct TokenForm: PostedForm {
        package var csrf: String?
        package var label: String?
        package var readOnly: String?
        /// The app password form's own (two checkboxes of one name on a page are one group to a screen reader).
        package var appReadOnly: String?
    }

    package struct AccountView: TemplateView {
        package struct Token {
            package var id: Int64
            package var label: String
            package var detail: String
            package var live: Bool
        }

        package var login: String
        package var name: String
        package var hasSecondFactor: Bool
        package var factorState: String
        package var tokens: [Token]
        /// A token just made: its secret, shown once.
        package var newToken: String?
        package var appPasswords: [Token]
        /// An app password just made, shown once.
        package var newAppPassword: String?
        /// How calendar apps sign in: the login and the server's address.
        package var appPasswordsHint: String
        /// What their own feeds hold, of their storage quota.
        package var storage: String
        package var error: String?
        package var templateValues: [String: Any] { ["hasTokens": !tokens.isEmpty, "hasAppPasswords": !appPasswords.isEmpty] }
    }

    package struct FactorView {
        package var qr: String?
        package var key: String
        package var pending: String
        package var codes: [String]
        package var error: String?
    }

    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("account") { request, context in try await self.page(context).response(from: request, context: context) }
        app.post("account/password") { request, context in try await self.changePassword(request, context) }
        app.get("account/second-factor") { request, context in try await self.enroll(context, error: nil).response(from: request, context: context) }
        app.post("account/second-factor") { request, context in try await self.confirm(request, context) }
        app.post("account/second-factor/off") { request, context in try await self.turnOff(request, context) }
        app.post("account/tokens") { request, context in try await self.makeToken(request, context) }
        app.post("account/app-passwords") { request, context in try await self.makeToken(request, context, purpose: .app) }
        app.post("account/tokens/{id}/revoke") { _, context in
            let person = try self.person(context)
            try await self.app.service.revokePersonToken(login: person.access.login, id: try self.app.id(context))
            return self.app.redirect("/app/account#tokens", flash: self.app.words(context)["flash.revoked"], context: context)
        }
    }

    private func person(_ context: WebAppContext) throws -> SignedInPerson {
        guard let person = context.person else { throw HTTPError(.unauthorized) }
        return person
    }

    private func page(_ context: WebAppContext, error: String? = nil, newToken: String? = nil, newAppPassword: String? = nil,
                      status: HTTPResponse.Status = .ok) async throws -> HTMLPage {
        let me = try await app.service.me()
        let words = app.words(context)
        let left = me.recoveryCodes?.hashes.count ?? 0
        let now = app.clock()
        let all = try await app.service.personTokens(login: me.login)
        let (usage, quota) = try await app.service.myUsage()
        let number = { (value: Int) in value.formatted(.number.locale(words.language.locale)) }
        let storage = words["me.storageUse", ["countdowns": number(usage.countdowns), "maxCountdowns": number(quota.countdowns),
                                              "megabytes": StorageQuota.megabytes(usage.bytes), "maxMegabytes": number(quota.megabytes),
                                              "images": number(usage.images), "maxImages": number(quota.images)]]
        func view(_ token: PersonTokenRecord) -> AccountView.Token {
            let state = token.revokedAt != nil ? words["me.tokenRevoked"]
                : token.lastUsedAt.map { words["me.tokenUsed", ["date": AppDates.text($0)]] } ?? words["me.tokenNever"]
            return AccountView.Token(id: token.id ?? 0, label: token.label,
                                     detail: (token.readOnly ? words["me.tokenReadOnly"] + " · " : "") + state, live: token.isLive(at: now))
        }
        return app.render("me", title: words["me.title"], section: "account",
                          AccountView(login: me.login, name: me.displayName, hasSecondFactor: me.hasSecondFactor,
                                      factorState: me.hasSecondFactor ? words["me.factorOn", ["count": String(left)]] : words["me.factorOff"],
                                      tokens: all.filter { $0.purpose == .api }.map(view), newToken: newToken,
                                      appPasswords: all.filter { $0.purpose == .app }.map(view), newAppPassword: newAppPassword,
                                      appPasswordsHint: words["me.appPasswordsHint", ["login": me.login, "address": app.parts.settings.baseURL + "/"]],
                                      storage: storage, error: error),
                          context: context, status: status)
    }

    /// An API token, or an app password for a calendar app: shown once on the page.
    private func makeToken(_ request: Request, _ context: WebAppContext, purpose: PersonTokenRecord.Purpose = .api) async throws -> Response {
        let person = try person(context)
        let form = try await WebForm.decode(TokenForm.self, request, limit: 4 << 10)
        do {
            let login = person.access.login, label = form.label ?? "", readOnly = (purpose == .app ? form.appReadOnly : form.readOnly) != nil
            if purpose == .app {
                let (secret, _) = try await app.service.createAppPassword(login: login, label: label, readOnly: readOnly)
                app.logger.notice("app password made in the app", metadata: ["person": "\(login)"])
                return try await page(context, newAppPassword: secret).response(from: request, context: context)
            }
            let (secret, _) = try await app.service.createPersonToken(login: login, label: label, readOnly: readOnly)
            app.logger.notice("API token made in the app", metadata: ["person": "\(login)"])
            return try await page(context, newToken: secret).response(from: request, context: context)
        } catch let error as StoreError {
            return try await page(context, error: error.description, status: .unprocessableContent).response(from: request, context: context)
        }
    }

    /// The current password, checked as a sign-in would: five checks a minute
    /// per person (429 past that), with the person's fair share of the bcrypt
    /// queue (503 past it): forty parallel wrong ones filled the queue for
    /// everyone (issue #59).
    private func passwordIsRight(_ password: String?, _ person: SignedInPerson, _ context: WebAppContext) async throws -> Bool {
        let key = "current password \(person.access.id)"
        if let wait = app.currentPasswordThrottle.admit(client: key, now: app.clock()) {
            throw HTTPError(.tooManyRequests, headers: [.retryAfter: String(wait)], message: app.words(context)["signin.throttled", ["seconds": String(wait)]])
        }
        do {
            let right = try await app.parts.service.acting(as: .system).signIn(login: person.access.login, password: password ?? "", client: key) != nil
            if right { app.currentPasswordThrottle.recordSuccess(client: key) }
            return right
        } catch let busy as PasswordHashing.Busy {
            throw HTTPError(.serviceUnavailable, headers: [.retryAfter: String(busy.retryAfter)], message: busy.description)
        }
    }

    private func changePassword(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let person = try person(context)
        let words = app.words(context)
        let form = try await WebForm.decode(PasswordForm.self, request, limit: 4 << 10)
        let password = form.password ?? ""
        var problem = AccountPages.passwordProblem(password, confirm: form.confirm, words)
        if problem == nil, try await !passwordIsRight(form.current, person, context) { problem = words["me.passwordWrong"] }
        if let problem { return try await page(context, error: problem, status: .unprocessableContent).response(from: request, context: context) }
        var renewed = person
        let revoking = form.revokeTokens != nil
        renewed.sessionEpoch = try await app.service.setPassword(login: person.access.login, to: password, revokingTokens: revoking)
        app.logger.notice("password changed in the web app; the person's other sessions have ended", metadata: [
            "person": "\(person.access.login)", "tokens": .string(revoking ? "revoked" : "kept"),
        ])
        SignInPages(app: app).startSession(context, renewed, flash: words["me.passwordChanged"])
        return .redirect(to: "/app/account", type: .normal)
    }

    /// The QR code and key of a new secret, or of `resuming`'s (a wrong code: the app already has that key).
    private func enroll(_ context: WebAppContext, error: String?, resuming pending: String? = nil) async throws -> HTMLPage {
        let words = app.words(context)
        guard let sealer = app.secrets else { throw HTTPError(.serviceUnavailable, message: words["factor.noKey"]) }
        let enrollment: SecondFactor.Enrollment
        do {
            enrollment = try await app.service.beginSecondFactor(issuer: Self.issuer(app.settings.baseURL), sealer: sealer, resuming: pending)
        } catch let failure as SecretBox.Failure {
            throw HTTPError(.serviceUnavailable, message: words["factor.noKey"] + " (\(failure))")
        }
        return app.render("second-factor", title: words["factor.title"], section: "account",
                          FactorView(qr: QRCode.svg(for: enrollment.address, label: words["factor.title"]), key: Self.grouped(enrollment.base32),
                                     pending: enrollment.pending, codes: [], error: error),
                          context: context, status: error == nil ? .ok : .unprocessableContent)
    }

    private func confirm(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let person = try person(context)
        let words = app.words(context)
        guard let sealer = app.secrets else { throw HTTPError(.serviceUnavailable, message: words["factor.noKey"]) }
        let form = try await WebForm.decode(FactorForm.self, request, limit: 8 << 10)
        let pending = form.pending ?? ""
        do {
            let (codes, epoch) = try await app.service.enableSecondFactor(pending: pending, code: form.code ?? "", sealer: sealer)
            var renewed = person
            renewed.sessionEpoch = epoch
            SignInPages(app: app).startSession(context, renewed, flash: words["factor.on"])
            app.logger.notice("second factor turned on; the person's other sessions have ended", metadata: ["person": "\(person.access.login)"])
            return try app.render("second-factor", title: words["factor.codes"], section: "account",
                                  FactorView(qr: nil, key: "", pending: "", codes: codes, error: nil), context: context)
                .response(from: request, context: context)
        } catch StoreError.invalid {
            return try await enroll(context, error: words["factor.wrongCode"], resuming: pending).response(from: request, context: context)
        }
    }

    private func turnOff(_ request: Request, _ context: WebAppContext) async throws -> Response {
        let person = try person(context)
        let words = app.words(context)
        let form = try await WebForm.decode(FactorForm.self, request, limit: 4 << 10)
        guard try await passwordIsRight(form.current, person, context) else {
            return try await page(context, error: words["me.passwordWrong"], status: .unprocessableContent).response(from: request, context: context)
        }
        try await app.service.removeSecondFactor(login: person.access.login)
        app.logger.notice("second factor turned off", metadata: ["person": "\(person.access.login)"])
        return app.redirect("/app/account", flash: words["me.factorRemoved"], context: context)
    }

    /// The name the authenticator app shows: the server's host.
    static func issuer(_ baseURL: String) -> String {
        "tminus " + (URL(string: baseURL)?.host ?? "")
    }

    /// A base32 key in groups of four, to type in.
    static func grouped(_ key: String) -> String {
        stride(from: 0, to: key.count, by: 4).map { offset in
            let start = key.index(key.startIndex, offsetBy: offset)
            return String(key[start..<(key.index(start, offsetBy: 4, limitedBy: key.endIndex) ?? key.endIndex)])
        }.joined(separator: " ")
    }
}
