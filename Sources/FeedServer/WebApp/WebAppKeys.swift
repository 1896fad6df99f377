import CountdownStore
import Crypto
import Foundation
import Services

/// The web app's server-side key (HMAC for CSRF tokens): made once, kept in
/// the store's settings, so restarts and replicas on one store agree.
enum WebAppKeys {
    static func csrfKey(_ service: CountdownService) async throws -> SymmetricKey {
        if let stored = try await service.store.setting(.csrfKey), let data = Data(base64Encoded: stored), data.count == 32 {
            return SymmetricKey(data: data)
        }
        let key = SymmetricKey(size: .bits256)
        try await service.setSetting(.csrfKey, to: key.withUnsafeBytes { Data($0) }.base64EncodedString())
        return key
    }
}
