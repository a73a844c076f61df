import Foundation
@_spi(Internals) import Fovea
import FoveaCore

/// A directory of labelled images, one subfolder per class (Create ML's
/// "labeled directories"): `Flowers/Agapanthus/1.jpg`, `Flowers/Rose/2.png`, ...
///
/// JPEG, PNG and PPM/PGM files count as images (by extension, in any letter
/// case); other files are ignored and counted in ``ignoredFiles``, and so are
/// files directly in the root and hidden entries. Class names are the folder
/// names, sorted; a folder name that is not UTF-8, has control characters or
/// leading or trailing spaces is an error that names it.
public struct LabeledImageDirectory: Sendable {
    /// One image and its class.
    public struct Example: Sendable, Equatable {
        /// The image file.
        public let path: String
        /// An index into ``LabeledImageDirectory/classes``.
        public let label: Int
    }

    /// File extensions read as images (compared in lower case).
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "heic", "heif", "avif", "webp", "ppm", "pgm"]

    /// The folder whose subfolders are the classes.
    public let root: String
    /// Class names, sorted.
    public let classes: [String]
    /// Every image, class by class, sorted by path within a class.
    public let examples: [Example]
    /// Files that are not images (by extension), loose files in the root and hidden entries.
    public let ignoredFiles: [String]

    /// Scans `root`.
    ///
    /// - Parameter minimumImagesPerClass: a class with fewer images is an error.
    /// - Throws: `.io` for a missing root; `.invalidArgument` for fewer than two
    ///   classes, an empty class folder, a class with too few images (naming each),
    ///   or a bad class name.
    public init(contentsOf root: String, minimumImagesPerClass: Int = 2) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw FoveaError(.io, "no such folder; expected a folder with one subfolder of images per class", location: .init(file: root))
        }
        guard isDirectory.boolValue else {
            throw FoveaError(.io, "is not a directory; expected one subfolder of images per class", location: .init(file: root))
        }
        var ignored: [String] = []
        var classFolders: [String] = []
        for entry in try Self.rawEntries(of: root) {
            guard let name = String(validating: entry.prefix { $0 != 0 }, as: UTF8.self) else {
                let bytes = entry.prefix { $0 != 0 }.map { byte in
                    (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(UInt8(byte))) : String(format: "\\x%02x", UInt8(bitPattern: byte))
                }.joined()
                throw FoveaError(.invalidArgument, "the class folder name \"\(bytes)\" is not valid UTF-8; rename it", location: .init(file: root))
            }
            let path = (root as NSString).appendingPathComponent(name)
            if name.hasPrefix(".") { ignored.append(path); continue }
            var entryIsDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &entryIsDirectory)
            guard entryIsDirectory.boolValue else { ignored.append(path); continue }
            try Self.checkClassName(name, root: root)
            classFolders.append(name)
        }
        classFolders.sort()
        guard classFolders.count >= 2 else {
            throw FoveaError(.invalidArgument, "found \(classFolders.count) class folder(s)\(classFolders.isEmpty ? "" : " (\(classFolders.joined(separator: ", ")))"); a classifier needs at least two, one subfolder of images per class", location: .init(file: root))
        }
        var examples: [Example] = []
        var empty: [String] = []
        var tooFew: [String] = []
        for (label, name) in classFolders.enumerated() {
            let folder = (root as NSString).appendingPathComponent(name)
            let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
            var count = 0
            for file in files {
                let path = (folder as NSString).appendingPathComponent(file)
                var fileIsDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: path, isDirectory: &fileIsDirectory)
                if fileIsDirectory.boolValue { continue }
                let hidden = file.split(separator: "/").contains { $0.hasPrefix(".") }
                if hidden || !Self.imageExtensions.contains((file as NSString).pathExtension.lowercased()) {
                    ignored.append(path)
                    continue
                }
                examples.append(Example(path: path, label: label))
                count += 1
            }
            if count == 0 { empty.append(name) } else if count < minimumImagesPerClass { tooFew.append("\(name) (\(count))") }
        }
        if !empty.isEmpty {
            throw FoveaError(.invalidArgument, "class folder(s) with no images (.jpg, .png, .heic, .avif, .webp, .ppm): \(empty.joined(separator: ", "))", location: .init(file: root))
        }
        if !tooFew.isEmpty {
            throw FoveaError(.invalidArgument, "class(es) with fewer than \(minimumImagesPerClass) images: \(tooFew.joined(separator: ", "))", location: .init(file: root))
        }
        self.root = root
        self.classes = classFolders
        self.examples = examples
        self.ignoredFiles = ignored
    }

    /// Images per class, in class order.
    public var countsPerClass: [Int] {
        var counts = [Int](repeating: 0, count: classes.count)
        for example in examples { counts[example.label] += 1 }
        return counts
    }

    /// The names in `root` as raw bytes (readdir), so that a name that is not
    /// UTF-8 can be reported instead of being mangled or skipped.
    private static func rawEntries(of root: String) throws -> [[CChar]] {
        guard let directory = opendir(root) else {
            throw FoveaError(.io, "cannot read the directory (\(String(cString: strerror(errno))))", location: .init(file: root))
        }
        defer { closedir(directory) }
        var names: [[CChar]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.bindMemory(to: CChar.self).prefix { $0 != 0 }) + [0]
            }
            if name == [46, 0] || name == [46, 46, 0] { continue }  // "." and ".."
            names.append(name)
        }
        return names
    }

    private static func checkClassName(_ name: String, root: String) throws {
        let odd = name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{FFFD}" }
        guard !odd, name.trimmingCharacters(in: .whitespaces) == name else {
            throw FoveaError(.invalidArgument, "the class folder name '\(SafeText.escaped(name))' has control characters or leading or trailing spaces; rename it", location: .init(file: root))
        }
    }
}
