import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Files that hold secrets or everyone's countdowns: created owner-only from
/// the first byte, and checked for modes that let others read them.
public enum PrivateFile {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates `path` with mode 0600 and writes `contents`. `O_EXCL` refuses an
    /// existing file or a planted symlink, and the mode is set by `open` itself,
    /// so there is no moment at which the file is readable by others (writing
    /// it with the umask's mode and then chmodding it left such a moment).
    public static func create(at path: String, contents: Data) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try contents.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
                offset += written
            }
        }
    }

    /// Creates an empty owner-only file when there is none, so SQLite, which
    /// gives its WAL and shared-memory files the database file's mode, opens
    /// a 0600 database rather than a 0644 one.
    public static func prepareDatabase(at path: String) throws {
        guard path != ":memory:", !FileManager.default.fileExists(atPath: path) else { return }
        do { try create(at: path, contents: Data()) } catch where FileManager.default.fileExists(atPath: path) {
            return   // another process created it first
        }
    }

    /// True when the group or others may read `path`.
    public static func isReadableByOthers(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & 0o044 != 0
    }

    /// The mode as `0644`, for messages.
    public static func mode(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "?" }
        return "0" + String(info.st_mode & 0o777, radix: 8)
    }
}
