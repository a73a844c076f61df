import Foundation
@_spi(Internals) import Fovea

/// Where a run with `--output FILE --resume` picks up: what earlier runs left
/// in FILE.
///
/// A run writes its results in input order, one whole line each, and a resumed
/// run skips exactly the photos already written before appending the rest; so
/// FILE always holds the results of the first ``results`` photos of the run's
/// input (its shard of the list), with strictly increasing line numbers. That
/// is all a resumed run needs to know (no set of done photos to hold, however
/// long the list): skip that many photos, and check that the last one skipped
/// is the one FILE ends with. A process killed while writing can leave a last
/// line without its newline: it is cut off (``tornBytes``) and that photo redone.
struct ResumePoint: Equatable {
    /// Complete results in the file.
    var results = 0
    /// The last complete result's input line number and image.
    var lastLine: Int?
    var lastImage: String?
    /// Bytes up to the end of the last complete line: the file is cut to this.
    var completeLength: Int64 = 0
    /// Bytes after it: a line cut short by a killed process.
    var tornBytes: Int64 = 0

    /// The fields of a result line this reads.
    private struct Result: Decodable {
        var line: Int
        var image: String
    }

    /// Reads the JSON Lines output at `path` (no file: nothing done yet).
    static func read(path: String) throws -> ResumePoint {
        guard FileManager.default.fileExists(atPath: path) else { return ResumePoint() }
        guard let file = fopen(path, "r") else {
            throw FoveaError(.io, "cannot open the output to resume (\(String(cString: strerror(errno))))", location: .init(file: path))
        }
        defer { fclose(file) }
        var point = ResumePoint()
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let decoder = JSONDecoder()
        while true {
            let count = getline(&buffer, &capacity, file)
            if count < 0 {
                if ferror(file) != 0 {
                    throw FoveaError(.io, "cannot read the output to resume (\(String(cString: strerror(errno))))", location: .init(file: path))
                }
                return point
            }
            guard let buffer else { continue }
            guard buffer[count - 1] == 0x0A else {
                point.tornBytes = Int64(count)
                return point
            }
            let bytes = Data(bytes: buffer, count: count - 1)
            try point.add(bytes, decoder: decoder, file: path)
            point.completeLength += Int64(count)
        }
    }

    /// Counts one complete result line.
    mutating func add(_ line: Data, decoder: JSONDecoder = JSONDecoder(), file: String) throws {
        let resultNumber = results + 1
        guard let result = try? decoder.decode(Result.self, from: line) else {
            throw ResumeError.notAResult(file: file, resultNumber: resultNumber)
        }
        if let lastLine, result.line <= lastLine {
            throw ResumeError.outOfOrder(file: file, resultNumber: resultNumber, line: result.line, previous: lastLine)
        }
        results = resultNumber
        lastLine = result.line
        lastImage = result.image
    }

    /// Takes the photos already done from `queue`, checking that they are the
    /// ones in the file: its results are the first ``results`` of this input.
    func skipDone(in queue: PhotoQueue, file: String) throws {
        guard let lastLine, let lastImage else { return }
        var last: PathLine?
        for taken in 0..<results {
            guard let line = try queue.nextLine() else {
                throw ResumeError.inputShorter(file: file, results: results, inputPhotos: taken)
            }
            last = line
        }
        guard let last, last.number == lastLine, last.path == lastImage else {
            throw ResumeError.differentInput(file: file, results: results, lastLine: lastLine, lastImage: lastImage,
                                             inputLine: last?.number ?? 0, inputImage: last?.path ?? "")
        }
    }
}

/// Why `--resume` cannot continue the output it was given.
enum ResumeError: Error, CustomStringConvertible {
    case notAResult(file: String, resultNumber: Int)
    case outOfOrder(file: String, resultNumber: Int, line: Int, previous: Int)
    case inputShorter(file: String, results: Int, inputPhotos: Int)
    case differentInput(file: String, results: Int, lastLine: Int, lastImage: String, inputLine: Int, inputImage: String)

    var description: String {
        switch self {
        case .notAResult(let file, let number):
            return "\(file): line \(number) is not a result of `fovea classify --jsonl` (a JSON object with \"line\" and \"image\"); cannot resume"
        case .outOfOrder(let file, let number, let line, let previous):
            return "\(file): result \(number) is for input line \(line), after line \(previous): not the output of one run in input order; cannot resume"
        case .inputShorter(let file, let results, let photos):
            return "\(file) holds \(results) results but this input (and --shard) has only \(photos) photos: was it written from another list or shard?"
        case .differentInput(let file, let results, let lastLine, let lastImage, let inputLine, let inputImage):
            return "\(file) does not continue this input: its \(results) results end with line \(lastLine) (\(lastImage)), "
                + "but the input's photo \(results) is line \(inputLine) (\(inputImage)): was it written from another list or shard?"
        }
    }
}
