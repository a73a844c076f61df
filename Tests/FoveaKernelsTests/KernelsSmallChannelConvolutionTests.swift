import XCTest
import CFoveaKernels
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// The direct small-channel convolution (``DirectSmallChannelConvolutionStep``)
/// against the reference backend: random convolutions with 1–4 input channels
/// and at most 32 output channels (kernels 2–7, not always square; strides 1–2; pads; planes from 1 pixel;
/// batch 3; every fused activation; constant, run-time and no bias) at 1 and 2
/// threads, each within the step's written tolerance (1e-5 relative), plus the
/// routing rules: which shapes take it, and that the policies `off` and forced
/// Winograd keep it out.
final class KernelsSmallChannelConvolutionTests: XCTestCase {
    private static func randomCase(_ rng: inout ConvRandom) -> ConvCase? {
        let channels = rng.int(1...4), outputs = rng.int(1...20)
        let kernel = rng.int(2...7), kernelWidth = rng.int(0...3) == 0 ? rng.int(1...7) : kernel
        let strides = [rng.int(1...2), rng.int(1...2)]
        let pads = [rng.int(0...3), rng.int(0...3), rng.int(0...3), rng.int(0...3)]
        let height = rng.pick([1, 2, 5, 9, 16, 23]), width = rng.pick([1, 3, 8, 17, 33, 50])
        let batch = rng.int(0...3) == 0 ? 3 : 1
        var attributes = ConvAttributes(kernelShape: [kernel, kernelWidth], strides: strides, dilations: [1, 1], pads: pads)
        attributes.activation = rng.pick(KernelsConvolutionTests.activations)
        guard let geometry = try? SpatialGeometry(inputSize: [height, width], convolution: attributes),
              geometry.outputSize.allSatisfy({ $0 >= 1 }),
              let x = try? Tensor(shape: [batch, channels, height, width], floats: rng.floats(batch * channels * height * width)),
              let w = try? Tensor(shape: [outputs, channels, kernel, kernelWidth],
                                  floats: rng.floats(outputs * channels * kernel * kernelWidth)) else { return nil }
        let bias = rng.int(0...2) == 0 ? nil : try? Tensor(shape: [outputs], floats: rng.floats(outputs))
        return ConvCase(input: x, weights: w, bias: bias, attributes: attributes, biasIsConstant: rng.int(0...3) != 0)
    }

    func testRandomSmallChannelConvolutionsAgainstTheReference() throws {
        var rng = ConvRandom(seed: 0x57E3)
        let backend = KernelsBackend(winograd: .measured)
        var checked = 0, batched = 0, runTimeBias = 0, fused = 0
        while checked < 60 {
            guard let c = Self.randomCase(&rng) else { continue }
            let algorithm = try LayerCheck.check(backend, c.op, c.presentInputs, constants: c.constantIndices, tolerance: nil,
                                                 threads: 1 + checked % 2, "small-channel case \(checked): \(c)")
            let kernel = "\(c.weights.shape[2])x\(c.weights.shape[3])"
            XCTAssertTrue(algorithm.hasPrefix("direct-smallc \(kernel) f32_conv_smallc_"), "ran '\(algorithm)' for \(c)")
            XCTAssertTrue(algorithm.contains(KernelsTestSupport.f32KernelISA), "'\(algorithm)' does not name the ISA")
            if let activation = c.attributes.activation {
                XCTAssertTrue(algorithm.hasSuffix(" +\(activation)"), "'\(algorithm)' does not show the fused \(activation)")
                fused += 1
            }
            if c.input.shape[0] > 1 { batched += 1 }
            if c.bias != nil && !c.biasIsConstant { runTimeBias += 1 }
            checked += 1
        }
        XCTAssertGreaterThan(batched, 0, "some cases have batch > 1")
        XCTAssertGreaterThan(runTimeBias, 0, "some cases have a run-time bias")
        XCTAssertGreaterThan(fused, 0, "some cases have a fused activation")
    }

    /// A stem like SqueezeNet's (3 → 16, 3×3 stride 2, +ReLU) and one like ResNet's (7×7 stride 2, pad 3), smaller planes.
    func testStemShapesAgainstTheReference() throws {
        var rng = ConvRandom(seed: 0x57E4)
        for (kernel, pad, outputs) in [(3, 0, 16), (3, 1, 8), (7, 3, 12)] {
            var attributes = ConvAttributes(kernelShape: [kernel, kernel], strides: [2, 2], dilations: [1, 1],
                                            pads: [pad, pad, pad, pad])
            attributes.activation = .relu
            let c = ConvCase(input: try Tensor(shape: [1, 3, 57, 57], floats: rng.floats(3 * 57 * 57)),
                             weights: try Tensor(shape: [outputs, 3, kernel, kernel], floats: rng.floats(outputs * 3 * kernel * kernel)),
                             bias: try Tensor(shape: [outputs], floats: rng.floats(outputs)), attributes: attributes)
            for threads in [1, 2] {
                let algorithm = try LayerCheck.check(KernelsBackend(winograd: .measured), c.op, c.presentInputs,
                                                     constants: c.constantIndices, tolerance: nil, threads: threads,
                                                     "stem \(kernel)x\(kernel) pad \(pad): \(c)")
                XCTAssertTrue(algorithm.hasPrefix("direct-smallc"), "stem ran '\(algorithm)'")
            }
        }
    }

    /// Which convolutions take the direct kernel, by the shape rules and the policy.
    func testRouting() throws {
        var rng = ConvRandom(seed: 5)
        func make(_ channels: Int, _ kernel: [Int], stride: Int = 1, dilation: Int = 1, group: Int = 1,
                  outputs: Int = 4) throws -> ConvCase {
            ConvCase(input: try Tensor(shape: [1, channels, 12, 12], floats: rng.floats(channels * 144)),
                     weights: try Tensor(shape: [outputs, channels / group] + kernel,
                                         floats: rng.floats(outputs * channels / group * kernel[0] * kernel[1])),
                     bias: nil, attributes: ConvAttributes(kernelShape: kernel, strides: [stride, stride],
                                                           dilations: [dilation, dilation], pads: [1, 1, 1, 1], group: group))
        }
        func algorithm(_ c: ConvCase, _ policy: WinogradPolicy = .measured) throws -> String {
            try KernelsBackend(winograd: policy).prepare(c.context()).algorithm
        }
        XCTAssertTrue(try algorithm(make(3, [3, 3], stride: 2)).hasPrefix("direct-smallc 3x3"))
        XCTAssertTrue(try algorithm(make(4, [5, 5])).hasPrefix("direct-smallc 5x5"))
        XCTAssertTrue(try algorithm(make(1, [3, 1])).hasPrefix("direct-smallc 3x1"))
        // Measured: with fewer than 25 taps and more than 32 output channels the GEMM is faster (SqueezeNet's conv0).
        XCTAssertTrue(try algorithm(make(3, [3, 3], stride: 2, outputs: 32)).hasPrefix("direct-smallc 3x3"))
        XCTAssertTrue(try algorithm(make(3, [3, 3], stride: 2, outputs: 64)).hasPrefix("im2col+gemm 3x3"))
        XCTAssertTrue(try algorithm(make(3, [5, 5], stride: 2, outputs: 64)).hasPrefix("direct-smallc 5x5"))
        // More than 4 channels, a 1×1 kernel, stride 3, dilation 2, groups: the GEMM (or depthwise) as before.
        XCTAssertTrue(try algorithm(make(5, [3, 3], stride: 2)).hasPrefix("im2col+gemm"))
        XCTAssertFalse(try algorithm(make(3, [1, 1])).hasPrefix("direct-smallc"))
        XCTAssertTrue(try algorithm(make(3, [3, 3], stride: 3)).hasPrefix("im2col+gemm"))
        XCTAssertTrue(try algorithm(make(3, [3, 3], dilation: 2)).hasPrefix("im2col+gemm"))
        XCTAssertTrue(try algorithm(make(4, [3, 3], group: 2)).hasPrefix("im2col+gemm"))
        // The policies `off` (GEMM everywhere) and forced Winograd keep their meaning.
        XCTAssertTrue(try algorithm(make(3, [3, 3], stride: 2), .off).hasPrefix("im2col+gemm"))
        XCTAssertTrue(try algorithm(make(3, [3, 3]), .forced(.winogradF4)).contains("winograd_f4"))
    }

    /// The C entry point refuses what it cannot run, and a workspace that is too small.
    func testBadParameters() {
        var params = fovea_conv2d_params(batch: 1, channels: 5, input_height: 4, input_width: 4, output_channels: 1,
                                         groups: 1, output_height: 2, output_width: 2, kernel_height: 3, kernel_width: 3,
                                         stride_height: 1, stride_width: 1, dilation_height: 1, dilation_width: 1,
                                         pad_top: 0, pad_left: 0)
        XCTAssertEqual(fovea_conv2d_smallc_supports(&params), 0, "5 input channels")
        XCTAssertEqual(fovea_conv2d_smallc_workspace_size(&params, 1), 0)
        XCTAssertNil(fovea_conv2d_smallc_kernel_name(&params))
        params.channels = 2
        XCTAssertEqual(fovea_conv2d_smallc_supports(&params), 1)
        let x = [Float](repeating: 1, count: 32), w = [Float](repeating: 1, count: 18)
        var y = [Float](repeating: 0, count: 4), workspace = [Float](repeating: 0, count: 1)
        let status = fovea_conv2d_smallc_f32(&params, w, nil, x, &y, 4, nil, &workspace, 4, nil)
        XCTAssertEqual(status, FOVEA_STATUS_BUFFER_TOO_SMALL)
        let size = fovea_conv2d_smallc_workspace_size(&params, 1)
        workspace = [Float](repeating: 0, count: size / 4)
        XCTAssertEqual(fovea_conv2d_smallc_f32(&params, w, nil, x, &y, 4, nil, &workspace, size, nil), FOVEA_STATUS_OK)
        XCTAssertEqual(y, [18, 18, 18, 18], "3×3 taps of 2 channels of ones")
    }
}
