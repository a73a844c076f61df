import CLibFuzzer
import Foundation
import FoveaFuzzing

// One libFuzzer executable for every parser: FOVEA_FUZZ_TARGET (onnx, coreml,
// image, tensor) says which FuzzEntry each input goes through. scripts/ci/fuzz.sh
// builds it with -sanitize=fuzzer,address -DFOVEA_FUZZ; an ordinary build replays
// the files named on its command line, to debug a crash input.

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

/// One input from libFuzzer.
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fuzzEntry.run(start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

@main
enum FuzzTarget {
    static func main() throws {
        #if FOVEA_FUZZ
        // SwiftPM links this as the program's entry point, so libFuzzer's own main
        // never runs: hand it the command line here.
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        #else
        let files = try fuzzEntry.runFiles(CommandLine.arguments.dropFirst())
        print("\(files) file(s) through FuzzEntry.\(fuzzEntry)")
        #endif
    }
}
