/// Text that came from a file (node, op, value, model and label names, paths),
/// made safe to print on a terminal.
///
/// A model file can name a node `"\u{1B}]0;pwned\u{07}"`: printed raw, that sets
/// the terminal's title, and other escape sequences recolour it, move the cursor
/// or hide text. Every name Fovea prints goes through ``escaped(_:)`` (errors do
/// in ``FoveaError/description``), which spells out every control character.
public enum SafeText {
    /// `text` with every control character spelled out: `\n`, `\r` and `\t` as
    /// such, other C0 and C1 controls and DEL as `\x1B`; bidirectional overrides and isolates (which reorder what the reader
    /// sees) as `\u{202E}`. Text without them is returned unchanged.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                if scalar.value < 0x100 {
                    result += "\\x" + (hex.count == 1 ? "0" : "") + hex
                } else {
                    result += "\\u{" + hex + "}"
                }
            }
        }
        return result
    }

    /// C0 controls, DEL, C1 controls, and the bidirectional formatting characters.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }
}

extension String {
    /// ``SafeText/escaped(_:)``: this text, safe to print on a terminal.
    public var terminalSafe: String { SafeText.escaped(self) }
}
