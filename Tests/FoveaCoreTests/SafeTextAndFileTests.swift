import Foundation
import XCTest
@testable import FoveaCore

/// Issue 11: names from files printed safely; special files named for what they are.
final class SafeTextTests: XCTestCase {
    func testControlCharactersAreSpelledOut() {
        XCTAssertEqual(SafeText.escaped("conv1/relu"), "conv1/relu")
        XCTAssertEqual(SafeText.escaped("café ×3 — ok"), "café ×3 — ok")
        XCTAssertEqual(SafeText.escaped("\u{1B}]0;pwned\u{07}\u{1B}[31mred"), "\\x1B]0;pwned\\x07\\x1B[31mred")
        XCTAssertEqual(SafeText.escaped("a\nb\tc\rd\u{0}e\u{7F}"), "a\\nb\\tc\\rd\\x00e\\x7F")
        XCTAssertEqual(SafeText.escaped("\u{9B}2J"), "\\x9B2J")  // C1 CSI
        XCTAssertEqual(SafeText.escaped("abc\u{202E}fed"), "abc\\u{202E}fed")  // right-to-left override
    }

    func testErrorsEscapeNamesFromFiles() {
        let error = FoveaError(.invalidModel, "input 0 '\u{1B}[2J' is bad",
                               location: .init(file: "m\u{1B}.onnx", node: "n\u{1B}]0;title\u{07}", opType: "Op\u{9B}"))
        XCTAssertEqual(error.description, "m\\x1B.onnx: node 'n\\x1B]0;title\\x07' (Op\\x9B): input 0 '\\x1B[2J' is bad")
        XCTAssertFalse(error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}

final class SpecialFileTests: XCTestCase {
    func testSpecialFilesSayWhatTheyAre() throws {
        func message(_ path: String) -> String {
            do {
                _ = try FileContents.read(path, expected: "an image file")
                return "read"
            } catch let error as FoveaError {
                XCTAssertEqual(error.kind, .io, "\(error)")
                return error.description
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(message("/dev/zero"), "/dev/zero: is a character device, not a regular file; expected an image file")
        XCTAssertTrue(message("/dev/urandom").contains("is a character device"))
        XCTAssertEqual(message("/tmp"), "/tmp: is a directory, not a regular file; expected an image file")
        XCTAssertEqual(message("/nonexistent/x.jpg"), "/nonexistent/x.jpg: no such file; expected an image file")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.jpg").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Reading a FIFO with no writer would block forever: it must be refused from its type.
        XCTAssertEqual(message(fifo), "\(fifo): is a FIFO (named pipe), not a regular file; expected an image file")

        let file = directory.appendingPathComponent("ok.bin").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try FileContents.read(file, expected: "x"), Data([1, 2, 3]))
        // Through a symbolic link, the target's type counts.
        let link = directory.appendingPathComponent("zero").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        XCTAssertTrue(message(link).contains("is a character device"))
    }
}
