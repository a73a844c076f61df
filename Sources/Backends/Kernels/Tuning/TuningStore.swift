import Foundation
import FoveaCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where tuning records live, and how they are read and written.
///
/// One text file per CPU (``CPUIdentity``) in ``defaultDirectory``. Writing takes an
/// exclusive `flock` on a lock file beside the record (`<record>.lock`, never deleted),
/// re-reads the record, merges the new entries into it (new ones win on the same key),
/// writes a temporary file in the same directory and renames it over the record, then
/// unlocks. So readers always see a whole file, and two processes (or threads) tuning at
/// once lose nothing: the second to take the lock merges into what the first wrote.
///
/// A corrupt record, another CPU's record, or lines naming an algorithm this build does not
/// have are ignored with a one-line warning (once per file and process).
public final class TuningStore: @unchecked Sendable {
    /// The directory of the records.
    public let directory: String
    /// The CPU whose record this store reads and writes.
    public let cpu: CPUIdentity
    private let warn: @Sendable (String) -> Void
    private let lock = NSLock()
    private var cached: TuningRecord?
    private var saved: [TuningEntry] = []

    /// A store of `cpu`'s record in `directory`; `warn` receives the one-line warnings
    /// (by default: standard error, prefixed `warning: `).
    public init(directory: String = TuningStore.defaultDirectory, cpu: CPUIdentity = .current,
                warn: @escaping @Sendable (String) -> Void = TuningStore.printWarning) {
        self.directory = directory
        self.cpu = cpu
        self.warn = warn
    }

    /// `$FOVEA_CACHE_DIR`, else `$XDG_CACHE_HOME/fovea/tuning`, else `$HOME/.cache/fovea/tuning`
    /// (the current directory's `.fovea-tuning` when none is set).
    public static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let dir = environment["FOVEA_CACHE_DIR"], !dir.isEmpty { return dir }
        if let dir = environment["XDG_CACHE_HOME"], !dir.isEmpty { return dir + "/fovea/tuning" }
        if let dir = environment["HOME"], !dir.isEmpty { return dir + "/.cache/fovea/tuning" }
        return ".fovea-tuning"
    }

    /// The store of this machine's record in ``defaultDirectory``, shared by every plan of the
    /// process (one per directory and ISA level, so `FOVEA_ISA` and `FOVEA_CACHE_DIR` are honoured).
    public static var current: TuningStore {
        let cpu = CPUIdentity.current, directory = defaultDirectory
        sharedLock.lock()
        defer { sharedLock.unlock() }
        let key = directory + "\n" + cpu.fileName
        if let store = shared[key] { return store }
        let store = TuningStore(directory: directory, cpu: cpu)
        shared[key] = store
        return store
    }
    nonisolated(unsafe) private static var shared: [String: TuningStore] = [:]
    private static let sharedLock = NSLock()

    /// Prints `warning: <text>` on standard error, escaped for the terminal.
    public static let printWarning: @Sendable (String) -> Void = { text in
        FileHandle.standardError.write(Data("warning: \(SafeText.escaped(text))\n".utf8))
    }

    /// The record's path.
    public var path: String { directory + "/" + cpu.fileName }

    /// The record as last read or written by this store (read from disk the first time).
    public var record: TuningRecord {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let loaded = read(warnings: true)
        cached = loaded
        return loaded
    }

    /// Reads the record from disk; problems become warnings when `warnings`, and an empty record.
    private func read(warnings: Bool) -> TuningRecord {
        let empty = TuningRecord(cpu: cpu)
        guard FileManager.default.fileExists(atPath: path) else { return empty }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            if warnings { warn("ignoring the tuning record \(path): not readable UTF-8 text") }
            return empty
        }
        switch TuningRecord.parse(text, expecting: cpu) {
        case .failure(.corrupt(let reason)):
            if warnings { warn("ignoring the corrupt tuning record \(path): \(reason)") }
            return empty
        case .failure(.foreign(let other)):
            if warnings { warn("ignoring the tuning record \(path): it is for another CPU, \(other), not \(cpu)") }
            return empty
        case .success(let (record, skipped)):
            if warnings && !skipped.isEmpty {
                warn("ignoring \(skipped.count) line(s) of the tuning record \(path): \(skipped.joined(separator: "; "))")
            }
            return record
        }
    }

    /// Merges `entries` into the record on disk (under the lock; see the type's documentation)
    /// and returns the merged record.
    ///
    /// - Throws: `.io` naming the directory or file that could not be created, locked or written.
    @discardableResult
    public func save(_ entries: [TuningEntry]) throws -> TuningRecord {
        lock.lock()
        defer { lock.unlock() }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FoveaError(.io, "cannot create the tuning directory \(directory): \(error.localizedDescription)")
        }
        let lockPath = path + ".lock"
        let lockFile = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockFile >= 0 else { throw FoveaError(.io, "cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(lockFile) }
        while flock(lockFile, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FoveaError(.io, "cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        defer { flock(lockFile, LOCK_UN) }
        // What another process wrote since: a bad file is replaced (its problems were warned of when read).
        var merged = read(warnings: cached == nil)
        merged.cpu = cpu
        for entry in entries { merged.entries[entry.key] = entry }
        let temporary = "\(directory)/.\(cpu.fileName).\(getpid()).\(UInt64.random(in: 0 ... .max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(merged.text.utf8)) else {
            throw FoveaError(.io, "cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw FoveaError(.io, "cannot rename \(temporary) to \(path): \(reason)")
        }
        cached = merged
        saved += entries
        return merged
    }

    /// Every entry this store saved since it was created, in order (what `fovea tune` reports).
    public var savedEntries: [TuningEntry] {
        lock.lock()
        defer { lock.unlock() }
        return saved
    }

    /// Forgets what was read, so that the next ``record`` reads the file again.
    public func reload() {
        lock.lock()
        cached = nil
        lock.unlock()
    }
}
