import Foundation

/// Class names in class-index order, such as the 1000 ImageNet labels.
public struct ClassLabels: Sendable, Equatable {
    public var names: [String]

    public init(_ names: [String]) {
        self.names = names
    }

    /// Reads a labels file: one label per line, line i naming class i.
    /// A trailing newline is allowed; blank lines inside the file are kept as empty labels.
    public init(contentsOf path: String) throws {
        let data = try FileContents.read(path, expected: "a labels file (one label per line)")
        guard let text = String(data: data, encoding: .utf8) else {
            throw FoveaError(.invalidArgument, "labels file is not UTF-8 text", location: .init(file: path))
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
        }
        if lines.last == "" { lines.removeLast() }
        guard !lines.isEmpty else {
            throw FoveaError(.invalidArgument, "labels file is empty", location: .init(file: path))
        }
        names = lines
    }

    public var count: Int { names.count }

    public func label(at index: Int) -> String? {
        names.indices.contains(index) ? names[index] : nil
    }
}
