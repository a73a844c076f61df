import CLibFuzzer
import Foundation
import FoveaServerProtocol

// One libFuzzer executable for fovea-serve's request decoders: FOVEA_FUZZ_TARGET
// (serve-rest, serve-grpc) says which ServerFuzzEntry each input goes through.
// scripts/ci/fuzz.sh builds it with -sanitize=fuzzer,address -DFOVEA_FUZZ, and first
// runs it with FOVEA_FUZZ_SEEDS=DIR to write the entry's seeds there. An ordinary
// build replays the files named on its command line, to debug a crash input.

let entry: ServerFuzzEntry = {
    let name = ProcessInfo.processInfo.environment["FOVEA_FUZZ_TARGET"] ?? ""
    guard let entry = ServerFuzzEntry(rawValue: name) else {
        let known = ServerFuzzEntry.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("error: set FOVEA_FUZZ_TARGET to one of: \(known)\n".utf8))
        exit(64)
    }
    return entry
}()

func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    entry.run(start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

@main
enum ServeFuzzTarget {
    static func main() throws {
        if let folder = ProcessInfo.processInfo.environment["FOVEA_FUZZ_SEEDS"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (index, seed) in entry.seeds.enumerated() {
                try seed.write(to: URL(fileURLWithPath: folder).appendingPathComponent("seed-\(index)"))
            }
            return
        }
        #if FOVEA_FUZZ
        // SwiftPM links this as the program's entry point, so libFuzzer's own main
        // never runs: hand it the command line here.
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        #else
        var files = 0
        for path in CommandLine.arguments.dropFirst() {
            entry.run(try Data(contentsOf: URL(fileURLWithPath: path)))
            files += 1
        }
        print("\(files) file(s) through ServerFuzzEntry.\(entry)")
        #endif
    }
}
