import XCTest
@testable import fovea

/// The pure logic of `fovea classify` as a worker for large collections:
/// reading path lists, shards, resuming an output, progress lines.
/// (End to end, with kill -9 and the engines: scripts/ci/collections-test.sh.)
final class CollectionWorkerTests: XCTestCase {
    private func temporaryFile(_ contents: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-cli-\(UUID().uuidString)")
        try Data(contents.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    private func allLines(_ list: PathList) throws -> [PathLine] {
        var lines: [PathLine] = []
        while let line = try list.next() { lines.append(line) }
        return lines
    }

    func testAPathListKeepsSpacesAndNonASCIIAndSkipsBlankLinesButNotTheirNumbers() throws {
        let path = try temporaryFile("a.jpg\n\n photos/b c.jpg \r\nfotografía/日本.png\n\r\nlast.jpg")
        XCTAssertEqual(try allLines(PathList(contentsOf: path)), [
            PathLine(number: 1, path: "a.jpg"),
            PathLine(number: 3, path: " photos/b c.jpg "),
            PathLine(number: 4, path: "fotografía/日本.png"),
            PathLine(number: 6, path: "last.jpg"),
        ])
        XCTAssertEqual(try allLines(PathList(paths: ["x", "y"])), [PathLine(number: 1, path: "x"), PathLine(number: 2, path: "y")])
        XCTAssertThrowsError(try PathList(contentsOf: "/nonexistent/list.txt")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/list.txt"), "\(error)")
        }
    }

    func testShardsAreParsedAndDealLinesRoundRobinDisjointAndWhole() throws {
        XCTAssertEqual(Shard(argument: "2/3"), Shard(index: 2, count: 3))
        for bad in ["3/3", "-1/2", "1/0", "a/b", "1", "1/2/3", ""] {
            XCTAssertNil(Shard(argument: bad), bad)
        }
        for count in 1...5 {
            let shards = (0..<count).map { Shard(index: $0, count: count) }
            for line in 1...40 {
                XCTAssertEqual(shards.filter { $0.contains(line: line) }.count, 1, "line \(line) of \(count) parts")
            }
            for lines in 0...13 {
                XCTAssertEqual(shards.map { $0.lineCount(among: lines) }.reduce(0, +), lines)
                for shard in shards {
                    XCTAssertEqual(shard.lineCount(among: lines), (1...max(1, lines)).filter { $0 <= lines && shard.contains(line: $0) }.count)
                }
            }
        }
        XCTAssertTrue(Shard(index: 0, count: 3).contains(line: 4))
        XCTAssertFalse(Shard(index: 1, count: 3).contains(line: 4))
    }

    func testTheQueueGivesThisShardsPathsAndTheirLineNumbersInOrder() throws {
        let path = try temporaryFile("a\nb\n\nd\ne\nf\n")
        let queue = PhotoQueue(try PathList(contentsOf: path), shard: Shard(index: 1, count: 2))
        XCTAssertEqual(Array(queue), ["b", "d", "f"])
        XCTAssertEqual([queue.takeLineNumber(), queue.takeLineNumber(), queue.takeLineNumber()], [2, 4, 6])
        XCTAssertNoThrow(try queue.throwReadError())
    }

    func testAResumePointCountsCompleteLinesAndCutsATornLastLine() throws {
        let complete = #"{"image":"a b.jpg","line":1,"observations":[]}"# + "\n" + #"{"error":"no such file","image":"c.jpg","line":3}"# + "\n"
        let torn = #"{"image":"d.jp"#
        let path = try temporaryFile(complete + torn)
        let point = try ResumePoint.read(path: path)
        XCTAssertEqual(point.results, 2)
        XCTAssertEqual(point.lastLine, 3)
        XCTAssertEqual(point.lastImage, "c.jpg")
        XCTAssertEqual(point.completeLength, Int64(complete.utf8.count))
        XCTAssertEqual(point.tornBytes, Int64(torn.utf8.count))

        XCTAssertEqual(try ResumePoint.read(path: "/nonexistent/out.jsonl"), ResumePoint())
        XCTAssertEqual(try ResumePoint.read(path: try temporaryFile(complete)).tornBytes, 0)
    }

    func testAResumePointRefusesWhatIsNotOneRunsOutput() throws {
        let notJSON = try temporaryFile("{\"image\":\"a\",\"line\":1}\nhello\n")
        XCTAssertThrowsError(try ResumePoint.read(path: notJSON)) { error in
            guard case ResumeError.notAResult(_, 2) = error else { return XCTFail("\(error)") }
        }
        let backwards = try temporaryFile("{\"image\":\"a\",\"line\":2}\n{\"image\":\"b\",\"line\":2}\n")
        XCTAssertThrowsError(try ResumePoint.read(path: backwards)) { error in
            guard case ResumeError.outOfOrder(_, 2, 2, 2) = error else { return XCTFail("\(error)") }
        }
    }

    func testResumingSkipsTheDonePhotosAndChecksTheyAreThisInputs() throws {
        let list = try temporaryFile("a\nb\n\nc\nd\n")
        var point = ResumePoint()
        try point.add(Data(#"{"image":"a","line":1}"#.utf8), file: "out")
        try point.add(Data(#"{"image":"c","line":4}"#.utf8), file: "out")

        let wrongShard = PhotoQueue(try PathList(contentsOf: list), shard: nil)
        XCTAssertThrowsError(try point.skipDone(in: wrongShard, file: "out")) { error in
            guard case ResumeError.differentInput = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("line 4 (c)"), "\(error)")
        }
        let shard = PhotoQueue(try PathList(contentsOf: list), shard: Shard(index: 0, count: 3))
        try point.skipDone(in: shard, file: "out")
        XCTAssertNil(try shard.nextLine(), "lines 1 and 4 are the whole of part 0/3 of 5 lines")

        try point.add(Data(#"{"image":"e","line":7}"#.utf8), file: "out")
        let shorter = PhotoQueue(try PathList(contentsOf: list), shard: nil)
        XCTAssertThrowsError(try point.skipDone(in: shorter, file: "out")) { error in
            guard case ResumeError.differentInput = error else { return XCTFail("\(error)") }
        }
        let tooShort = PhotoQueue(try PathList(paths: ["a"]), shard: nil)
        XCTAssertThrowsError(try point.skipDone(in: tooShort, file: "out")) { error in
            guard case ResumeError.inputShorter(_, 3, 1) = error else { return XCTFail("\(error)") }
        }
    }

    func testJSONLinesAreSortedOneLineAndNumbered() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-cli-\(UUID().uuidString).jsonl").path
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        let result = Classify.ImageResult(image: "dir/a b.jpg", line: 7, orientation: nil, observations: nil, notSure: nil,
                                          error: "no such file", outputs: nil, barcodes: nil)
        do {
            let writer = try JSONLinesWriter(path: path, appending: false)
            try writer.write(result)
        }
        do {
            let writer = try JSONLinesWriter(path: path, appending: true)
            try writer.write(result)
        }
        let line = #"{"error":"no such file","image":"dir/a b.jpg","line":7}"#
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), line + "\n" + line + "\n")
        _ = try JSONLinesWriter(path: path, appending: false)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "", "without --resume the output starts afresh")
    }

    func testProgressLinesAreJSONWithTheRate() throws {
        let record = ProgressLog.record(done: 250, failed: 3, skipped: 1000, seconds: 12.345)
        XCTAssertEqual(record, ProgressLog.Record(done: 250, failed: 3, skipped: 1000, imagesPerSecond: 20.3, seconds: 12.3))
        XCTAssertEqual(ProgressLog.line(record), #"{"progress":{"done":250,"failed":3,"imagesPerSecond":20.3,"seconds":12.3,"skipped":1000}}"#)
        XCTAssertEqual(ProgressLog.record(done: 0, failed: 0, skipped: 0, seconds: 0).imagesPerSecond, 0)
    }
}
