import ArgumentParser
import Fovea
import XCTest
@testable import fovea

/// `--precision f32|bf16` on every command that plans a model: parsed into the
/// configuration (f32 when absent), refused with a usage error otherwise.
final class PrecisionOptionTests: XCTestCase {
    func testRunClassifyBenchAndInspectCarryItIntoTheConfiguration() throws {
        XCTAssertEqual(try Run.parse(["--model", "m.onnx"]).backend.configuration.precision, .f32)
        XCTAssertEqual(try Run.parse(["--model", "m.onnx", "--precision", "bf16"]).backend.configuration.precision, .bf16)
        XCTAssertEqual(try Classify.parse(["--model", "m.onnx", "--precision", "bf16", "a.jpg"]).backend.configuration.precision, .bf16)
        XCTAssertEqual(try Bench.parse(["--model", "m.onnx", "--precision", "BF16"]).backend.configuration.precision, .bf16)
        let inspect = try Inspect.parse(["--model", "m.onnx", "--plan", "--precision", "bf16"])
        XCTAssertEqual(inspect.backend.configuration(inspect.optimizations).precision, .bf16)
        XCTAssertEqual(try Inspect.parse(["--model", "m.onnx", "--plan", "--precision", "f32"]).backend.configuration.precision, .f32)
    }

    func testParityAndTrainTakeItToo() throws {
        XCTAssertEqual(try Parity.parse(["--model", "m.onnx"]).precision.precision, .f32)
        XCTAssertEqual(try Parity.parse(["--model", "m.onnx", "--precision", "bf16"]).precision.precision, .bf16)
        XCTAssertEqual(try Train.parse(["data", "--base", "m.onnx", "--output", "o.onnx"]).precision.precision, .f32)
        XCTAssertEqual(try Train.parse(["data", "--base", "m.onnx", "--output", "o.onnx", "--precision", "bf16"]).precision.precision, .bf16)
    }

    func testAnythingElseIsAUsageErrorNamingTheChoices() {
        for bad in ["fp16", "int8", "", "bfloat16"] {
            XCTAssertThrowsError(try Run.parse(["--model", "m.onnx", "--precision", bad]), bad) { error in
                XCTAssertTrue(Run.message(for: error).contains("--precision must be f32 or bf16"), Run.message(for: error))
                XCTAssertEqual(Run.exitCode(for: error), .validationFailure, bad)
            }
            XCTAssertThrowsError(try Parity.parse(["--model", "m.onnx", "--precision", bad]), bad)
            XCTAssertThrowsError(try Train.parse(["d", "--base", "m.onnx", "--output", "o.onnx", "--precision", bad]), bad)
        }
    }

    func testTheBenchLineSaysWhatTheHardwareIsAndHowToUseIt() {
        XCTAssertEqual(Bench.bf16Line(hardware: "avx512bf16", precision: .f32, steps: 0),
                       "bf16: this CPU has AVX512_BF16 (no AMX): try --precision bf16 (bf16 multiplies, f32 accumulation; check with fovea parity --precision bf16)")
        XCTAssertTrue(Bench.bf16Line(hardware: "amx", precision: .f32, steps: 0).hasPrefix("bf16: this CPU has AMX-BF16: try --precision bf16"))
        XCTAssertEqual(Bench.bf16Line(hardware: nil, precision: .f32, steps: 0),
                       "bf16: this CPU has neither AVX512_BF16 nor AMX: --precision bf16 would only emulate it (slower than f32)")
        XCTAssertEqual(Bench.bf16Line(hardware: "avx512bf16", precision: .bf16, steps: 26),
                       "bf16: this CPU has AVX512_BF16 (no AMX); 26 step(s) ran in bf16 (bf16 multiplies, f32 accumulation)")
        XCTAssertTrue(Bench.bf16Line(hardware: nil, precision: .bf16, steps: 26).hasSuffix("26 step(s) ran in bf16 emulated on f32 arithmetic, slower than f32"))
    }
}
