import Foundation

/// The image files under a folder, found by extension in any case (`.jpg`,
/// `.jpeg`, `.png`, `.heic`, `.heif`, `.avif`, `.webp`, `.ppm`, `.pgm`: the
/// `fovea classify DIR` filter), sorted by name within each folder, subfolders
/// after the files beside them when `recursive`. Hidden entries (a leading `.`)
/// are skipped. Folders are listed one at a time as the walk reaches them, so a
/// tree of millions of files is never held in memory at once.
struct ImageDirectory: Sequence, Sendable {
    /// File extensions taken as images, lowercased.
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "heic", "heif", "avif", "webp", "ppm", "pgm"]

    let root: String
    let recursive: Bool

    /// Checks that `root` is a readable folder.
    ///
    /// - Throws: `.io` naming the folder when it does not exist, is a file, or cannot be listed.
    init(_ root: String, recursive: Bool) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw FoveaError(.io, "no such folder; expected a folder of images", location: .init(file: root))
        }
        guard isDirectory.boolValue else {
            throw FoveaError(.io, "is not a folder; expected a folder of images", location: .init(file: root))
        }
        guard FileManager.default.isReadableFile(atPath: root) else {
            throw FoveaError(.io, "cannot read this folder", location: .init(file: root))
        }
        self.root = root
        self.recursive = recursive
    }

    func makeIterator() -> Iterator { Iterator(root: root, recursive: recursive) }

    /// A depth-first walk: a stack of folders, each listed when it is reached.
    struct Iterator: IteratorProtocol {
        let recursive: Bool
        /// Files of the folder being walked, still to hand out (reversed: next at the end).
        private var files: [String] = []
        /// Folders still to list, next at the end.
        private var folders: [String]

        init(root: String, recursive: Bool) {
            self.recursive = recursive
            folders = [root]
        }

        mutating func next() -> String? {
            while files.isEmpty {
                guard let folder = folders.popLast() else { return nil }
                // An unreadable subfolder is skipped, as `fovea classify DIR` does.
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                    .filter { !$0.hasPrefix(".") }.sorted()
                var subfolders: [String] = []
                for name in names {
                    let path = (folder as NSString).appendingPathComponent(name)
                    var isDirectory: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                    if isDirectory.boolValue {
                        if recursive { subfolders.append(path) }
                    } else if ImageDirectory.imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                        files.append(path)
                    }
                }
                files.reverse()
                folders += subfolders.reversed()
            }
            return files.popLast()
        }
    }
}
