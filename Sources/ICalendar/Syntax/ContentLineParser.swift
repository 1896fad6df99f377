/// Splits one logical line into name, parameters and raw value (RFC 5545 §3.1).
/// Quoted parameter values may contain `:`, `;` and `,`.
public enum ContentLineParser {
    public enum Failure: Error, Equatable {
        case noColon
        case badName(String)
        case badParameter(String)
    }

    public static func parse(_ line: Substring) throws(Failure) -> (name: String, parameters: [Parameter], value: String) {
        var index = line.startIndex
        while index < line.endIndex, line[index] != ";", line[index] != ":" { index = line.index(after: index) }
        let name = line[line.startIndex..<index]
        guard index < line.endIndex else { throw .noColon }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter && $0.isASCII || $0.isASCIIDigit || $0 == "-" }) else {
            throw .badName(String(name.prefix(40)))
        }
        var parameters: [Parameter] = []
        while line[index] == ";" {
            index = line.index(after: index)
            let nameStart = index
            while index < line.endIndex, line[index] != "=", line[index] != ":", line[index] != ";" {
                index = line.index(after: index)
            }
            let parameterName = line[nameStart..<index]
            guard index < line.endIndex, line[index] == "=", !parameterName.isEmpty else {
                throw .badParameter(String(parameterName.prefix(40)))
            }
            var values: [String] = []
            repeat {
                index = line.index(after: index)   // skip "=" or ","
                if index < line.endIndex, line[index] == "\"" {
                    let valueStart = line.index(after: index)
                    guard let close = line[valueStart...].firstIndex(of: "\"") else {
                        throw .badParameter(String(parameterName) + " (unterminated quote)")
                    }
                    values.append(String(line[valueStart..<close]))
                    index = line.index(after: close)
                } else {
                    let valueStart = index
                    while index < line.endIndex, !",;:".contains(line[index]) { index = line.index(after: index) }
                    values.append(String(line[valueStart..<index]))
                }
                guard index < line.endIndex else { throw .noColon }
            } while line[index] == ","
            parameters.append(Parameter(name: String(parameterName), values: values))
        }
        guard line[index] == ":" else { throw .noColon }
        return (String(name).uppercased(), parameters, String(line[line.index(after: index)...]))
    }
}
