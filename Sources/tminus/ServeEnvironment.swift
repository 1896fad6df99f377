import Foundation

/// Every `tminus serve` option may also come from a `TMINUS_…` variable (the
/// option's name in capitals, dashes as underscores: `--cache-mb` is
/// `TMINUS_CACHE_MB`), as twelve-factor deployments and the systemd unit's
/// environment file expect. A flag on the command line wins over the
/// variable. The variables are turned into options before the command line is
/// parsed, so they are checked exactly as the options are.
enum ServeEnvironment {
    /// The options that a variable may set, and whether each is a flag.
    /// `--db` reads `TMINUS_DB` on every command (`StoreOptions`).
    static let options: [(name: String, isFlag: Bool)] = [
        ("host", false), ("port", false), ("feeds", false), ("admin-token-file", false), ("secrets-key-file", false), ("base-url", false),
        ("log-level", false), ("log-format", false), ("cache-mb", false), ("compiled-mb", false), ("export-files-mb", false), ("export-files-dir", false), ("gzip", true), ("allow-private-sources", true),
        ("trust-forwarded-for", true), ("max-connections", false), ("idle-timeout", false), ("request-timeout", false),
        ("min-body-rate", false), ("open-signup", true), ("trusted-proxy", false), ("user-header", false),
        ("proxy-creates-accounts", true),
    ]

    static func variable(_ option: String) -> String {
        "TMINUS_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// An option's help, naming its variable.
    static func help(_ text: String, _ option: String) -> String {
        "\(text) (env: \(variable(option)))"
    }

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// `arguments` with an option added for every variable set whose option
    /// the command line does not give; unchanged unless the command is `serve`.
    static func merged(_ arguments: [String], environment: [String: String]) throws(Invalid) -> [String] {
        guard arguments.first == "serve", !arguments.contains("--help"), !arguments.contains("-h") else { return arguments }
        var merged = arguments
        for (name, isFlag) in options {
            guard let value = environment[variable(name)] else { continue }
            let given = arguments.contains { $0 == "--\(name)" || $0.hasPrefix("--\(name)=") || $0 == "--no-\(name)" }
            if given { continue }
            if isFlag {
                switch value.lowercased() {
                case "1", "true", "yes", "on": merged.append("--\(name)")
                case "", "0", "false", "no", "off": break
                default: throw Invalid(description: "\(variable(name))='\(value.prefix(40))' is not true or false (1/0, yes/no, on/off)")
                }
            } else {
                merged.append("--\(name)=\(value)")
            }
        }
        return merged
    }
}
