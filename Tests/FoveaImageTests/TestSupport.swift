import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

/// `../shared/models/photos`, beside the package checkout.
let photosDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // FoveaImageTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .deletingLastPathComponent()
    .appendingPathComponent("shared/models/photos")

func photoPath(_ name: String) -> String {
    photosDirectory.appendingPathComponent(name).path
}

func photoData(_ name: String) throws -> Data {
    try Data(contentsOf: photosDirectory.appendingPathComponent(name))
}

/// Asserts that `body` throws a `FoveaError` of `kind` and returns it.
@discardableResult
func assertFoveaError<T>(
    _ kind: FoveaError.Kind,
    messageContains fragment: String? = nil,
    _ body: () throws -> T,
    file: StaticString = #filePath,
    line: UInt = #line
) -> FoveaError? {
    do {
        _ = try body()
        XCTFail("expected a FoveaError(.\(kind)), but nothing was thrown", file: file, line: line)
        return nil
    } catch let error as FoveaError {
        XCTAssertEqual(error.kind, kind, "wrong kind: \(error)", file: file, line: line)
        if let fragment {
            XCTAssertTrue(error.message.contains(fragment), "message '\(error.message)' lacks '\(fragment)'", file: file, line: line)
        }
        XCTAssertFalse(error.description.contains("\n"), "message is not one line: \(error)", file: file, line: line)
        return error
    } catch {
        XCTFail("expected a FoveaError, got \(type(of: error)): \(error)", file: file, line: line)
        return nil
    }
}

/// Bytes from a hex string ("0a1bff").
func bytes(hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return result
}

/// Max and mean absolute difference between two same-sized images.
func pixelDifference(_ a: RGBImage, _ b: RGBImage) -> (max: Int, mean: Double) {
    var maxDiff = 0
    var total = 0
    for (x, y) in zip(a.pixels, b.pixels) {
        let d = abs(Int(x) - Int(y))
        maxDiff = max(maxDiff, d)
        total += d
    }
    return (maxDiff, Double(total) / Double(max(a.pixels.count, 1)))
}

/// A test image whose pixels follow a simple pattern.
func patternImage(width: Int, height: Int) throws -> RGBImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
        for x in 0..<width {
            pixels += [UInt8((x * 7 + y * 3) % 256), UInt8((x * y) % 256), UInt8((255 - x * 5) & 0xFF)]
        }
    }
    return try RGBImage(width: width, height: height, pixels: pixels)
}

/// A counter that several threads may bump.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
