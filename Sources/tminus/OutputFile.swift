import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a command's `-o` output goes, written so that it never replaces what
/// it should not. An atomic write (a temporary file renamed over the target)
/// keeps a regular file whole if the command dies midway; renamed over
/// `/dev/null` by root, or over a FIFO, it would replace them with a regular
/// file, and over a symlink it would replace the link. So:
/// - `-` is standard output;
/// - a symlink is followed to the file it names, and the link stays;
/// - a character device, FIFO or socket is written to directly;
/// - a regular file, or a path that does not exist yet, is written atomically,
///   keeping an existing file's permissions;
/// - a folder is refused.
enum OutputFile {
    /// The `-o` help every command that writes a file shows.
    static let help = "Write here instead of standard output ('-' is standard output). A file is replaced whole or not at all; "
        + "a symlink is written through, and a device or FIFO is written to, never replaced."

    static func write(_ bytes: Data, to path: String) throws(CLIError) {
        if path == "-" {
            FileHandle.standardOutput.write(bytes)
            return
        }
        let target = try resolvingLinks(path)
        var status = stat()
        guard lstat(target, &status) == 0 else {
            guard errno == ENOENT else { throw failure(path, "cannot be examined") }
            return try writeAtomically(bytes, to: target, mode: 0o666 & ~currentUmask(), shownAs: path)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: try writeAtomically(bytes, to: target, mode: status.st_mode & 0o7777, shownAs: path)
        case S_IFDIR: throw CLIError("\(path): is a folder; name a file to write", status: .ioError)
        default: try writeDirectly(bytes, to: target, shownAs: path)
        }
    }

    /// The path with every symlink followed (relative links from their own
    /// folder). A link to a file that does not exist yet names the file to create.
    static func resolvingLinks(_ path: String) throws(CLIError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { throw failure(path, "is a link that cannot be read") }
            let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = (current as NSString).deletingLastPathComponent
            current = destination.hasPrefix("/") || folder.isEmpty ? destination : folder + "/" + destination
        }
        throw CLIError("\(path): too many levels of symbolic links", status: .ioError)
    }

    /// A temporary file beside the target, synced, then renamed over it.
    private static func writeAtomically(_ bytes: Data, to target: String, mode: mode_t, shownAs path: String) throws(CLIError) {
        let folder = (target as NSString).deletingLastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/.tminus-output-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(path, "cannot create a file in \(folder.isEmpty ? "." : folder)") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(CLIError) {
            try writeAll(bytes, to: descriptor, shownAs: path)
            guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else { throw failure(path, "cannot be written") }
            guard close(descriptor) == 0 else { throw failure(path, "cannot be written") }
            guard rename(temporary, target) == 0 else { throw failure(path, "cannot be replaced") }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
    }

    /// Devices and pipes: opened and written as they are, never replaced.
    private static func writeDirectly(_ bytes: Data, to target: String, shownAs path: String) throws(CLIError) {
        let descriptor = open(target, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "cannot be opened for writing") }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, shownAs: path)
    }

    private static func writeAll(_ bytes: Data, to descriptor: Int32, shownAs path: String) throws(CLIError) {
        var failed = false
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = true
                    return
                }
                offset += written
            }
        }
        if failed { throw failure(path, "cannot be written") }
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    private static func failure(_ path: String, _ what: String) -> CLIError {
        CLIError("\(path) \(what): \(String(cString: strerror(errno)))", status: .ioError)
    }
}
