@testable import Catalog
@testable import FeedServer
import Foundation
import HTTPTypes
import ServerTestSupport
import Testing

/// If-None-Match and If-Modified-Since as RFC 7232 reads them for GET and
/// HEAD; the single-tag way a 304 takes (`ConditionalRequest.isNotModified(_:etag:lastModified:)`)
/// must answer exactly as the general one does.
struct ConditionalRequestTests {
    static let etag = "\"b20fa7367e79243e\""
    static let modified = Date(timeIntervalSince1970: 1_790_000_000)

    static func headers(_ fields: [(HTTPField.Name, String)]) -> HTTPFields {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
        return headers
    }

    @Test(arguments: [
        ([(HTTPField.Name.ifNoneMatch, etag)], true),
        ([(.ifNoneMatch, "  \(etag) ")], true),
        ([(.ifNoneMatch, "W/\(etag)")], true),
        ([(.ifNoneMatch, "*")], true),
        ([(.ifNoneMatch, "\"other\"")], false),
        ([(.ifNoneMatch, "\"other\", \(etag)")], true),
        ([(.ifNoneMatch, "\"other\""), (.ifNoneMatch, etag)], true),
        ([(.ifNoneMatch, "\"other\""), (.ifNoneMatch, "\"more\"")], false),
        ([(.ifNoneMatch, "")], false),
        ([(.ifNoneMatch, "\"b20fa7367e79243\"")], false),
        ([(.ifNoneMatch, "\"other\""), (.ifModifiedSince, "Fri, 31 Dec 2100 00:00:00 GMT")], false),
        ([(.ifModifiedSince, HTTPDate.format(modified))], true),
        ([(.ifModifiedSince, HTTPDate.format(modified.addingTimeInterval(-1)))], false),
        ([(.ifModifiedSince, "yesterday")], false),
        ([], false),
    ] as [([(HTTPField.Name, String)], Bool)])
    func aSingleTagIsComparedAsTheGeneralWayDoes(fields: [(HTTPField.Name, String)], notModified: Bool) {
        let headers = Self.headers(fields)
        #expect(ConditionalRequest.isNotModified(headers, etag: Self.etag, lastModified: Self.modified) == notModified, "\(fields)")
        #expect(ConditionalRequest(headers).isNotModified(etag: Self.etag, lastModified: Self.modified) == notModified, "\(fields)")
    }

    /// A weak ETag of ours still matches its strong form from a client.
    @Test func aWeakETagMatchesItsStrongForm() {
        let headers = Self.headers([(.ifNoneMatch, Self.etag)])
        #expect(ConditionalRequest.isNotModified(headers, etag: "W/\(Self.etag)", lastModified: Self.modified))
    }
}
