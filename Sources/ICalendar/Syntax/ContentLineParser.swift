/// Splits one logical line into name, parameters and raw value (RFC 5545 §3.1).
/// Quoted parameter values may contain `:`, `;` and `,`. Scans UTF-8 bytes: every
/// delimiter is ASCII, so multi-byte characters pass through untouched.
public enum ContentLineParser {
    public enum Failure: Error, Equatable {
        case noColon
        case badName(String)
        case badParameter(String)
    }

    public static func parse(_ line: Substring) throws(Failure) -> (name: String, parameters: [Parameter], value: String) {
        let bytes = line.utf8
        let end = bytes.endIndex
        var index = bytes.firstIndex { $0 == ASCII.semicolon || $0 == ASCII.colon } ?? end
        let name = line[bytes.startIndex..<index]
        guard index < end else { throw .noColon }
        guard !name.isEmpty, name.utf8.allSatisfy(ASCII.isNameByte) else {
            throw .badName(String(name.prefix(40)))
        }
        var parameters: [Parameter] = []
        while bytes[index] == ASCII.semicolon {
            index = bytes.index(after: index)
            let nameStart = index
            while index < end, bytes[index] != ASCII.equals, bytes[index] != ASCII.colon, bytes[index] != ASCII.semicolon {
                index = bytes.index(after: index)
            }
            let parameterName = line[nameStart..<index]
            guard index < end, bytes[index] == ASCII.equals, !parameterName.isEmpty else {
                throw .badParameter(String(parameterName.prefix(40)))
            }
            var values: [String] = []
            repeat {
                index = bytes.index(after: index)   // skip "=" or ","
                if index < end, bytes[index] == ASCII.quote {
                    let valueStart = bytes.index(after: index)
                    guard let close = bytes[valueStart...].firstIndex(of: ASCII.quote) else {
                        throw .badParameter(String(parameterName) + " (unterminated quote)")
                    }
                    values.append(String(line[valueStart..<close]))
                    index = bytes.index(after: close)
                } else {
                    let valueStart = index
                    while index < end, bytes[index] != ASCII.comma, bytes[index] != ASCII.semicolon, bytes[index] != ASCII.colon {
                        index = bytes.index(after: index)
                    }
                    values.append(String(line[valueStart..<index]))
                }
                guard index < end else { throw .noColon }
            } while bytes[index] == ASCII.comma
            parameters.append(Parameter(name: String(parameterName), values: values))
        }
        guard bytes[index] == ASCII.colon else { throw .noColon }
        return (ASCII.uppercased(name), parameters, String(line[bytes.index(after: index)...]))
    }
}
