import Foundation
import FoveaFuzzing

// One libFuzzer executable for every parser: FOVEA_FUZZ_TARGET (onnx, coreml,
// image, tensor) says which FuzzEntry each input goes through. scripts/fuzz.sh
// builds it with -sanitize=fuzzer,address -DFOVEA_FUZZ.

/// The entry named by FOVEA_FUZZ_TARGET; a wrong or missing name stops at once.
let fuzzEntry: FuzzEntry = {
    let name = ProcessInfo.processInfo.environment["FOVEA_FUZZ_TARGET"] ?? ""
    guard let entry = FuzzEntry(rawValue: name) else {
        let known = FuzzEntry.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write("error: set FOVEA_FUZZ_TARGET to one of: \(known)\n".data(using: .utf8)!)
        exit(64)
    }
    return entry
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    fuzzEntry.run(start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

#if !FOVEA_FUZZ
/// Without libFuzzer (an ordinary build): each file named on the command line,
/// once, to replay a crash in a debugger. Under libFuzzer, its own `main` does this.
@main
enum ReplayFiles {
    static func main() throws {
        let files = try fuzzEntry.runFiles(CommandLine.arguments.dropFirst())
        print("\(files) file(s) through FuzzEntry.\(fuzzEntry)")
    }
}
#endif
