import Testing
@testable import FoveaCore

/// A table of 1-D geometries: (input, kernel, stride, dilation, pads, auto_pad, ceil) →
/// (output, pad begin, pad end). Each row is worked out by hand from the ONNX
/// formulas (see SpatialGeometry's documentation); the shapes match the ONNX
/// conformance tests named in the comments.
struct SpatialGeometryTable {
    struct Row: Sendable, CustomTestStringConvertible {
        var input: Int, kernel: Int, stride: Int, dilation: Int, pads: [Int], autoPad: AutoPad, ceil: Bool
        var output: Int, begin: Int, end: Int
        var testDescription: String { "in \(input) k \(kernel) s \(stride) d \(dilation) pads \(pads) \(autoPad.rawValue) ceil \(ceil)" }
    }

    static let rows: [Row] = [
        Row(input: 32, kernel: 2, stride: 1, dilation: 1, pads: [0, 0], autoPad: .notSet, ceil: false, output: 31, begin: 0, end: 0), // maxpool_2d_default
        Row(input: 28, kernel: 3, stride: 1, dilation: 1, pads: [2, 2], autoPad: .notSet, ceil: false, output: 30, begin: 2, end: 2), // maxpool_2d_pads
        Row(input: 32, kernel: 5, stride: 3, dilation: 1, pads: [0, 0], autoPad: .notSet, ceil: false, output: 10, begin: 0, end: 0), // maxpool_2d_strides
        Row(input: 4, kernel: 2, stride: 1, dilation: 2, pads: [0, 0], autoPad: .notSet, ceil: false, output: 2, begin: 0, end: 0),   // maxpool_2d_dilations
        Row(input: 4, kernel: 3, stride: 2, dilation: 1, pads: [0, 0], autoPad: .notSet, ceil: true, output: 2, begin: 0, end: 0),    // maxpool_2d_ceil
        Row(input: 32, kernel: 2, stride: 1, dilation: 1, pads: [0, 0], autoPad: .sameLower, ceil: false, output: 32, begin: 1, end: 0), // maxpool_2d_same_lower
        Row(input: 32, kernel: 2, stride: 1, dilation: 1, pads: [0, 0], autoPad: .sameUpper, ceil: false, output: 32, begin: 0, end: 1), // averagepool_2d_same_upper
        Row(input: 5, kernel: 3, stride: 2, dilation: 1, pads: [0, 0], autoPad: .sameUpper, ceil: false, output: 3, begin: 1, end: 1),  // maxpool_2d_precomputed_same_upper
        Row(input: 5, kernel: 3, stride: 2, dilation: 1, pads: [0, 0], autoPad: .valid, ceil: false, output: 2, begin: 0, end: 0),
        Row(input: 5, kernel: 3, stride: 2, dilation: 1, pads: [0, 0], autoPad: .valid, ceil: true, output: 2, begin: 0, end: 0),      // ceil((5-3)/2)+1
        Row(input: 6, kernel: 3, stride: 2, dilation: 1, pads: [1, 1], autoPad: .notSet, ceil: true, output: 4, begin: 1, end: 1),     // ceil(5/2)+1 = 4, last starts at 5 < 7
        Row(input: 6, kernel: 2, stride: 3, dilation: 1, pads: [0, 1], autoPad: .notSet, ceil: true, output: 2, begin: 0, end: 1),     // third window would start in the pad
        Row(input: 7, kernel: 3, stride: 2, dilation: 2, pads: [0, 0], autoPad: .sameLower, ceil: false, output: 4, begin: 2, end: 2),
        Row(input: 1, kernel: 1, stride: 5, dilation: 1, pads: [0, 0], autoPad: .sameUpper, ceil: false, output: 1, begin: 0, end: 0),
    ]

    @Test(arguments: rows)
    func geometry(_ row: Row) throws {
        let g = try SpatialGeometry(inputSize: [row.input], kernelShape: [row.kernel], strides: [row.stride],
                                    dilations: [row.dilation], pads: row.pads, autoPad: row.autoPad, ceilMode: row.ceil)
        #expect(g.outputSize == [row.output])
        #expect(g.padsBegin == [row.begin])
        #expect(g.padsEnd == [row.end])
    }
}
