import CountdownStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting

/// A cookie-keeping client that fills in each form's CSRF token, like a browser.
package struct Browser {
    package let client: any TestClientProtocol
    package var cookies: [String: String] = [:]
    /// The CSRF token of the last page that had a form.
    package var csrf: String?
    /// Sent with every request (a proxy's X-Forwarded-For).
    package var extraHeaders: HTTPFields = [:]

    package init(client: any TestClientProtocol, extraHeaders: HTTPFields = [:]) {
        self.client = client
        self.extraHeaders = extraHeaders
    }

    package struct Page {
        package var status: HTTPResponse.Status
        package var headers: HTTPFields
        package var text: String
    }

    package enum Part {
        case text(String)
        case file(String, Data)
    }

    package mutating func get(_ uri: String) async throws -> Page {
        try await send(uri, method: .get, headers: [:], body: nil)
    }

    package mutating func post(_ uri: String, _ fields: [String: String], csrf token: String?? = .none) async throws -> Page {
        var all = fields
        if let value = token ?? csrf { all["csrf"] = value }
        let body = all.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
        return try await send(uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: body))
    }

    package mutating func postMultipart(_ uri: String, _ fields: [(String, Part)]) async throws -> Page {
        let boundary = "----tminus-test-\(UUID().uuidString)"
        var body = Data()
        var all = fields
        if let csrf { all.append(("csrf", .text(csrf))) }
        for (name, part) in all {
            body.append(Data("--\(boundary)\r\n".utf8))
            switch part {
            case .text(let value):
                body.append(Data("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
            case .file(let filename, let data):
                body.append(Data("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8))
                body.append(data)
                body.append(Data("\r\n".utf8))
            }
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return try await send(uri, method: .post, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"], body: ByteBuffer(bytes: body))
    }

    package mutating func signIn(_ password: String, as login: String = "owner") async throws {
        _ = try await get("/app/signin")
        let page = try await post("/app/signin", ["login": login, "password": password])
        guard page.status == .seeOther else { throw HTTPError(.unauthorized, message: "sign-in failed: \(page.status)") }
        // Follow the redirect, as a browser does: forms made inside the session carry a token bound to it.
        _ = try await get(page.headers[.location] ?? "/app")
    }

    private mutating func send(_ uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> Page {
        var headers = headers
        headers.append(contentsOf: extraHeaders)
        if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
        for line in response.headers[values: .setCookie] {
            guard let pair = line.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
            if line.contains("Max-Age=0") || line.contains("Expires=Thu, 01 Jan 1970") || value.isEmpty { cookies[name] = nil } else { cookies[name] = value }
        }
        let text = String(buffer: response.body)
        if let match = text.firstMatch(of: /name="csrf" value="([^"]+)"/) { csrf = String(match.1) }
        return Page(status: response.status, headers: response.headers, text: text)
    }

    package static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}

/// The web app's administrator and the countdown form, as the tests of every
/// target that signs in use them.
package enum WebAppSignIn {
    package static let password = "correct horse battery"

    /// The administrator these tests sign in as: the `owner` an upgraded
    /// server has, with a password at bcrypt's lowest cost (these tests sign in
    /// many times in a debug build, beside timing-sensitive suites; the
    /// setup-link test keeps the real cost and checks it).
    package static func setPassword(_ store: any CountdownStore) async throws {
        try await store.service.addPerson(login: "owner", password: password, isAdmin: true, cost: 4)
    }

    /// A live server with an administrator, and a browser signed in as them.
    package static func withSignedInBrowser(_ fixture: ServerFixture,
                                    _ body: @escaping @Sendable (inout Browser, ServerFixture.Parts, any TestClientProtocol) async throws -> Void) async throws {
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            try await setPassword(parts.store)
            var browser = Browser(client: client)
            try await browser.signIn(password)
            try await body(&browser, parts, client)
        }
    }

    /// Every field of the countdown form, as the browser sends it, with `changes` applied.
    package static func countdownFields(_ changes: [String: String]) -> [(String, Browser.Part)] {
        var fields: [String: String] = ["kind": "event", "title": "Kyoto", "date": "2027-04-01", "time": "09:00", "timeZone": "Asia/Tokyo",
                                        "repeat": "none", "direction": "down", "unit": "dynamic", "useColors": "on", "color1": "#ff0000",
                                        "color2": "#00ff00", "textColor": "#ffffff", "categories": "Travel, Fun", "alarm": "-P1D", "notes": "",
                                        "location": "", "url": "", "imageURL": "", "priority": ""]
        for (key, value) in changes { fields[key] = value }
        return fields.sorted { $0.key < $1.key }.map { ($0.key, .text($0.value)) } + [("image", .file("", Data()))]
    }
}
