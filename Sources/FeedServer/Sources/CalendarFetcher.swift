import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Fetches a remote calendar with conditional GET, within a size limit.
struct CalendarFetcher: Sendable {
    enum Outcome: Sendable {
        case fetched(bytes: [UInt8], etag: String?, lastModified: String?)
        case notModified
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let client: HTTPClient
    let maxBytes: Int
    let timeout: TimeAmount

    func fetch(_ url: String, etag: String? = nil, lastModified: String? = nil) async throws -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "tminus (calendar countdowns)")
        request.headers.add(name: "Accept", value: "text/calendar, */*;q=0.5")
        if let etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        let response: HTTPClientResponse
        do { response = try await client.execute(request, timeout: timeout) } catch {
            throw Failure(description: "cannot fetch \(url): \(error)")
        }
        switch response.status.code {
        case 304:
            return .notModified
        case 200:
            var body: ByteBuffer
            do { body = try await response.body.collect(upTo: maxBytes) } catch {
                throw Failure(description: "\(url) is larger than \(maxBytes) bytes")
            }
            return .fetched(bytes: body.readBytes(length: body.readableBytes) ?? [],
                            etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
        default:
            throw Failure(description: "\(url) answered HTTP \(response.status.code)")
        }
    }
}
