import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Services
import Testing

/// CalDAV requests as the tests of every target that speaks it send them:
/// the methods, an app's Basic login, an event, and Anna's new calendar.
package enum CalDAVRequests {
    package static let propfind = HTTPRequest.Method("PROPFIND")!, report = HTTPRequest.Method("REPORT")!
    package static let mkcalendar = HTTPRequest.Method("MKCALENDAR")!, proppatch = HTTPRequest.Method("PROPPATCH")!

    package static func basic(_ login: String, _ password: String, depth: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.authorization: "Basic " + Data("\(login):\(password)".utf8).base64EncodedString()]
        if let depth { fields[HTTPField.Name("Depth")!] = depth }
        return fields
    }

    package static func send(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ headers: HTTPFields,
                     _ body: String? = nil) async throws -> (status: Int, body: String, headers: HTTPFields) {
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (Int(response.status.code), String(buffer: response.body), response.headers)
    }

    package static func event(_ uid: String, _ summary: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20270314T100000Z\r\nSUMMARY:\(summary)\r\nX-CLIENT-ONLY:kept as it came\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    /// Anna with an app password for her phone, and an empty calendar of hers made over CalDAV
    /// at `/dav/calendars/anna/NAME/`; the app's headers.
    package static func annasNewCalendar(_ client: some TestClientProtocol, _ service: CountdownService, named name: String) async throws -> HTTPFields {
        try await service.addPerson(login: "anna", password: "a long enough password", cost: 4)
        let anna = basic("anna", try await service.createAppPassword(login: "anna", label: "phone").secret)
        try #require(try await send(client, mkcalendar, "/dav/calendars/anna/\(name)/", anna).status == 201)
        return anna
    }

    /// The sync token a multistatus ends with.
    package static func syncToken(_ body: String) -> String? {
        guard let start = body.range(of: "<d:sync-token>"), let end = body.range(of: "</d:sync-token>", range: start.upperBound..<body.endIndex) else { return nil }
        return String(body[start.upperBound..<end.lowerBound])
    }

    package static let sync = #"<d:sync-collection xmlns:d="DAV:"><d:sync-token>TOKEN</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>"#
}
