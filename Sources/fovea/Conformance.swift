import ArgumentParser
@_spi(Internals) import Fovea
import FoveaTools
import Foundation

struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the ONNX backend node tests in Fovea's conformance manifest.",
        discussion: "The last line is `N passed, M failed`. Tolerance: rtol 1e-3, atol 1e-7 (the ONNX suite's default).")

    @Option(help: "The ONNX test data directory (holding node/).")
    var data: String = ConformanceRunner.defaultDataDirectory

    @Option(help: "Run only the listed tests whose name contains this text.")
    var filter: String?

    @Flag(help: "Print every test, not only failures.")
    var verbose = false

    @Flag(help: "Also list the omitted tests and their reasons.")
    var showOmitted = false

    func run() throws {
        let manifest = try ConformanceManifest.fovea()
        let runner = ConformanceRunner(dataDirectory: data)
        let available = Set(try runner.availableTests())
        var passed = 0
        var failed = 0
        for name in manifest.listed where filter.map({ name.contains($0) }) ?? true {
            guard available.contains(name) else {
                failed += 1
                print("FAIL \(name): not found in \(data)/node")
                continue
            }
            let outcome = runner.run(test: name)
            if let failure = outcome.failure {
                failed += 1
                print("FAIL \(name): \(failure)")
            } else {
                passed += 1
                if verbose { print("ok   \(name)") }
            }
        }
        if showOmitted {
            for (name, reason) in manifest.omitted { print("omitted \(name): \(reason)") }
        }
        print("\(passed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode.failure }
    }
}
