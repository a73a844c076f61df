import Foundation

/// Feature vectors on disk, one small file each, so that training again with
/// other parameters does not run the network again.
///
/// A vector is keyed by the image's content hash, the base model's content
/// hash, the feature layer, the model's preprocessing and the augmentation:
/// `<directory>/<model+layer+preprocessing hash>/<augmentation>/<image hash>.f32`.
public struct FeatureCache: Sendable {
    /// The cache's root folder.
    public let directory: String

    /// `$FOVEA_CACHE_DIR`, else `$XDG_CACHE_HOME/fovea/features`, else `$HOME/.cache/fovea/features`.
    public static var defaultDirectory: String {
        defaultDirectory(environment: ProcessInfo.processInfo.environment)
    }

    /// ``defaultDirectory`` for the given environment variables. `$HOME` is
    /// read from the environment (Foundation's `NSHomeDirectory()` reads the
    /// password database on Linux and ignores it); only without `$HOME` is the
    /// password database's home folder used.
    public static func defaultDirectory(environment: [String: String]) -> String {
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let dir = variable("FOVEA_CACHE_DIR") { return dir }
        let base = variable("XDG_CACHE_HOME")
            ?? ((variable("HOME") ?? NSHomeDirectory()) as NSString).appendingPathComponent(".cache")
        return (base as NSString).appendingPathComponent("fovea/features")
    }

    /// A cache in `directory` (``defaultDirectory`` by default); the folder is created on first write.
    public init(directory: String = FeatureCache.defaultDirectory) {
        self.directory = directory
    }

    /// The file for one vector.
    func path(extractorKey: String, augmentation: String, imageHash: String) -> String {
        "\(directory)/\(extractorKey)/\(augmentation)/\(imageHash).f32"
    }

    /// The cached vector, or `nil` when there is none of the expected width.
    func load(extractorKey: String, augmentation: String, imageHash: String, width: Int) -> [Float]? {
        let file = path(extractorKey: extractorKey, augmentation: augmentation, imageHash: imageHash)
        guard let data = FileManager.default.contents(atPath: file), data.count == width * 4 else { return nil }
        return data.withUnsafeBytes { raw in
            (0..<width).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    /// Stores a vector (written to a temporary file and renamed, so a reader
    /// never sees half a file). A cache that cannot be written is not an error:
    /// the next run computes the vector again.
    func store(_ features: [Float], extractorKey: String, augmentation: String, imageHash: String) {
        let file = path(extractorKey: extractorKey, augmentation: augmentation, imageHash: imageHash)
        let folder = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var data = Data(capacity: features.count * 4)
        for value in features { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        let temporary = file + ".\(UUID().uuidString).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else { return }
        if rename(temporary, file) != 0 { try? FileManager.default.removeItem(atPath: temporary) }
    }
}
