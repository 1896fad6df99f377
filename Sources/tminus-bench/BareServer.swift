import Foundation
import Hummingbird

/// The framework's limit for `make bench`: a bare Hummingbird router serving
/// fixed bytes from memory, with the same strong ETag and If-None-Match check
/// a cached tminus response does, and nothing else.
///
/// `tminus-bench bare-server PORT URLPATH=FILE …`
enum BareServer {
    struct Entry: Sendable {
        var bytes: ByteBuffer
        var etag: String
        var type: String
    }

    static func run(arguments: [String]) async throws {
        guard let port = arguments.first.flatMap(Int.init) else {
            FileHandle.standardError.write(Data("usage: tminus-bench bare-server PORT URLPATH=FILE …\n".utf8))
            exit(2)
        }
        let router = Router(options: .autoGenerateHeadEndpoints)
        for spec in arguments.dropFirst() {
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            let data = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
            let type = parts[0].hasSuffix(".json") ? "application/json; charset=utf-8"
                : parts[0].hasSuffix(".ics") ? "text/calendar; charset=utf-8" : "text/html; charset=utf-8"
            let entry = Entry(bytes: ByteBuffer(bytes: data), etag: "\"\(String(data.hashValue, radix: 16))\"", type: type)
            router.get(RouterPath(parts[0])) { request, _ -> Response in
                if request.headers[.ifNoneMatch] == entry.etag {
                    return Response(status: .notModified, headers: [.eTag: entry.etag])
                }
                return Response(status: .ok, headers: [.contentType: entry.type, .eTag: entry.etag], body: .init(byteBuffer: entry.bytes))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "bare"))
        try await app.runService()
    }
}
