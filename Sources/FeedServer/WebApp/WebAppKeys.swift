import CountdownStore
import Crypto
import Foundation

/// The web app's server-side key (HMAC for CSRF tokens): made once, kept in
/// the store's settings, so restarts and replicas on one store agree.
enum WebAppKeys {
    static func csrfKey(_ store: any CountdownStore) async throws -> SymmetricKey {
        if let stored = try await store.setting(CSRFToken.settingKey), let data = Data(base64Encoded: stored), data.count == 32 {
            return SymmetricKey(data: data)
        }
        let key = SymmetricKey(size: .bits256)
        try await store.setSetting(CSRFToken.settingKey, key.withUnsafeBytes { Data($0) }.base64EncodedString())
        return key
    }
}
