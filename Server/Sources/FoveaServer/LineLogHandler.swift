import Foundation
import Logging

/// Writes each log event as one line on standard error: `key=value` pairs
/// (`time=… level=info label=fovea-serve msg="…" model=squeezenet`) or one JSON
/// object per line, for log collectors that parse either.
public struct LineLogHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable {
        case keyValue = "key-value"
        case json
    }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let format: Format

    public init(label: String, format: Format, level: Logger.Level = .info) {
        self.label = label
        self.format = format
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [(String, String)] = [
            ("time", Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())),
            ("level", event.level.rawValue), ("label", label), ("msg", "\(event.message)"),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() { fields.append((key, "\(merged[key]!)")) }
        let line = format == .json ? Self.json(fields) : Self.keyValue(fields)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// `key=value` pairs, values quoted when they hold anything but letters, digits and `-_.:/+`.
    public static func keyValue(_ fields: [(String, String)]) -> String {
        fields.map { key, value in
            let plain = !value.isEmpty && value.allSatisfy { $0.isLetter || $0.isNumber || "-_.:/+".contains($0) }
                && !value.unicodeScalars.contains(where: isUnsafe)
            return key + "=" + (plain ? value : quoted(value))
        }.joined(separator: " ")
    }

    /// One JSON object of string values.
    public static func json(_ fields: [(String, String)]) -> String {
        "{" + fields.map { quoted($0) + ":" + quoted($1) }.joined(separator: ",") + "}"
    }

    /// A JSON string literal (also a valid quoted logfmt value) in which nothing
    /// can act on the terminal or viewer that shows the log: every C0 and C1
    /// control (U+009B alone is a CSI), DEL, the line and paragraph separators
    /// and the bidirectional overrides and isolates are written as `\uXXXX`.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isUnsafe(scalar): result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Controls (C0, DEL, C1), U+2028/U+2029, and the bidi embeddings,
    /// overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
