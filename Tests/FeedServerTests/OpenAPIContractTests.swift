import CountdownStore
@testable import FeedServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing
import TminusServer

/// `/api/openapi.json` is the admin API's contract: it is served without the
/// token, names exactly the routes the router has under `/api` (method for
/// method), and each operation's own example, sent as a client generated from
/// the document would send it, gets an answer the document lists.
struct OpenAPIContractTests {
    /// One operation of the document.
    struct Operation: CustomStringConvertible {
        var method: String
        var path: String
        var id: String
        var responses: Set<Int>
        var example: (contentType: String, body: [UInt8])?

        var description: String { "\(method) \(path) (\(id))" }
    }

    static func document() throws -> [String: Any] {
        let representation = try #require(OpenAPIDocument.representation, "the document is in the FeedServer resources")
        return try #require(try JSONSerialization.jsonObject(with: Data(representation.bytes)) as? [String: Any])
    }

    static func operations(_ document: [String: Any]) throws -> [Operation] {
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        return try paths.flatMap { path, methods in
            try methods.map { method, value in
                let operation = try #require(value as? [String: Any])
                let responses = try #require(operation["responses"] as? [String: Any]).keys.compactMap { Int($0) }
                var example: (String, [UInt8])?
                if let content = (operation["requestBody"] as? [String: Any])?["content"] as? [String: [String: Any]] {
                    if let (type, media) = content.first(where: { $0.value["example"] != nil }) {
                        let value = media["example"]
                        example = (type, value is String ? Array((value as? String ?? "").utf8)
                                       : Array(try JSONSerialization.data(withJSONObject: value ?? [:], options: [.fragmentsAllowed])))
                    } else if let image = content.keys.first(where: { $0.hasPrefix("image/") }) {
                        example = (image, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 42, count: 64))
                    }
                }
                return Operation(method: method.uppercased(), path: path, id: operation["operationId"] as? String ?? "",
                                 responses: Set(responses), example: example)
            }
        }
    }

    @Test func theDocumentIsServedWithoutTheToken() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer { client in
            let response = try await client.execute(uri: "/api/openapi.json", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(response.headers[.eTag] != nil, "served with validators, like any asset")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            #expect(try await client.execute(uri: "/api/feeds", method: .get).status == .unauthorized, "everything else still needs it")
        }
    }

    @Test func theDocumentNamesExactlyTheRoutes() async throws {
        let fixture = try ServerFixture()
        try await fixture.withServer(adjust: { _ in }) { _, parts in
            let routed = Set(buildRouter(parts.dependencies).routes.filter { $0.method != .head && $0.path.description.hasPrefix("/api/") }
                .map { "\($0.method.rawValue) \($0.path.description)" })
            let documented = Set(try Self.operations(try Self.document()).map { "\($0.method) \($0.path)" })
            #expect(routed.count > 20)
            #expect(routed.subtracting(documented).isEmpty, "routes the document lacks: \(routed.subtracting(documented).sorted())")
            #expect(documented.subtracting(routed).isEmpty, "documented operations no route answers: \(documented.subtracting(routed).sorted())")
        }
    }

    /// Operations whose example cannot succeed on a server without the internet
    /// (they fetch the example's address) or names nothing that exists here.
    static let mayRefuse: Set<String> = ["subscribe", "changeSourceRules", "unsubscribe"]

    @Test func everyExampleGetsADocumentedAnswer() async throws {
        let fixture = try ServerFixture()
        try fixture.feed("exams", calendar: ServerFixture.family)
        let operations = try Self.operations(try Self.document()).sorted { Self.order($0) < Self.order($1) }
        #expect(operations.count > 20)
        try await fixture.withServer(adjust: { _ in }) { client, parts in
            let countdown = try #require(try await parts.store.countdowns(inFeed: "exams").first?.savedID())
            let (_, token) = try await parts.dependencies.parts.service.createFeedToken(feed: "exams", label: "contract", visibility: .full)
            // People and a space for the spaces' operations (their {slug} is "exams" too, their {user} "ben").
            let service = parts.dependencies.parts.service
            for login in ["anna", "ben"] { try await service.addPerson(login: login, password: "a long enough password", cost: 4) }
            try await service.createSpace(slug: "exams", name: "Exams", owner: "anna")
            // Focus sessions are a person's: those operations run with anna's token.
            let (annasToken, _) = try await service.createPersonToken(login: "anna", label: "contract", readOnly: false)
            _ = try await service.createInvitation(space: "exams", role: .viewer)
            let invitation = try #require(try await service.openInvitations(space: "exams").first?.id)
            for operation in operations {
                let uri = operation.path.replacingOccurrences(of: "{slug}", with: "exams")
                    .replacingOccurrences(of: "countdowns/{id}", with: "countdowns/\(countdown)")
                    .replacingOccurrences(of: "tokens/{id}", with: "tokens/\(token.id)")
                    .replacingOccurrences(of: "invitations/{id}", with: "invitations/\(invitation)")
                    .replacingOccurrences(of: "{user}", with: "ben")
                    + (operation.id == "unsubscribe" ? "?url=https%3A%2F%2Fcalendar.example.org%2Fschool.ics" : "")
                var headers = fixture.admin
                if operation.path.hasPrefix("/api/focus") { headers[.authorization] = "Bearer \(annasToken)" }
                if let type = operation.example?.contentType { headers[.contentType] = type }
                let response = try await client.execute(uri: uri, method: HTTPRequest.Method(operation.method) ?? .get, headers: headers,
                                                        body: operation.example.map { ByteBuffer(bytes: $0.body) })
                #expect(operation.responses.contains(Int(response.status.code)),
                        "\(operation) answered \(response.status.code), which it does not document: \(String(buffer: response.body).prefix(300))")
                if !Self.mayRefuse.contains(operation.id) {
                    #expect((200..<300).contains(Int(response.status.code)), "\(operation): \(String(buffer: response.body).prefix(300))")
                }
            }
        }
    }

    /// Reads before writes, deletions last (what a resource holds before the
    /// resource), and the feed's own deletion after everything else.
    static func order(_ operation: Operation) -> (Int, Int, String) {
        switch (operation.method, operation.path) {
        case ("DELETE", "/api/feeds/{slug}"): (3, 0, operation.path)
        case ("DELETE", _): (2, -operation.path.count, operation.path)
        case ("GET", _): (0, 0, operation.path)
        default: (1, 0, operation.path)
        }
    }
}
