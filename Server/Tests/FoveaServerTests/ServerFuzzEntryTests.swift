import Foundation
import FoveaServerProtocol
import XCTest

/// The fuzzers' entries (scripts/ci/fuzz.sh serve-rest serve-grpc): their seeds are
/// valid requests, and every input a fuzzer once crashed on, committed under
/// Server/Tests/FuzzRegressions/TARGET/, now decodes or fails cleanly.
final class ServerFuzzEntryTests: XCTestCase {
    func testTheSeedsAreValidRequests() {
        for entry in ServerFuzzEntry.allCases {
            XCTAssertFalse(entry.seeds.isEmpty, entry.rawValue)
            for (index, seed) in entry.seeds.enumerated() {
                XCTAssertNotNil(entry.run(seed), "\(entry.rawValue) seed \(index)")
            }
        }
    }

    func testTheIssuesInputsFailCleanly() {
        let json = #"{"inputs":[{"name":"data","datatype":"FP32","shape":[4611686018427387904],"parameters":{"binary_data_size":0}}]}"#
        XCTAssertNil(ServerFuzzEntry.rest.run(Data("Inference-Header-Content-Length: \(json.utf8.count)\n\n\(json)".utf8)))
        XCTAssertNil(ServerFuzzEntry.rest.run(Data("Content-Length: 99999999999999999999\n\n{}".utf8)))
    }

    func testCommittedRegressionsReplay() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzRegressions")
        for entry in ServerFuzzEntry.allCases {
            let directory = folder.appendingPathComponent(entry.rawValue)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
                entry.run(try Data(contentsOf: directory.appendingPathComponent(name)))
            }
        }
    }
}
