/// FNV-1a 64-bit: a hash that is the same in every process and on every platform
/// (Swift's Hasher is seeded per run), for derived UIDs, card colours and
/// change detection. Not for secrets.
public enum StableHash {
    public static func value(_ text: String) -> UInt64 { value(text.utf8) }

    public static func value(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    public static func hex(_ text: String) -> String { String(value(text), radix: 16) }
}
