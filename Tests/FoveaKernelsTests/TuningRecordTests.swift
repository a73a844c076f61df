import Foundation
import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// The tuning record (`fovea tune`, `ModelConfiguration.tuning`): its text round-trips;
/// corrupt files, other CPUs' records and algorithms this build lacks are ignored with a
/// warning; concurrent writers lose nothing; and a plan whose choice came from the record
/// computes the same bits as the same choice forced. No test here asserts a duration
/// (the tuner's winners are whatever this machine measures).
final class TuningRecordTests: XCTestCase {
    private let cpu = CPUIdentity(vendor: "AuthenticAMD", family: 25, model: 1, isa: "avx2", name: "AMD EPYC 7B13")
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "fovea-tuning-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Collects the store's warnings.
    private final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    private func store(_ warnings: Warnings, cpu: CPUIdentity? = nil) -> TuningStore {
        TuningStore(directory: directory, cpu: cpu ?? self.cpu, warn: { warnings.add($0) })
    }

    private func key(_ c: Int, _ k: Int, _ size: Int, threads: Int = 1) -> TuningKey {
        TuningKey(channels: c, outputChannels: k, inputHeight: size, inputWidth: size, outputHeight: size, outputWidth: size,
                  padTop: 1, padLeft: 1, threads: threads)
    }

    private func entry(_ key: TuningKey, _ choice: ConvolutionAlgorithm) -> TuningEntry {
        TuningEntry(key: key, choice: choice, milliseconds: [(.gemm, 1.25), (.winogradF2, 0.5), (choice, 0.25)],
                    date: "2026-12-07T21:00:00Z")
    }

    func testRecordTextRoundTrips() throws {
        var record = TuningRecord(cpu: cpu)
        for (index, algorithm) in ConvolutionTuner.tunable.enumerated() {
            let e = entry(key(16 << index, 32, 7 + index, threads: 1 + index % 2), algorithm)
            record.entries[e.key] = e
        }
        let parsed = try TuningRecord.parse(record.text, expecting: cpu).get()
        XCTAssertEqual(parsed.record, record)
        XCTAssertEqual(parsed.skipped, [])
        XCTAssertEqual(parsed.record.cpu.name, "AMD EPYC 7B13")
    }

    func testStoreRoundTripsThroughItsFile() throws {
        let warnings = Warnings()
        let entries = [entry(key(64, 64, 56), .winogradF4), entry(key(512, 512, 7, threads: 2), .gemm)]
        try store(warnings).save(entries)
        let reread = store(warnings).record
        XCTAssertEqual(Set(reread.entries.keys), Set(entries.map(\.key)))
        for e in entries { XCTAssertEqual(reread.entries[e.key], e) }
        XCTAssertEqual(warnings.all, [])
        let text = try String(contentsOfFile: store(warnings).path, encoding: .utf8)
        XCTAssertTrue(text.contains("conv3x3 n=1 c=64 k=64 in=56x56 out=56x56 pad=1x1 threads=1 choice=winograd-f4"), text)
        XCTAssertTrue(store(warnings).path.hasSuffix("/AuthenticAMD-family25-model1-avx2.txt"))
        // No temporary file is left behind.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }, [])
    }

    func testCorruptRecordIsIgnoredWithOneWarning() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let warnings = Warnings()
        for garbage in ["", "not a record\ncpu vendor=AuthenticAMD family=25 model=1 isa=avx2\n",
                        "fovea-tuning 1\ncpu vendor=AuthenticAMD family=twenty-five\n", "fovea-tuning 1\n\u{1B}[2J"] {
            try Data(garbage.utf8).write(to: URL(fileURLWithPath: store(warnings).path))
            XCTAssertEqual(store(warnings).record.entries.count, 0, garbage)
        }
        try Data([0xff, 0xfe, 0x00, 0x80]).write(to: URL(fileURLWithPath: store(warnings).path))
        XCTAssertEqual(store(warnings).record.entries.count, 0)
        XCTAssertEqual(warnings.all.count, 5, "\(warnings.all)")
        XCTAssertTrue(warnings.all.allSatisfy { !$0.contains("\n") && $0.contains("tuning record") }, "\(warnings.all)")
        // Saving over a corrupt record replaces it with a good one.
        try store(warnings).save([entry(key(32, 32, 14), .winogradF2)])
        XCTAssertEqual(store(warnings).record.entries.count, 1)
    }

    func testAnotherCPUsRecordIsIgnoredWithAWarning() throws {
        let warnings = Warnings()
        let intel = CPUIdentity(vendor: "GenuineIntel", family: 6, model: 207, isa: "amx")
        // Another machine's file copied under this CPU's name, and this CPU at another ISA level.
        for other in [intel, CPUIdentity(vendor: "AuthenticAMD", family: 25, model: 1, isa: "scalar")] {
            let record = TuningRecord(cpu: other, entries: [key(64, 64, 56): entry(key(64, 64, 56), .winogradF6)])
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(record.text.utf8).write(to: URL(fileURLWithPath: store(warnings).path))
            XCTAssertEqual(store(warnings).record.entries.count, 0)
        }
        XCTAssertEqual(warnings.all.count, 2, "\(warnings.all)")
        XCTAssertTrue(warnings.all[0].contains("another CPU") && warnings.all[0].contains("GenuineIntel"), warnings.all[0])
        XCTAssertTrue(warnings.all[1].contains("ISA scalar"), warnings.all[1])
    }

    func testUnknownAlgorithmLinesAreIgnoredWithAWarning() throws {
        let warnings = Warnings()
        let good = entry(key(64, 64, 56), .winogradF4)
        var text = TuningRecord(cpu: cpu, entries: [good.key: good]).text
        text += "conv3x3 n=1 c=128 k=128 in=28x28 out=28x28 pad=1x1 threads=1 choice=winograd-f8 ms=gemm:1.0 date=2026-12-07T21:00:00Z\n"
        text += "conv3x3 n=1 c=128 k=128 in=28x28 out=28x28 pad=1x1 threads=2 choice=depthwise ms= date=2026-12-07T21:00:00Z\n"
        text += "gemm-tile m=6 n=16 choice=8x32\n"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: store(warnings).path))
        let record = store(warnings).record
        XCTAssertEqual(record.entries, [good.key: good])
        XCTAssertEqual(warnings.all.count, 1, "\(warnings.all)")
        XCTAssertTrue(warnings.all[0].contains("ignoring 3 line(s)") && warnings.all[0].contains("'winograd-f8'")
                      && warnings.all[0].contains("'depthwise'") && warnings.all[0].contains("'gemm-tile'"), warnings.all[0])
        // A plan does not use the unknown lines: the shape takes the fallback.
        let (_, source) = TuningSession(tuning: .remembered, threads: 1, store: store(warnings)).choose(key(128, 128, 28).shape)
        XCTAssertEqual(source, .fallback)
    }

    /// Writers in parallel, each with its own store (its own lock file descriptor, as two
    /// processes have): every entry of every writer is in the file at the end.
    func testConcurrentWritersLoseNothing() throws {
        let warnings = Warnings()
        let writers = 4, perWriter = 12
        let directory = self.directory, cpu = self.cpu
        let keys = (0 ..< writers).map { writer in (0 ..< perWriter).map { key(16 + writer, 16 + $0, 7) } }
        let entries = keys.enumerated().map { writer, row in
            row.enumerated().map { i, k in entry(k, ConvolutionTuner.tunable[(writer + i) % 4]) }
        }
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for e in entries[writer] {
                do {
                    try TuningStore(directory: directory, cpu: cpu, warn: { warnings.add($0) }).save([e])
                } catch {
                    warnings.add("writer \(writer): \(error)")
                }
            }
        }
        let record = store(warnings).record
        XCTAssertEqual(record.entries.count, writers * perWriter)
        for writer in 0 ..< writers {
            for i in 0 ..< perWriter {
                XCTAssertEqual(record.entries[key(16 + writer, 16 + i, 7, threads: 1)]?.choice, ConvolutionTuner.tunable[(writer + i) % 4])
            }
        }
        XCTAssertEqual(warnings.all, [])
    }

    private func convCase(_ channels: Int, _ outputs: Int, size: Int, seed: UInt64) throws -> ConvCase {
        var rng = ConvRandom(seed: seed)
        return ConvCase(input: try Tensor(shape: [1, channels, size, size], floats: rng.floats(channels * size * size)),
                        weights: try Tensor(shape: [outputs, channels, 3, 3], floats: rng.floats(outputs * channels * 9)),
                        bias: try Tensor(shape: [outputs], floats: rng.floats(outputs)),
                        attributes: ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1],
                                                   pads: [1, 1, 1, 1], group: 1))
    }

    /// A step whose algorithm the record chose computes the same bits as the same algorithm
    /// forced, and says where its choice came from.
    func testRememberedChoiceIsBitIdenticalToTheForcedOne() throws {
        let warnings = Warnings()
        let c = try convCase(24, 40, size: 13, seed: 7)
        let context = try c.context()
        let tuningKey = key(24, 40, 13, threads: 1)
        for algorithm in ConvolutionTuner.tunable {
            let directory = self.directory + "/\(algorithm.rawValue)"
            let store = TuningStore(directory: directory, cpu: .current, warn: { warnings.add($0) })
            try store.save([entry(tuningKey, algorithm)])
            let remembered = try KernelsBackend(tuning: .remembered, threads: 1, store: store).prepare(context)
            let policy: WinogradPolicy = algorithm == .gemm ? .off : .forced(algorithm)
            let forced = try KernelsBackend(winograd: policy, tuning: .remembered, threads: 1, store: store).prepare(context)
            XCTAssertTrue(remembered.algorithm.hasSuffix(" (measured here, 1 thread)"), remembered.algorithm)
            XCTAssertTrue(forced.algorithm.hasSuffix(" (forced)"), forced.algorithm)
            XCTAssertEqual(remembered.algorithm.dropLast(" (measured here, 1 thread)".count), forced.algorithm.dropLast(" (forced)".count))
            for threads in [1, 2] {
                let a = try LayerCheck.runByHand(remembered, c.inputs, planned: context, threads: threads)
                let b = try LayerCheck.runByHand(forced, c.inputs, planned: context, threads: threads)
                LayerCheck.assertSameBits(a, b, "\(algorithm) at \(threads) threads")
            }
        }
        XCTAssertEqual(warnings.all, [])
    }

    /// `.measure` measures a missing shape once, stores it, and the next plan takes it from the
    /// record; `.fallback` ignores the record; a spent budget leaves shapes to the fallback.
    func testMeasureStoresWhatItMeasured() throws {
        let warnings = Warnings()
        let c = try convCase(16, 48, size: 14, seed: 9)
        let tuningKey = key(16, 48, 14, threads: 2)
        let store = TuningStore(directory: directory, cpu: .current, warn: { warnings.add($0) })
        let fallback = try KernelsBackend(tuning: .measure(budget: .zero), threads: 2, store: store).prepare(c.context())
        XCTAssertTrue(fallback.algorithm.contains("(fallback: table measured on AMD EPYC Zen 4"), fallback.algorithm)
        XCTAssertNil(store.record.entries[tuningKey])

        let measured = try KernelsBackend(tuning: .measure, threads: 2, store: store).prepare(c.context())
        XCTAssertTrue(measured.algorithm.contains("(measured here, 2 threads)"), measured.algorithm)
        let stored = try XCTUnwrap(TuningStore(directory: directory, cpu: .current).record.entries[tuningKey])
        XCTAssertEqual(stored.milliseconds.map(\.0), ConvolutionTuner.candidates(tuningKey.shape))
        XCTAssertTrue(stored.milliseconds.allSatisfy { $0.1 > 0 && $0.1.isFinite })
        XCTAssertEqual(stored.choice, stored.milliseconds.min { $0.1 < $1.1 }?.0)

        let remembered = try KernelsBackend(tuning: .remembered, threads: 2, store: store).prepare(c.context())
        XCTAssertEqual(remembered.algorithm, measured.algorithm)
        // Another thread count has no entry: the fallback.
        XCTAssertTrue(try KernelsBackend(tuning: .remembered, threads: 1, store: store).prepare(c.context())
            .algorithm.contains("(fallback: "))
        XCTAssertTrue(try KernelsBackend(tuning: .fallback, threads: 2, store: store).prepare(c.context())
            .algorithm.contains("(fallback: "))
        XCTAssertEqual(warnings.all.filter { !$0.contains("budget") }, [])
    }

    /// Large planes never get F(4) or F(6) from the tuner (their error; see
    /// `ConvolutionShape.largestPlaneForLargeWinogradTiles`), nor from a record that names them.
    func testTunerCandidatesKeepTheAccuracyCap() throws {
        XCTAssertEqual(ConvolutionTuner.candidates(key(32, 32, 147).shape), [.gemm, .winogradF2])
        XCTAssertEqual(ConvolutionTuner.candidates(key(64, 64, 56).shape), ConvolutionTuner.tunable)
        let warnings = Warnings()
        let big = key(32, 32, 147)
        try store(warnings, cpu: .current).save([entry(big, .winogradF6)])
        let (algorithm, source) = TuningSession(tuning: .remembered, threads: 1, store: store(warnings, cpu: .current)).choose(big.shape)
        XCTAssertEqual(source, .fallback)
        XCTAssertTrue(algorithm == .winogradF2 || algorithm == .gemm, "\(algorithm)")
    }

    func testCPUIdentityNamesAFileSafely() {
        let odd = CPUIdentity(vendor: "Genuine/../Intel\u{1B}", family: 6, model: 207, isa: "avx512")
        XCTAssertEqual(odd.fileName, "Genuine_.._Intel_-family6-model207-avx512.txt")
        XCTAssertFalse(CPUIdentity.current.fileName.contains("/"))
        XCTAssertTrue(CPUIdentity.current.matches(CPUIdentity.current))
        XCTAssertFalse(cpu.matches(CPUIdentity(vendor: "AuthenticAMD", family: 25, model: 17, isa: "avx2")))
    }
}
