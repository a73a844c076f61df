import Foundation
import FoveaCore

/// Class names in class-index order, such as the 1000 ImageNet labels.
///
/// Give a model its labels in its sidecar file (`"labels"`, see <doc:SidecarFile>)
/// or in code, with ``Model/describing(_:)``:
///
/// ```swift
/// let model = try Model(contentsOfFile: "squeezenet1.1.onnx").describing {
///     $0.classLabels = try .imageNet1k                              // built in
///     // or: try ClassLabels(contentsOfFile: "labels.txt"), ClassLabels(["cat", "dog"])
/// }
/// ```
public struct ClassLabels: Sendable, Equatable {
    /// The names; `names[i]` names class `i`.
    public var names: [String]

    /// Labels from names in class-index order.
    public init(_ names: [String]) {
        self.names = names
    }

    /// Reads a labels file: one label per line, line i naming class i.
    /// A trailing newline is allowed; blank lines inside the file are kept as empty labels.
    ///
    /// - Throws: `.io` if the file cannot be read, `.invalidArgument` if it is
    ///   not UTF-8 text or is empty; the message names the file.
    public init(contentsOfFile path: String) throws {
        let data = try FileContents.read(path, expected: "a labels file (one label per line)")
        try self.init(text: data, source: path)
    }

    /// Reads a labels file at a file URL; see the path form, ``init(contentsOfFile:)``.
    ///
    /// - Throws: `.invalidArgument` for a URL that is not a file URL, else as
    ///   the `String` form.
    public init(contentsOf url: URL) throws {
        guard url.isFileURL else {
            throw FoveaError(.invalidArgument, "only file URLs can be read, not '\(url.absoluteString)'")
        }
        try self.init(contentsOfFile: url.path)
    }

    /// Renamed ``init(contentsOfFile:)`` (Foundation's spelling for a path); unavailable so
    /// that the compiler names the new spelling. Removed at 1.0.
    @available(*, unavailable, renamed: "init(contentsOfFile:)")
    public init(contentsOf path: String) throws {
        try self.init(contentsOfFile: path)
    }

    /// Labels named by ``imageNet1kName`` (`imagenet`): ``imageNet1k``; any
    /// other text is a labels file path, resolved against `directory` when it
    /// is relative. Used by `fovea classify --labels` and the sidecar's `"labels"`;
    /// name a file that is called `imagenet` as `./imagenet`.
    ///
    /// - Throws: as ``imageNet1k`` or ``init(contentsOfFile:)``.
    public init(namedOrAt nameOrPath: String, relativeTo directory: String? = nil) throws {
        if nameOrPath == ClassLabels.imageNet1kName {
            self = try ClassLabels.imageNet1k
            return
        }
        if let directory, !nameOrPath.hasPrefix("/") {
            try self.init(contentsOfFile: (directory as NSString).appendingPathComponent(nameOrPath))
        } else {
            try self.init(contentsOfFile: nameOrPath)
        }
    }

    /// Parses labels text (one per line); `source` names it in errors.
    private init(text data: Data, source: String) throws {
        guard let text = String(data: data, encoding: .utf8) else {
            throw FoveaError(.invalidArgument, "labels file is not UTF-8 text", location: .init(file: source))
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
        }
        if lines.last == "" { lines.removeLast() }
        guard !lines.isEmpty else {
            throw FoveaError(.invalidArgument, "labels file is empty", location: .init(file: source))
        }
        names = lines
    }

    /// The number of labels.
    public var count: Int { names.count }

    /// The name of class `index`, or `nil` when there is no such class.
    public func label(at index: Int) -> String? {
        names.indices.contains(index) ? names[index] : nil
    }
}

extension ClassLabels {
    /// The name that stands for ``imageNet1k`` in `fovea classify --labels`
    /// and in a sidecar's `"labels"`: `imagenet`.
    public static let imageNet1kName = "imagenet"

    /// The 1000 ImageNet (ILSVRC 2012) class names in the standard class order
    /// (`0` is "tench, Tinca tinca", `387` "lesser panda, red panda, ...",
    /// `999` "toilet tissue, ..."), as most ImageNet classifiers (SqueezeNet,
    /// ResNet, MobileNet, ...) number their outputs. Models with a background
    /// class first (1001 outputs) need their own file.
    ///
    /// Shipped with the package as a resource (`imagenet1k-labels.txt`) and
    /// read once.
    ///
    /// - Throws: `.io` if Fovea's resource bundle (`Fovea_Fovea.resources` on
    ///   Linux, `Fovea_Fovea.bundle` on macOS) was not installed beside the executable.
    public static var imageNet1k: ClassLabels {
        get throws { try imageNet1kLoaded.get() }
    }

    /// The number of classes in ``imageNet1k``: 1000.
    public static let imageNet1kClassCount = 1000

    /// The file behind ``imageNet1k``, in the package's resources.
    static let imageNet1kResource = "imagenet1k-labels.txt"

    private static let imageNet1kLoaded: Result<ClassLabels, FoveaError> = {
        guard let url = PackageResources.fovea.url(forResource: imageNet1kResource) else {
            return .failure(FoveaError(.io, "the built-in ImageNet labels (\(imageNet1kResource)) are missing: \(PackageResources.fovea.missingBundleAdvice)"))
        }
        do {
            let labels = try ClassLabels(contentsOfFile: url.path)
            guard labels.count == imageNet1kClassCount else {
                return .failure(FoveaError(.invalidArgument, "the built-in ImageNet labels hold \(labels.count) names, not \(imageNet1kClassCount)", location: .init(file: url.path)))
            }
            return .success(labels)
        } catch let error as FoveaError {
            return .failure(error)
        } catch {
            return .failure(FoveaError(.io, "cannot read the built-in ImageNet labels: \(error.localizedDescription)"))
        }
    }()
}
