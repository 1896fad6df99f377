import CountdownStore
import Foundation

/// Image bytes checked on the way in (size, type, a safe SVG) and addressed
/// by their SHA-256, ready to be kept with the countdown that shows them.
/// Checking happens before any transaction, so a refused image names its
/// field and nothing is written.
public struct ImageUpload: Sendable {
    public let bytes: Data
    public let mimeType: String
    public let digest: String

    /// Refuses what no store may keep (`StoredImage.check`).
    public init(_ bytes: Data, mimeType: String, limits: StoreLimits) throws {
        digest = try StoredImage.check(bytes, mimeType: mimeType, limits: limits)
        self.bytes = bytes
        self.mimeType = mimeType
    }

    /// Bytes whose type their first bytes say (`StoredImage.type`): how every front
    /// end takes an upload, since a browser's or client's stated type is not trusted.
    public init(sniffing bytes: Data, limits: StoreLimits) throws {
        guard let type = StoredImage.type(of: bytes) else { throw NotAnImage() }
        try self.init(bytes, mimeType: type, limits: limits)
    }

    /// Bytes that are none of the types an image may have.
    public struct NotAnImage: Error, CustomStringConvertible, Sendable {
        public var description: String { "not a png, jpeg, gif, webp or svg image" }
    }

    /// What a countdown's `presentation.image` holds once the bytes are kept.
    public var reference: String { StoredImage.scheme + digest }
}

extension StoreTransaction {
    /// Keeps the image, unless the same bytes are kept already, and returns its reference.
    func put(_ image: ImageUpload) async throws -> String {
        if try await self.image(digest: image.digest) == nil {
            _ = try await save(ImageRecord(sha256: image.digest, mimeType: image.mimeType, bytes: image.bytes, createdAt: now))
        }
        return image.reference
    }
}
