import Catalog
import CountdownStore
@preconcurrency import Crypto
import Foundation
import Services

/// The server's own keys: made once, kept in the store's settings, so that
/// restarts and replicas on one store agree. They are independent of the
/// secrets key (which seals source logins and may live outside the store).
package enum ServerKeys {
    /// HMAC for the web app's CSRF tokens.
    package static func csrfKey(_ service: CountdownService) async throws -> SymmetricKey {
        try await key(.csrfKey, service)
    }

    /// HMAC for `?cursor=` texts (`FeedCursor`).
    package static func cursorKey(_ service: CountdownService) async throws -> SymmetricKey {
        try await key(.cursorKey, service)
    }

    /// A stored key that is not 32 bytes of base64 (edited by hand) is replaced.
    private static func key(_ setting: SettingKey, _ service: CountdownService) async throws -> SymmetricKey {
        let text = try await service.keptSetting(setting, usable: { Data(base64Encoded: $0)?.count == 32 }) {
            SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
        }
        return SymmetricKey(data: Data(base64Encoded: text) ?? Data())
    }
}
