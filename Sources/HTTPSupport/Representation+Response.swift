import Catalog
import Hummingbird

/// A representation is returned from routes as it is: the catalog decided what
/// it holds and whether the client has it; this only writes that down as
/// Hummingbird's response.
extension Representation: ResponseGenerator {
    package func response(from request: Request, context: some RequestContext) -> Response {
        switch answer(to: request.headers) {
        case .notModified(let headers): Response(status: .notModified, headers: headers)
        case .ok(let headers, let body): Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        case .streamed(let headers, let streamed): Response(status: .ok, headers: headers, body: streamed.responseBody)
        }
    }
}

extension StreamedBody {
    /// Sent with its Content-Length first; closed short of it when what is kept changed.
    package var responseBody: ResponseBody {
        ResponseBody(contentLength: length) { writer in
            var offset = 0
            while offset < length {
                guard let chunk = try await read(offset), chunk.readableBytes > 0 else { throw Changed() }
                offset += chunk.readableBytes
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        }
    }
}
