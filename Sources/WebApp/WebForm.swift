import Foundation
import Hummingbird
import MultipartKit

/// A form the app's pages post: its fields, and the CSRF token the page put
/// in it (shown again when the form is rendered with an error).
/// `CSRFCheckMiddleware` has checked that token before any handler runs.
package protocol PostedForm: Decodable, Sendable {
    var csrf: String? { get }
}

/// The one way `/app` handlers read request bodies. `application/x-www-form-urlencoded`
/// goes through Hummingbird's decoder; `multipart/form-data` (forms with a file)
/// through MultipartKit's. Anything malformed is a 400 that says what was wrong.
package enum WebForm {
    package static func decode<Form: Decodable>(_ type: Form.Type, _ request: Request, limit: Int) async throws -> Form {
        var request = request
        let body: ByteBuffer
        do { body = try await request.collectBody(upTo: limit) } catch {
            throw HTTPError(.contentTooLarge, message: "the form is over the limit of \(limit >> 10) KB")
        }
        return try decode(type, body: body, contentType: request.headers[.contentType] ?? "")
    }

    package static func decode<Form: Decodable>(_ type: Form.Type, body: ByteBuffer, contentType: String) throws -> Form {
        let type = contentType.lowercased()
        let form: Form
        do {
            if type.hasPrefix("multipart/form-data") {
                guard let boundary = boundary(contentType) else {
                    throw HTTPError(.badRequest, message: "a multipart form without a boundary")
                }
                form = try FormDataDecoder().decode(Form.self, from: body, boundary: boundary)
            } else if type.hasPrefix("application/x-www-form-urlencoded") {
                form = try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
            } else {
                throw HTTPError(.unsupportedMediaType, message: "send the form as application/x-www-form-urlencoded or multipart/form-data")
            }
        } catch let error as HTTPError { throw error } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: "the form is incomplete: \(error.readable)")
        } catch {
            throw HTTPError(.badRequest, message: "the form could not be read")
        }
        return form
    }

    /// `multipart/form-data; boundary=----x` → `----x` (quotes removed).
    package static func boundary(_ contentType: String) -> String? {
        for part in contentType.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            guard pair.lowercased().hasPrefix("boundary=") else { continue }
            let value = pair.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty || value.count > 70 ? nil : value
        }
        return nil
    }
}

/// An unchecked checkbox sends nothing; a checked one sends "on" (or its value).
extension Optional where Wrapped == String {
    package var isChecked: Bool { self.map { !$0.isEmpty && $0 != "off" && $0 != "false" } ?? false }
    /// nil for a field left empty.
    package var nonEmpty: String? { self.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0.trimmingCharacters(in: .whitespaces) } }
}
