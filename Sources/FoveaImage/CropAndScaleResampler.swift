import FoveaCore

/// Carries out a ``CropAndScaleGeometry`` on an image, one output row at a
/// time, with Pillow's separable bilinear filter: a horizontal pass over the
/// source rows the crop needs (rounded to 8 bits, as Pillow does), then a
/// vertical pass that hands each finished row to a sink. The sink writes the
/// row where it belongs: into an ``RGBImage`` or, normalized, into a tensor.
/// So the picture and the tensor come out of the same arithmetic, and the
/// tensor path never stores the intermediate 8-bit picture.
///
/// Both passes are split across `threads` by rows; memory is proportional to
/// the crop, never to the whole scaled image.
struct CropAndScaleResampler {
    let geometry: CropAndScaleGeometry
    /// `nil` when the width is not scaled.
    private let horizontal: ResamplingKernel?
    /// `nil` when the height is not scaled.
    private let vertical: ResamplingKernel?
    /// The source rows the crop reads.
    private let sourceRows: Range<Int>

    init(_ geometry: CropAndScaleGeometry) {
        self.geometry = geometry
        let outputRows = geometry.cropY..<(geometry.cropY + geometry.cropHeight)
        if !geometry.keepsHeight {
            let kernel = ResamplingKernel(inputSize: geometry.imageHeight, extent: geometry.sourceHeight,
                                          outputSize: geometry.scaledHeight, filter: .bilinear, outputs: outputRows)
            vertical = kernel
            sourceRows = kernel.inputRange
        } else {
            vertical = nil
            sourceRows = outputRows
        }
        if !geometry.keepsWidth {
            horizontal = ResamplingKernel(inputSize: geometry.imageWidth, extent: geometry.sourceWidth,
                                          outputSize: geometry.scaledWidth, filter: .bilinear,
                                          outputs: geometry.cropX..<(geometry.cropX + geometry.cropWidth))
        } else {
            horizontal = nil
        }
    }

    /// Calls `sink(y, row)` for every crop row `y` in `0..<cropHeight`, where
    /// `row` holds its `cropWidth × 3` interleaved RGB bytes (valid only during
    /// the call). With `threads > 1`, `sink` is called concurrently for
    /// different rows. `image` must have the geometry's image size (see
    /// ``CropAndScaleGeometry/validate(for:)``).
    func run(on image: RGBImage, threads: Int, sink: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        let rowLength = geometry.cropWidth * RGBImage.channelCount
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let horizontal else {
                // Rows are read in place, from the crop's first column.
                let stride = image.width * RGBImage.channelCount
                let first = pixels.baseAddress! + geometry.cropX * RGBImage.channelCount
                verticalPass(rows: first, stride: stride, firstRow: 0, rowLength: rowLength, threads: threads, sink: sink)
                return
            }
            var rows = [UInt8](repeating: 0, count: sourceRows.count * rowLength)
            rows.withUnsafeMutableBufferPointer { rows in
                let inputStride = image.width * RGBImage.channelCount
                ParallelRows.forEach(sourceRows.count, threads: threads) { range in
                    for r in range {
                        horizontal.resampleRow(pixels.baseAddress! + (sourceRows.lowerBound + r) * inputStride,
                                               into: rows.baseAddress! + r * rowLength)
                    }
                }
                verticalPass(rows: UnsafePointer(rows.baseAddress!), stride: rowLength, firstRow: sourceRows.lowerBound,
                             rowLength: rowLength, threads: threads, sink: sink)
            }
        }
    }

    /// `rows` points at source row `firstRow` (each `stride` bytes apart).
    private func verticalPass(rows: UnsafePointer<UInt8>, stride: Int, firstRow: Int, rowLength: Int, threads: Int,
                              sink: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        let height = geometry.cropHeight
        guard let vertical else {
            for y in 0..<height {
                sink(y, UnsafeBufferPointer(start: rows + (geometry.cropY + y - firstRow) * stride, count: rowLength))
            }
            return
        }
        ParallelRows.forEach(height, threads: threads) { range in
            let row = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: rowLength)
            defer { row.deallocate() }
            for y in range {
                vertical.resampleColumns(rows + (vertical.starts[y] - firstRow) * stride, stride: stride,
                                         tapsOf: y, length: rowLength, into: row.baseAddress!)
                sink(y, UnsafeBufferPointer(row))
            }
        }
    }
}

/// Splits `0..<count` rows into contiguous ranges, one per thread, run on
/// Fovea's worker threads (``RunContext/parallelFor(_:_:)``).
enum ParallelRows {
    /// Below this many rows per thread, one thread does it all (waking one costs more than it saves).
    static let minimumRowsPerThread = 16

    static func forEach(_ count: Int, threads: Int, _ body: (Range<Int>) -> Void) {
        let parts = min(max(1, threads), count / minimumRowsPerThread)
        guard parts > 1 else {
            if count > 0 { body(0..<count) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = SharedBody(body: body)
            RunContext(threads: parts).parallelFor(parts) { range in
                for part in range { shared.body((count * part / parts)..<(count * (part + 1) / parts)) }
            }
        }
    }

    /// The body, handed to the worker threads. Unchecked: `forEach` waits for
    /// them before it returns, and the callers write disjoint rows.
    private struct SharedBody: @unchecked Sendable {
        let body: (Range<Int>) -> Void
    }
}
