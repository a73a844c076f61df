import Foundation
import XCTest
@testable import FoveaCore

/// Issue 11: plans checked against a memory limit from their shapes, before anything is allocated.
final class MemoryLimitTests: XCTestCase {
    private func reluGraph(_ shape: [Int], outputChannels: Int? = nil) throws -> Graph {
        let input = ValueInfo(name: "x", dataType: .float32, dimensions: shape.map { .known($0) })
        var nodes = [Node(name: "relu", op: .relu, inputs: ["x"], outputs: ["y"])]
        var initializers: [String: Tensor] = [:]
        var output = "y"
        if let outputChannels {
            // A 1×1 Conv widening the channels: its output is the largest value.
            let attributes = ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])
            initializers["W"] = Tensor(uncheckedShape: [outputChannels, shape[1], 1, 1],
                                       floats: [Float](repeating: 1, count: outputChannels * shape[1]))
            nodes.append(Node(name: "widen", op: .conv(attributes), inputs: ["y", "W"], outputs: ["z"]))
            output = "z"
        }
        return Graph(name: "t", inputs: [input], outputs: [ValueInfo(name: output, dataType: .float32, dimensions: nil)],
                     nodes: nodes, initializers: initializers)
    }

    private func assertLimitError(_ fragments: [String], file: StaticString = #filePath, line: UInt = #line,
                                  _ body: () throws -> Void) {
        let start = Date()
        do {
            try body()
            XCTFail("expected a .limitExceeded error", file: file, line: line)
        } catch let error as FoveaError {
            XCTAssertEqual(error.kind, .limitExceeded, "\(error)", file: file, line: line)
            for fragment in fragments {
                XCTAssertTrue(error.description.contains(fragment), "'\(error)' lacks '\(fragment)'", file: file, line: line)
            }
        } catch {
            XCTFail("expected a FoveaError, got \(error)", file: file, line: line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "refusing took too long", file: file, line: line)
    }

    func testHugeDeclaredInputsAreRefusedBeforeAllocating() throws {
        // 120 GB: above the default limit (half of memory) on any machine this runs on.
        assertLimitError(["input 'x'", "float32[1×3×100000×100000]", "120000000000 bytes", "memory limit"]) {
            _ = try ExecutionPlan(graph: try reluGraph([1, 3, 100_000, 100_000]))
        }
        // 10.8 GB of input and as much of output; refused whatever the machine with a 1 GiB limit.
        assertLimitError(["input 'x'", "10800000000 bytes"]) {
            _ = try ExecutionPlan(graph: try reluGraph([1, 3, 30_000, 30_000]), memoryLimit: MemoryLimit(bytes: 1 << 30))
        }
        // A value inside the graph (a 64-channel Conv over 30000×30000: 230 GB) is named with its node.
        assertLimitError(["node 'widen'", "value 'z'", "float32[1×64×30000×30000]", "230400000000 bytes"]) {
            _ = try ExecutionPlan(graph: try reluGraph([1, 3, 30_000, 30_000], outputChannels: 64),
                                  memoryLimit: MemoryLimit(bytes: 20 << 30))
        }
        // Dimensions whose byte count overflows 64 bits.
        assertLimitError(["input 'x'", "more bytes than a 64-bit count holds"]) {
            _ = try ExecutionPlan(graph: try reluGraph([1 << 31, 1 << 31, 1 << 31]))
        }
    }

    func testThePlannedArenaIsCheckedToo() throws {
        // 1×3×64×64 floats = 48 KiB per value: the input and the output fit in 100 KB, the input,
        // the arena and the weights of the widening Conv do not.
        let graph = try reluGraph([1, 3, 64, 64], outputChannels: 3)
        let plan = try ExecutionPlan(graph: graph, memoryLimit: MemoryLimit(bytes: 1 << 20))
        XCTAssertEqual(plan.requiredBytes, plan.memory.arenaBytes + plan.memory.constantBytes + 3 * 64 * 64 * 4)
        assertLimitError(["the execution plan", "arena", "inputs"]) {
            _ = try ExecutionPlan(graph: graph, memoryLimit: MemoryLimit(bytes: plan.requiredBytes - 1))
        }
        // Exactly at the limit is allowed, and runs.
        let exact = try ExecutionPlan(graph: graph, memoryLimit: MemoryLimit(bytes: plan.requiredBytes))
        let out = try exact.run(["x": Tensor(uncheckedShape: [1, 3, 64, 64], floats: [Float](repeating: 1, count: 3 * 64 * 64))])
        XCTAssertEqual(out["z"]?.floats?.first, 3)
    }

    func testTheDefaultLimitIsHalfTheAvailableMemory() {
        XCTAssertGreaterThan(MemoryLimit.availableMemoryBytes, 0)
        XCTAssertLessThanOrEqual(MemoryLimit.availableMemoryBytes, Int(clamping: ProcessInfo.processInfo.physicalMemory))
        XCTAssertEqual(MemoryLimit.default.bytes, MemoryLimit.availableMemoryBytes / 2)
    }

    func testSizesParse() {
        XCTAssertEqual(MemoryLimit(parsing: "1073741824")?.bytes, 1 << 30)
        XCTAssertEqual(MemoryLimit(parsing: "512M")?.bytes, 512 << 20)
        XCTAssertEqual(MemoryLimit(parsing: "8G")?.bytes, 8 << 30)
        XCTAssertEqual(MemoryLimit(parsing: "8GB")?.bytes, 8 << 30)
        XCTAssertEqual(MemoryLimit(parsing: "2GiB")?.bytes, 2 << 30)
        XCTAssertEqual(MemoryLimit(parsing: "1.5g")?.bytes, 3 << 29)
        XCTAssertEqual(MemoryLimit(parsing: "64k")?.bytes, 64 << 10)
        XCTAssertEqual(MemoryLimit(parsing: "unlimited"), .unlimited)
        for bad in ["", "G", "-1G", "8X", "1e400", "nan", "99999999999P", "1..2G"] {
            XCTAssertNil(MemoryLimit(parsing: bad), bad)
        }
    }
}
