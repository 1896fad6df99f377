import CountdownStore
@testable import FeedServer
import Foundation
import HTTPSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Services
import Testing

/// Issue #37: behind an authenticating proxy (`--trusted-proxy`,
/// `--user-header`) the web app takes the person the proxy names, from the
/// proxy's address only. (`make interop` runs the same behind a real nginx
/// with `auth_basic`.)
struct ProxySignInTests {
    static let header = HTTPField.Name("Remote-User")!

    @Test func addressesAndRangesAreMatchedByTheirPrefix() throws {
        let proxy = ProxySignIn(trusted: [try AddressRange("10.0.0.0/8"), try AddressRange("192.168.1.7"), try AddressRange("fd00::/8")],
                                header: "Remote-User")
        #expect(proxy.trusts("10.200.3.4") && proxy.trusts("192.168.1.7") && proxy.trusts("fd12::1") && proxy.trusts("::ffff:10.0.0.9"))
        #expect(!proxy.trusts("11.0.0.1") && !proxy.trusts("192.168.1.8") && !proxy.trusts("fe80::1") && !proxy.trusts(nil) && !proxy.trusts("garbage"))
        #expect(throws: AddressRange.Invalid.self) { try AddressRange("10.0.0.0/33") }
        #expect(throws: AddressRange.Invalid.self) { try AddressRange("example.org") }
        #expect(try AddressRange("0.0.0.0/0").contains([1, 2, 3, 4]))
    }

    @Test func theProxysHeaderSignsInOnlyFromTheProxy() async throws {
        let fixture = try ServerFixture(transport: .live)
        let trusted = ProxySignIn(trusted: [try AddressRange("127.0.0.1")], header: "Remote-User")
        try await fixture.withServer(adjust: { $0.proxySignIn = trusted }) { client, parts in
            try await parts.store.service.addPerson(login: "ben", displayName: "Ben", password: "a long enough password", cost: 4)
            let page = try await client.execute(uri: "/app", method: .get, headers: [Self.header: "ben"])
            #expect(page.status == .ok && String(buffer: page.body).contains("Signed in as Ben"))
            #expect(!page.headers[values: .setCookie].contains { $0.hasPrefix("tminus_session=") }, "no session: the proxy signs every request in")
            let stranger = try await client.execute(uri: "/app", method: .get, headers: [Self.header: "mallory"])
            #expect(stranger.status == .forbidden && String(buffer: stranger.body).contains("nobody here has that login"))
            #expect(try await client.execute(uri: "/app", method: .get).status == .seeOther, "without the header: the sign-in page")
            try await parts.store.service.setDisabled(login: "ben", true)
            #expect(try await client.execute(uri: "/app", method: .get, headers: [Self.header: "ben"]).status == .forbidden, "disabled")
        }
        let elsewhere = ProxySignIn(trusted: [try AddressRange("10.0.0.0/8")], header: "Remote-User")
        try await ServerFixture(transport: .live).withServer(adjust: { $0.proxySignIn = elsewhere }) { client, parts in
            try await parts.store.service.addPerson(login: "ben", password: "a long enough password", cost: 4)
            let forged = try await client.execute(uri: "/app", method: .get, headers: [Self.header: "ben"])
            #expect(forged.status == .seeOther && forged.headers[.location] == "/app/signin", "the header from anyone but the proxy is ignored")
        }
    }

    @Test func withProxyCreatesAccountsANewLoginBecomesAPerson() async throws {
        let proxy = ProxySignIn(trusted: [try AddressRange("127.0.0.1")], header: "Remote-User", createsAccounts: true)
        try await ServerFixture(transport: .live).withServer(adjust: { $0.proxySignIn = proxy }) { client, parts in
            let page = try await client.execute(uri: "/app", method: .get, headers: [Self.header: "Carla"])
            #expect(page.status == .ok && String(buffer: page.body).contains("Signed in as carla"))
            let carla = try #require(try await parts.store.read { try await $0.personRows(.login("carla")).first })
            #expect(!carla.isAdmin && carla.passwordHash == nil, "no administrator, no password")
            #expect(try await client.execute(uri: "/app", method: .get, headers: [Self.header: "not a login!"]).status == .forbidden)
        }
    }
}
