/// A countdown mode as one word of text, `daily:60` or `milestones:100,50,30`:
/// how stores keep it. Reading is lenient (an unknown or damaged value reads as
/// the default), since a row is only ever written from a valid mode.
extension Feed.CountdownMode: RawRepresentable, Codable {
    public init(rawValue text: String) {
        let parts = text.split(separator: ":", maxSplits: 1)
        if parts.first == "milestones" {
            let days = parts.count > 1 ? parts[1].split(separator: ",").compactMap { Int($0) } : []
            self = .milestones(days.isEmpty ? Self.defaultMilestones : days)
        } else {
            self = .daily(days: parts.count > 1 ? Int(parts[1]) ?? 60 : 60)
        }
    }

    public var rawValue: String {
        switch self {
        case .daily(let days): "daily:\(days)"
        case .milestones(let days): "milestones:" + days.map(String.init).joined(separator: ",")
        }
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
