import Foundation
import Fovea
import Atomics

// Classifies the photos of a directory `--total` times from `--tasks` concurrent
// threads, with one shared model and request, decoding each photo anew each time
// (so decoder and handler memory is exercised too). Every result must equal the
// sequential run's, bit for bit; resident memory is printed at the start (after
// the sequential run), in the middle and at the end. Exit status 1 on any mismatch.
//
//   swift run -c release fovea-soak [--model M] [--photos DIR] [--total N] [--tasks K] [--backend B] [--threads T]

struct Options {
    var model = "../shared/models/squeezenet1.1.onnx"
    var photos = "../shared/models/photos"
    var total = 10_000
    var tasks = 16
    var backend: String?
    var threads = 1

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw SoakError("\(flag) needs a value") }
            switch flag {
            case "--model": model = value
            case "--photos": photos = value
            case "--total": total = try Self.positive(flag, value)
            case "--tasks": tasks = try Self.positive(flag, value)
            case "--threads": threads = try Self.positive(flag, value)
            case "--backend": backend = value
            default: throw SoakError("unknown flag \(flag)")
            }
        }
    }

    static func positive(_ flag: String, _ value: String) throws -> Int {
        guard let n = Int(value), n > 0 else { throw SoakError("\(flag) takes a positive integer, not '\(value)'") }
        return n
    }
}

struct SoakError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func photoPaths(in directory: String) throws -> [String] {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    let photos = names.filter { ["jpg", "jpeg", "png", "heic", "heif", "avif", "webp", "ppm"].contains(($0 as NSString).pathExtension.lowercased()) }
    guard !photos.isEmpty else { throw SoakError("no JPEG, PNG or PPM photos in \(directory)") }
    return photos.map { directory + "/" + $0 }
}

func soak(_ options: Options) throws -> Bool {
    let configuration = ModelConfiguration(backends: options.backend.map { [$0] }, threads: options.threads)
    let model = try Model(contentsOfFile: options.model, configuration: configuration).describing {
        if $0.classLabels == nil { $0.classLabels = try .imageNet1k }
    }
    let topFive = try ClassificationRequest(model: model)
    topFive.maximumObservations = 5
    let request = topFive
    let photos = try photoPaths(in: options.photos)

    let expected = try photos.map { try ImageRequestHandler(contentsOfFile: $0).performAndWait(request) }
    let start = ResidentMemory.now()
    print("\(photos.count) photos, \(options.total) classifications from \(options.tasks) tasks, backend \(options.backend ?? "default"), \(options.threads) thread(s) per run")
    print("start:  \(start)")

    let done = ManagedAtomic<Int>(0)
    // The reading taken when half the classifications are done, by whichever thread gets there.
    let middle = Locked<ResidentMemory?>(nil)
    let mismatches = Locked<[String]>([])
    let began = Date()
    // Threads from Dispatch, not Swift tasks: valgrind 3.19 crashes on the
    // concurrency runtime's threads, and the soak must also run under valgrind.
    DispatchQueue.concurrentPerform(iterations: options.tasks) { task in
        for index in stride(from: task, to: options.total, by: options.tasks) {
            let photo = index % photos.count
            do {
                let observations = try ImageRequestHandler(contentsOfFile: photos[photo]).performAndWait(request)
                if observations != expected[photo] { mismatches.update { $0.append("classification \(index) of \(photos[photo])") } }
            } catch {
                mismatches.update { $0.append("classification \(index) of \(photos[photo]) failed: \(error)") }
            }
            if done.wrappingIncrementThenLoad(ordering: .relaxed) == options.total / 2 { middle.update { $0 = ResidentMemory.now() } }
        }
    }
    let seconds = Date().timeIntervalSince(began)
    if let reading = middle.current { print("middle: \(reading)") }
    print("end:    \(ResidentMemory.now())")
    print(String(format: "%d classifications in %.1f s (%.0f images/s), %d differ from the sequential run",
                 options.total, seconds, Double(options.total) / seconds, mismatches.current.count))
    for mismatch in mismatches.current.prefix(10) { print("  differs: \(mismatch)") }
    return mismatches.current.isEmpty
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    exit(try soak(options) ? 0 : 1)
} catch {
    FileHandle.standardError.write("error: \(error)\n".data(using: .utf8)!)
    exit(error is SoakError ? 64 : 1)
}
