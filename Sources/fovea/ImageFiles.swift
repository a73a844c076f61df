import Foundation

/// Turns command-line paths into image files: directories are searched
/// (recursively, sorted) for image files by extension, in any case: `.jpg`,
/// `.jpeg`, `.png`, `.heic`, `.heif`, `.avif`, `.webp`, `.ppm` and `.pgm`.
enum ImageFiles {
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "heic", "heif", "avif", "webp", "ppm", "pgm"]

    /// The files, and one error message per directory that held no image.
    static func expand(_ paths: [String]) -> (files: [String], errors: [String]) {
        var files: [String] = []
        var errors: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                files.append(path)  // a missing file is reported when it is opened
                continue
            }
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
                .map { (path as NSString).appendingPathComponent($0) }
            if found.isEmpty { errors.append("\(path): no images (.jpg, .png, .heic, .avif, .webp, .ppm) in this directory") }
            files += found
        }
        return (files, errors)
    }

    /// `out.png` + `photos/cat.jpg` → `out-cat.png`.
    static func path(_ base: String, taggedWith image: String) -> String {
        let name = ((image as NSString).lastPathComponent as NSString).deletingPathExtension
        let stem = (base as NSString).deletingPathExtension
        let ext = (base as NSString).pathExtension
        return ext.isEmpty ? "\(stem)-\(name)" : "\(stem)-\(name).\(ext)"
    }
}

/// A one-line progress bar with the rate so far (images/s) on standard error,
/// drawn only when standard error is a terminal and there are several images
/// (or an unknown number: a path list read as it comes, shown as a count).
final class ProgressBar {
    private let total: Int?
    private let enabled: Bool
    private var drawn = false
    private var done = 0
    private var failed = 0
    private let started = DispatchTime.now().uptimeNanoseconds

    init(total: Int?) {
        self.total = total
        self.enabled = (total ?? 2) > 1 && isatty(FileHandle.standardError.fileDescriptor) != 0
    }

    func update(done: Int, failed: Int = 0) {
        self.done = done
        self.failed = failed
        guard enabled else { return }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let rate = done > 0 && seconds > 0 ? String(format: "  %.1f images/s", Double(done) / seconds) : ""
        let failures = failed > 0 ? ", \(failed) failed" : ""
        let text: String
        if let total {
            let width = 30
            let filled = total > 0 ? min(width, done * width / total) : width
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            text = "\r[\(bar)] \(done)/\(total)\(failures)\(rate)"
        } else {
            text = "\r\(done) done\(failures)\(rate)\u{1B}[K"
        }
        FileHandle.standardError.write(Data(text.utf8))
        drawn = true
    }

    /// Erases the bar so a result line can be printed.
    func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    func finish() {
        guard enabled else { return }
        update(done: total ?? done, failed: failed)
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
