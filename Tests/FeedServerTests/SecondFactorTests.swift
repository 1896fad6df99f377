import CountdownStore
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdOTP
import HummingbirdTesting
import ServerTestSupport
import Services
import Testing

/// Issue #37: a person turns on a second factor from their account page (a
/// code from their app confirms it); then signing in asks for a code after
/// the password, a code is good once, a recovery code signs in once, and
/// turning it on ends their other sessions.
struct SecondFactorTests {
    static let password = "correct horse battery"

    /// RFC 4648 base32, as the page shows the key (in groups of four).
    static func base32Decoded(_ text: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0, value = 0
        var bytes: [UInt8] = []
        for character in text.uppercased() where character != " " && character != "=" {
            guard let index = alphabet.firstIndex(of: character) else { continue }
            value = (value << 5) | index
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((value >> (bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func code(_ key: String, at date: Date) -> String {
        String(format: "%06d", TOTP(secret: base32Decoded(key)).compute(date: date))
    }

    @Test func aSecondFactorIsAskedAfterThePasswordAndEachCodeWorksOnce() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await parts.store.service.addPerson(login: "ben", displayName: "Ben", password: Self.password, cost: 4)
            var laptop = Browser(client: client), phone = Browser(client: client)
            try await laptop.signIn(Self.password, as: "ben")
            try await phone.signIn(Self.password, as: "ben")
            #expect(try await laptop.get("/app/account").text.contains("your password alone signs you in"))

            let enroll = try await laptop.get("/app/account/second-factor")
            #expect(enroll.status == .ok && enroll.text.contains("<svg"), "a QR code")
            let pending = try #require(enroll.text.firstMatch(of: /name="pending" value="([^"]+)"/).map { String($0.1) })
            let key = try #require(enroll.text.firstMatch(of: /<code class="key">([A-Z2-7 ]+)<\/code>/).map { String($0.1) })
            let wrong = try await laptop.post("/app/account/second-factor", ["pending": pending, "code": "12345x"])
            #expect(wrong.status == .unprocessableContent && wrong.text.contains(key), "the same key again, with the reason")
            let forged = try await laptop.post("/app/account/second-factor", ["pending": "v2.0000.AAAA", "code": Self.code(key, at: fixture.clockNow)])
            #expect(forged.status == .unprocessableContent, "a pending secret this server did not seal for him is refused")
            let now = fixture.clockNow   // the server's clock, which the test holds
            let on = try await laptop.post("/app/account/second-factor", ["pending": pending, "code": Self.code(key, at: now)])
            #expect(on.status == .ok && on.text.contains("Your recovery codes"))
            let codes = on.text.matches(of: /<li><code>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})<\/code><\/li>/).map { String($0.1) }
            #expect(codes.count == 10 && Set(codes).count == 10)
            let ben = try #require(try await parts.store.read { try await $0.personRows(.login("ben")).first })
            #expect(ben.totpSecret?.hasPrefix("v2.") == true && ben.totpSecret?.contains(Self.base32Decoded(key)) == false, "sealed, never in the clear")
            #expect(ben.recoveryCodes?.hashes.count == 10 && ben.recoveryCodes?.rawValue.contains(codes[0]) == false, "only hashes")
            #expect(try await laptop.get("/app").status == .ok, "this session goes on")
            #expect(try await phone.get("/app").headers[.location] == "/app/signin", "the others end")

            // The password alone opens nothing now.
            _ = try await phone.get("/app/signin")
            let half = try await phone.post("/app/signin", ["login": "ben", "password": Self.password])
            #expect(half.status == .seeOther && half.headers[.location] == "/app/signin/code")
            #expect(try await phone.get("/app").headers[.location] == "/app/signin")
            let back = try await phone.get("/app/signin")
            #expect(back.headers[.location] == "/app/signin/code")
            let replayed = try await phone.post("/app/signin/code", ["code": Self.code(key, at: now)])
            #expect(replayed.status == .unauthorized && replayed.text.contains("used already"), "the code that turned it on is spent")
            fixture.setClock(now.addingTimeInterval(30))
            let next = try await phone.post("/app/signin/code", ["code": Self.code(key, at: now.addingTimeInterval(30))])
            #expect(next.status == .seeOther && next.headers[.location] == "/app")
            #expect(try await phone.get("/app").status == .ok)

            // A recovery code, once.
            var lost = Browser(client: client)
            _ = try await lost.get("/app/signin")
            _ = try await lost.post("/app/signin", ["login": "ben", "password": Self.password])
            #expect(try await lost.post("/app/signin/code", ["code": codes[3].uppercased().replacingOccurrences(of: "-", with: " ")]).status == .seeOther,
                    "typed in capitals and with spaces")
            var again = Browser(client: client)
            _ = try await again.get("/app/signin")
            _ = try await again.post("/app/signin", ["login": "ben", "password": Self.password])
            #expect(try await again.post("/app/signin/code", ["code": codes[3]]).status == .unauthorized, "a recovery code works once")
            #expect(try await parts.store.read { try await $0.personRows(.login("ben")).first }?.recoveryCodes?.hashes.count == 9)

            // Off again, with the password.
            #expect(try await laptop.post("/app/account/second-factor/off", ["current": "not my password"]).status == .unprocessableContent)
            #expect(try await laptop.post("/app/account/second-factor/off", ["current": Self.password]).status == .seeOther)
            var plain = Browser(client: client)
            try await plain.signIn(Self.password, as: "ben")
            #expect(try await plain.get("/app").status == .ok, "the password alone signs in again")
        }
    }

    @Test func aPasswordChangedOnTheAccountPageEndsTheOtherSessions() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await parts.store.service.addPerson(login: "ben", password: Self.password, cost: 4)
            var laptop = Browser(client: client), phone = Browser(client: client)
            try await laptop.signIn(Self.password, as: "ben")
            try await phone.signIn(Self.password, as: "ben")
            let wrong = try await laptop.post("/app/account/password", ["current": "guess", "password": "a new long password", "confirm": "a new long password"])
            #expect(wrong.status == .unprocessableContent && wrong.text.contains("current password is not right"))
            let changed = try await laptop.post("/app/account/password",
                                                ["current": Self.password, "password": "a new long password", "confirm": "a new long password"])
            #expect(changed.status == .seeOther)
            #expect(try await laptop.get("/app/account").text.contains("Password changed"))
            #expect(try await phone.get("/app").headers[.location] == "/app/signin")
        }
    }

    /// Regression (issue #59, 11): one waiting session used from ten addresses had 50 wrong codes checked in under a
    /// second. A waiting session ends after three wrong codes, and a person gets ten wrong codes an hour, from anywhere.
    @Test func wrongCodesEndTheWaitingSessionAndAreCappedPerPerson() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await parts.store.service.addPerson(login: "ben", displayName: "Ben", password: Self.password, cost: 4)
            var laptop = Browser(client: client)
            try await laptop.signIn(Self.password, as: "ben")
            let enroll = try await laptop.get("/app/account/second-factor")
            let pending = try #require(enroll.text.firstMatch(of: /name="pending" value="([^"]+)"/).map { String($0.1) })
            let key = try #require(enroll.text.firstMatch(of: /<code class="key">([A-Z2-7 ]+)<\/code>/).map { String($0.1) })
            #expect(try await laptop.post("/app/account/second-factor", ["pending": pending, "code": Self.code(key, at: fixture.clockNow)]).status == .ok)

            var wrong = 0
            func waiting() async throws -> Browser {
                fixture.setClock(fixture.clockNow.addingTimeInterval(61))   // past the per-address window, never the person's
                var browser = Browser(client: client)
                _ = try await browser.get("/app/signin")
                let half = try await browser.post("/app/signin", ["login": "ben", "password": Self.password])
                #expect(half.headers[.location] == "/app/signin/code")
                return browser
            }
            var phone = try await waiting()
            for attempt in 1...3 {
                let answer = try await phone.post("/app/signin/code", ["code": "000000"])
                wrong += 1
                #expect(answer.status == .unauthorized)
                if attempt == 3 { #expect(answer.text.contains("Too many wrong codes"), "the third ends the waiting session") }
            }
            #expect(try await phone.get("/app/signin/code").headers[.location] == "/app/signin", "the password is asked again")

            while wrong < 10 {
                var next = try await waiting()
                for _ in 0..<min(2, 10 - wrong) {
                    _ = try await next.post("/app/signin/code", ["code": "000000"])
                    wrong += 1
                }
            }
            var last = try await waiting()
            let right = try await last.post("/app/signin/code", ["code": Self.code(key, at: fixture.clockNow)])
            #expect(right.status == .tooManyRequests, "ten wrong codes this hour: even a right one waits (\(right.status))")
            fixture.setClock(fixture.clockNow.addingTimeInterval(3600))
            var later = try await waiting()
            #expect(try await later.post("/app/signin/code", ["code": Self.code(key, at: fixture.clockNow)]).headers[.location] == "/app", "an hour on, it opens")
        }
    }

    /// Regression (issue #59, 12 and 13): the current password was checked without any limit, and one login could be
    /// tried 40 times from 8 addresses in 21 s. Both are limited now, by a delay the real person can wait out.
    @Test func currentPasswordChecksAndOneLoginsSignInsAreLimited() async throws {
        let fixture = try ServerFixture(backend: .sqlite)
        try await fixture.withServer(adjust: { $0.trustForwardedFor = true }) { client, parts in
            try await parts.store.service.addPerson(login: "ben", password: Self.password, cost: 4)
            var laptop = Browser(client: client)
            try await laptop.signIn(Self.password, as: "ben")
            for _ in 0..<5 {
                let wrong = try await laptop.post("/app/account/password", ["current": "guess", "password": "a new long password", "confirm": "a new long password"])
                #expect(wrong.status == .unprocessableContent)
            }
            let sixth = try await laptop.post("/app/account/password", ["current": Self.password, "password": "a new long password", "confirm": "a new long password"])
            #expect(sixth.status == .tooManyRequests && sixth.headers[.retryAfter] != nil, "\(sixth.status)")
            fixture.setClock(fixture.clockNow.addingTimeInterval(61))
            let later = try await laptop.post("/app/account/password", ["current": Self.password, "password": "a new long password", "confirm": "a new long password"])
            #expect(later.status == .seeOther, "a minute on, the right one changes it")

            // Ten wrong passwords for one login, each from its own address: the eleventh waits, from anywhere.
            for address in 1...10 {
                var guesser = Browser(client: client)
                guesser.extraHeaders = [HTTPField.Name("X-Forwarded-For")!: "203.0.113.\(address)"]
                _ = try await guesser.get("/app/signin")
                let answer = try await guesser.post("/app/signin", ["login": "ben", "password": "guess \(address)"])
                #expect(answer.status == .unauthorized, "\(address): \(answer.status)")
            }
            var real = Browser(client: client)
            real.extraHeaders = [HTTPField.Name("X-Forwarded-For")!: "198.51.100.1"]
            _ = try await real.get("/app/signin")
            let waits = try await real.post("/app/signin", ["login": "ben", "password": "a new long password"])
            #expect(waits.status == .tooManyRequests, "the login waits out its minute: \(waits.status)")
            fixture.setClock(fixture.clockNow.addingTimeInterval(61))
            let signs = try await real.post("/app/signin", ["login": "ben", "password": "a new long password"])
            #expect(signs.status == .seeOther, "then the real person signs in")
        }
    }
}
