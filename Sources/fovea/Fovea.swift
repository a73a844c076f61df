import ArgumentParser
import Foundation
@_spi(Internals) import Fovea
import FoveaCore

@main
struct FoveaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fovea",
        abstract: "Run convolutional image classifiers (ONNX) on the CPU.",
        discussion: """
        Every error is one line on standard error starting with `error:`, with \
        names from files (nodes, ops, values, labels) printed with their control \
        characters escaped. Exit codes: 0 success, 1 a failure (bad model or \
        image, limit exceeded, parity failed), 64 a bad command line (unknown \
        option, bad option value, unknown backend).
        """,
        version: "0.1.0",
        subcommands: [Classify.self, Prepare.self, Register.self, Stream.self, Inspect.self, Tune.self, Run.self, Parity.self, Bench.self, BenchPhoto.self, Conformance.self, Train.self, Evaluate.self]
    )

    /// ArgumentParser's `main()`, with every error printed as `error: message`
    /// (ArgumentParser's own say `Error:`) and escaped for the terminal.
    static func main() {
        let command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exitWithError(error)
        }
        do {
            var command = command
            try command.run()
        } catch {
            exitWithError(error)
        }
    }

    private static func exitWithError(_ error: Error) -> Never {
        let code = exitCode(for: error)
        // --help, --version and thrown ExitCodes keep ArgumentParser's handling.
        if code == .success || error is ExitCode || error is CleanExit {
            exit(withError: error)
        }
        let full = fullMessage(for: error)
        let short = message(for: error)
        var text: String
        if let foveaError = error as? FoveaError {
            text = foveaError.description  // escaped already
        } else {
            text = SafeText.escaped(short)
        }
        // ArgumentParser appends the usage to a bad command line.
        if full.hasPrefix("Error: " + short) {
            text += String(full.dropFirst(("Error: " + short).count))
        } else if !full.isEmpty && !full.hasPrefix("Error: ") && !full.contains(short) {
            text = SafeText.escaped(full)
        }
        FileHandle.standardError.write(Data("error: \(text)\n".utf8))
        Foundation.exit(code.rawValue)
    }
}

/// Writes `message` to standard error as `error: message`.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("error: \(SafeText.escaped(message))\n".utf8))
}

/// Writes `message` to standard error as `warning: message`.
func printWarning(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(SafeText.escaped(message))\n".utf8))
}
