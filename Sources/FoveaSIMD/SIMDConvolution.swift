import FoveaCore
import FoveaElementwiseKernels

/// 2-D NCHW float32 convolution: packed GEMM for 1x1 and k×k kernels (im2col),
/// a direct loop for depthwise convolutions. Anything else (1-D/3-D, other
/// data types, weights that are not constants) is declined, so the planner
/// falls back to the reference backend.
enum SIMDConvolution: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? layout(node)) != nil
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        let layout = try layout(node)
        guard let weights = node.constant(1) else {
            throw FoveaError(.unsupported, "the simd Conv needs constant weights (input 1)")
        }
        let weightValues = try weights.requireFloats("W")
        let bias = try node.constant(2)?.requireFloats("B")
        let kernels = try GemmKernelSet.current()
        var activation: FusedActivation?, addsResidual = false
        if case .conv(let attributes) = node.op { (activation, addsResidual) = (attributes.activation, attributes.addsResidual) }
        if layout.isDepthwise {
            // No bias input: the kernel adds zeros, allocated once here rather than per run.
            let preparedBias = node.inputType(2) == nil ? [Float](repeating: 0, count: layout.outputChannels) : bias
            return DepthwiseConvolutionStep(layout: layout, weights: weightValues, bias: preparedBias, activation: activation, kernels: kernels)
        }
        return GemmConvolutionStep(layout: layout, weights: weightValues, bias: bias, runTimeBias: node.inputType(2) != nil,
                                   activation: activation, addsResidual: addsResidual, kernels: kernels)
    }

    /// The node's shape if this family runs it; throws (with the reason) otherwise.
    static func layout(_ node: NodeContext) throws -> ConvolutionLayout {
        guard case .conv(let attributes) = node.op else {
            throw FoveaError(.unsupported, "not a Conv")
        }
        guard let x = node.inputType(0), let w = node.inputType(1), let y = node.outputTypes.first,
              x.dataType == .float32, w.dataType == .float32, y.dataType == .float32,
              x.shape.count == 4, w.shape.count == 4, y.shape.count == 4,
              let weights = node.constant(1), weights.shape == w.shape, weights.dataType == .float32 else {
            throw FoveaError(.unsupported, "the simd Conv runs 2-D float32 NCHW convolutions with constant weights")
        }
        let group = attributes.group
        let channels = x.shape[1], outputChannels = w.shape[0]
        guard group >= 1, channels % group == 0, outputChannels % group == 0,
              w.shape[1] * group == channels, x.shape.allSatisfy({ $0 >= 1 }), w.shape.allSatisfy({ $0 >= 1 }) else {
            throw FoveaError(.shapeMismatch, "Conv shapes X \(x.shape) and W \(w.shape) do not fit group \(group)")
        }
        if let b = node.inputType(2) {
            guard b.dataType == .float32, b.shape == [outputChannels] else {
                throw FoveaError(.shapeMismatch, "Conv bias has shape \(b.shape); expected [\(outputChannels)]")
            }
            if let constant = node.constant(2), constant.shape != b.shape || constant.dataType != .float32 {
                throw FoveaError(.shapeMismatch, "Conv bias constant does not match its type")
            }
        }
        let geometry = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), convolution: attributes, weightShape: w.shape)
        guard geometry.rank == 2, geometry.kernelShape == Array(w.shape.dropFirst(2)) else {
            throw FoveaError(.shapeMismatch, "Conv kernel_shape \(geometry.kernelShape) does not match W \(w.shape)")
        }
        let layout = ConvolutionLayout(
            batch: x.shape[0], channels: channels, inputHeight: x.shape[2], inputWidth: x.shape[3],
            outputChannels: outputChannels, group: group,
            kernelHeight: geometry.kernelShape[0], kernelWidth: geometry.kernelShape[1],
            strideHeight: geometry.strides[0], strideWidth: geometry.strides[1],
            dilationHeight: geometry.dilations[0], dilationWidth: geometry.dilations[1],
            padTop: geometry.padsBegin[0], padLeft: geometry.padsBegin[1],
            outputHeight: geometry.outputSize[0], outputWidth: geometry.outputSize[1])
        guard y.shape == layout.outputShape else {
            throw FoveaError(.shapeMismatch, "Conv output is planned as \(y.shape); expected \(layout.outputShape)")
        }
        // The GEMM starts from a fused residual; the depthwise loop has no such start.
        if attributes.addsResidual {
            guard !layout.isDepthwise else { throw FoveaError(.unsupported, "the simd Conv adds a residual on its GEMM path only") }
            try node.checkResidualMatchesOutput("simd")
        }
        return layout
    }
}

/// Convolution as one GEMM per (image, group): `Y[m, n] = Σ_p W[m, p] · B[p, n]`
/// with B the im2col matrix, or the input planes themselves for a 1x1
/// stride-1 unpadded kernel. Weights are packed once, here.
struct GemmConvolutionStep: PreparedStep {
    let layout: ConvolutionLayout
    let kernels: GemmKernelSet
    let algorithm: String
    /// Packed A panels for each group, `groupStride` floats apart.
    private let packedWeights: [Float]
    private let groupStride: Int
    /// The constant bias padded to whole row panels per group, if constant.
    private let paddedBias: [Float]?
    /// The bias is input 2 at run time: padded into the workspace on each run.
    private let hasRunTimeBias: Bool
    private let im2col: Im2colPacker
    /// Applied by the GEMM tiles of the last reduction pass, before they are stored.
    private let activation: KernelActivation
    /// An activation the tiles do not apply (SiLU, GELU, ...): run over each
    /// output block right after its last pass, while the block is in cache.
    private let postActivation: UnaryKernelFunction?
    /// Input 3 is a residual: the output starts from it and every pass accumulates.
    private let addsResidual: Bool

    /// Each (image, group) writes its own output planes from `outputs[0].image(n)`.
    var writesStridedOutput: Bool { true }

    /// The output may be placed over the residual: each element is read (as
    /// the tile's starting value) before the tile that holds it is stored.
    var overwritableInput: Int? { addsResidual ? 3 : nil }

    /// Reduction depth per GEMM pass. Measured on Zen 5: 1024 (no split for any
    /// SqueezeNet layer) was 3-6% faster than 256 (an L1-sized 32 KB B panel).
    static let reductionBlock = 1024

    init(layout: ConvolutionLayout, weights: [Float], bias: [Float]?, runTimeBias: Bool = false,
         activation: FusedActivation? = nil, addsResidual: Bool = false, kernels: GemmKernelSet) {
        self.layout = layout
        self.addsResidual = addsResidual
        hasRunTimeBias = bias == nil && runTimeBias
        self.kernels = kernels
        self.activation = KernelActivation(activation)
        postActivation = activation.flatMap { UnaryKernelFunction($0) }
        let k = layout.reduction, rows = layout.groupOutputs
        let groupStride = GemmPacking.packedACount(rows: rows, k: k)
        self.groupStride = groupStride
        var packed = [Float](repeating: 0, count: groupStride * layout.group)
        weights.withUnsafeBufferPointer { w in
            packed.withUnsafeMutableBufferPointer { out in
                guard let w = w.baseAddress, let out = out.baseAddress else { return }
                for g in 0..<layout.group {
                    GemmPacking.packA(rows: rows, k: k, source: w + g * rows * k, rowStride: k, columnStride: 1,
                                      into: out + g * groupStride)
                }
            }
        }
        packedWeights = packed
        paddedBias = bias.map { Self.padBias($0, layout) }
        im2col = Im2colPacker(layout)
        let kernel = "\(layout.kernelHeight)x\(layout.kernelWidth)"
        let suffix = "8x32 \(kernels.isa)"
        algorithm = (layout.isPointwise ? "gemm 1x1 \(suffix)" : "im2col+gemm \(kernel) \(suffix)")
            + ConvAttributes.fusionSuffix(addsResidual: addsResidual, activation: activation)
    }

    /// One bias value per row of every group's row panels (zeros in the padding rows).
    static func padBias(_ bias: [Float], _ layout: ConvolutionLayout) -> [Float] {
        var out = [Float](repeating: 0, count: paddedBiasCount(layout))
        bias.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination in
                guard let source = source.baseAddress, let destination = destination.baseAddress else { return }
                padBias(source, layout, into: destination)
            }
        }
        return out
    }

    static func paddedBiasCount(_ layout: ConvolutionLayout) -> Int {
        GemmPacking.rowPanels(layout.groupOutputs) * GemmKernelSet.tileRows * layout.group
    }

    static func padBias(_ bias: UnsafePointer<Float>, _ layout: ConvolutionLayout, into out: UnsafeMutablePointer<Float>) {
        let rows = layout.groupOutputs
        let padded = GemmPacking.rowPanels(rows) * GemmKernelSet.tileRows
        out.update(repeating: 0, count: padded * layout.group)
        for g in 0..<layout.group {
            for r in 0..<rows { out[g * padded + r] = bias[g * rows + r] }
        }
    }

    /// How a run on `threads` threads splits the work.
    private struct Schedule {
        /// Column panels per work item.
        var blockPanels: Int
        var blocksPerImage: Int
        /// Output-channel chunks of a 1x1 convolution: more than 1 runs ``runSplit``.
        var rowChunks: Int
    }

    private func schedule(threads: Int) -> Schedule {
        let l = layout
        let k = l.reduction
        let panels = GemmPacking.columnPanels(l.outputPlane)
        // Panels per work item: a B block of at most 256 KB (L2), and at least
        // two items per thread when the images and groups alone are too few.
        let images = l.batch * l.group
        let itemsWanted = (2 * threads + images - 1) / images
        var cappedPanels = max(1, min(panels, (64 * 1024) / (k * GemmKernelSet.tileColumns),
                                     (panels + itemsWanted - 1) / itemsWanted))
        if threads > 1, images == 1 {
            // Shrink the blocks until their count is a multiple of the thread
            // count, so that `parallelFor`'s contiguous chunks get equal numbers
            // of them (13×13 = 6 panels: 6 blocks of 1, not 3 blocks of 2).
            while cappedPanels > 1, ((panels + cappedPanels - 1) / cappedPanels) % threads != 0 {
                cappedPanels -= 1
            }
        }
        let blockPanels = cappedPanels
        let blocksPerImage = (panels + blockPanels - 1) / blockPanels
        // Fewer column blocks than two per thread (13x13 layers have only 6
        // panels): split the output channels of a 1x1 convolution as well,
        // again into a multiple of the thread count. Measured slower, so not
        // done: splitting larger layers (the up-front packing of all panels
        // no longer stays in L2) and 13x13 3x3 layers (the extra parallel
        // im2col pass costs more than the better balance wins).
        let rowPanels = GemmPacking.rowPanels(l.groupOutputs)
        let blockItems = images * blocksPerImage
        let chunksWanted = (4 * threads + blockItems - 1) / blockItems
        let rowChunks = threads > 1 && l.isPointwise && blockItems < 2 * threads
            ? min(rowPanels, (chunksWanted + threads - 1) / threads * threads) : 1
        return Schedule(blockPanels: blockPanels, blocksPerImage: blocksPerImage, rowChunks: rowChunks)
    }

    /// Floats of the padded run-time bias at the start of the workspace (0 for a constant or no bias).
    private var runBiasFloats: Int {
        hasRunTimeBias ? SIMDStepSupport.alignedFloats(Self.paddedBiasCount(layout)) : 0
    }

    /// Scratch floats after the bias: one B block per chunk, or (split runs)
    /// every packed panel of every image.
    private func scratchFloats(_ s: Schedule, threads: Int) -> Int {
        let l = layout
        let panelFloats = l.reduction * GemmKernelSet.tileColumns
        let images = l.batch * l.group
        if s.rowChunks > 1 {
            let packedPerImage = GemmPacking.columnPanels(l.outputPlane) - packedPanelStart
            return images * packedPerImage * panelFloats
        }
        let chunks = min(threads, images * s.blocksPerImage)
        return chunks * SIMDStepSupport.alignedFloats(s.blockPanels * panelFloats)
    }

    /// The schedule changes with the thread count, so the largest need of any
    /// run with up to `threads` threads.
    func workspaceBytes(threads: Int) -> Int {
        let scratch = (1...max(1, threads)).map { scratchFloats(schedule(threads: $0), threads: $0) }.max() ?? 0
        return (runBiasFloats + scratch) * MemoryLayout<Float>.stride
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "Conv")
        let output = buffers.outputs[0]
        let workspace = try buffers.floatWorkspace("Conv")
        if addsResidual { try buffers.startFromResidual("Conv") }
        if hasRunTimeBias {
            Self.padBias(try buffers.input(2, "Conv").floats, layout, into: workspace)
        }
        let scratch = GemmSharedPointer(base: workspace + runBiasFloats)
        packedWeights.withUnsafeBufferPointer { weights in
            (paddedBias ?? []).withUnsafeBufferPointer { constantBias in
                guard let w = weights.baseAddress else { return }
                let bias = hasRunTimeBias ? UnsafePointer(workspace) : paddedBias == nil ? nil : constantBias.baseAddress
                let shared = GemmConvolutionOperands(
                    x: GemmSharedReadPointer(base: x.floats), w: GemmSharedReadPointer(base: w),
                    y: GemmSharedPointer(base: output.floats), yBatchStride: output.batchStride,
                    bias: bias.map { GemmSharedReadPointer(base: $0) })
                compute(shared, scratch: scratch, context: context)
            }
        }
    }

    /// Packs B blocks into per-chunk scratch slices and runs the GEMM on them.
    private func compute(_ shared: GemmConvolutionOperands, scratch: GemmSharedPointer, context: RunContext) {
        let l = layout
        let k = l.reduction
        let panels = GemmPacking.columnPanels(l.outputPlane)
        let images = l.batch * l.group
        let s = schedule(threads: context.threads)
        let (blockPanels, blocksPerImage) = (s.blockPanels, s.blocksPerImage)
        if s.rowChunks > 1 {
            runSplit(shared, images: images, blockPanels: blockPanels, rowChunks: s.rowChunks, scratch: scratch, context: context)
            return
        }
        let rowPanels = GemmPacking.rowPanels(l.groupOutputs)
        let slice = SIMDStepSupport.alignedFloats(blockPanels * k * GemmKernelSet.tileColumns)
        context.parallelChunks(images * blocksPerImage) { chunk, items in
            let packed = scratch.base + chunk * slice
            for item in items {
                let image = item / blocksPerImage, block = item % blocksPerImage
                let firstPanel = block * blockPanels
                let panelCount = min(blockPanels, panels - firstPanel)
                let operands = imageOperands(shared, image: image)
                pack(x: operands.x, firstPanel: firstPanel, panelCount: panelCount, into: packed)
                runColumns(operands, rowPanels: 0..<rowPanels, firstPanel: firstPanel, panelCount: panelCount,
                           packed: packed, firstPacked: max(firstPanel, packedPanelStart))
            }
        }
    }

    /// Packs every (image, column panel) into one shared scratch in parallel,
    /// then runs the GEMM over (image, row chunk, column block) items, so each
    /// column panel is packed once however many row chunks read it. Every
    /// output tile still sees the same kernel calls over `k`, so the result
    /// does not depend on the split.
    private func runSplit(_ shared: GemmConvolutionOperands, images: Int, blockPanels: Int, rowChunks: Int,
                          scratch sharedScratch: GemmSharedPointer, context: RunContext) {
        let l = layout
        let k = l.reduction, width = GemmKernelSet.tileColumns
        let panels = GemmPacking.columnPanels(l.outputPlane)
        let firstPacked = packedPanelStart
        let packedPerImage = panels - firstPacked
        let panelFloats = k * width
        context.parallelFor(images * packedPerImage) { items in
            for item in items {
                let image = item / packedPerImage, panel = item % packedPerImage
                pack(x: imageOperands(shared, image: image).x, firstPanel: firstPacked + panel, panelCount: 1,
                     into: sharedScratch.base + item * panelFloats)
            }
        }
        let rowPanels = GemmPacking.rowPanels(l.groupOutputs)
        let blocksPerImage = (panels + blockPanels - 1) / blockPanels
        let itemsPerImage = rowChunks * blocksPerImage
        context.parallelFor(images * itemsPerImage) { items in
            for item in items {
                let image = item / itemsPerImage
                let chunk = (item % itemsPerImage) / blocksPerImage, block = item % blocksPerImage
                let rows = (rowPanels * chunk / rowChunks)..<(rowPanels * (chunk + 1) / rowChunks)
                let firstPanel = block * blockPanels
                runColumns(imageOperands(shared, image: image), rowPanels: rows, firstPanel: firstPanel,
                           panelCount: min(blockPanels, panels - firstPanel),
                           packed: sharedScratch.base + image * packedPerImage * panelFloats, firstPacked: firstPacked)
            }
        }
    }

    /// The first column panel that must be packed: a 1x1 convolution reads
    /// whole panels of its input planes in place.
    private var packedPanelStart: Int {
        layout.isPointwise ? layout.outputPlane / GemmKernelSet.tileColumns : 0
    }

    /// One (image, group)'s input planes, packed weights, padded bias and output planes.
    private func imageOperands(_ shared: GemmConvolutionOperands, image: Int) -> GemmImageOperands {
        let l = layout
        let n = image / l.group, g = image % l.group
        return GemmImageOperands(
            x: shared.x.base + (n * l.channels + g * l.groupChannels) * l.inputPlane,
            weights: shared.w.base + g * groupStride,
            bias: shared.bias.map { $0.base + g * GemmPacking.rowPanels(l.groupOutputs) * GemmKernelSet.tileRows },
            y: shared.y.base + n * shared.yBatchStride + g * l.groupOutputs * l.outputPlane)
    }

    /// Packs the panels of `firstPanel ..< firstPanel + panelCount` that are
    /// not read in place, as panels `max(firstPanel, packedPanelStart)...` one after another.
    private func pack(x: UnsafePointer<Float>, firstPanel: Int, panelCount: Int, into scratch: UnsafeMutablePointer<Float>) {
        let l = layout
        let first = max(firstPanel, packedPanelStart)
        let count = firstPanel + panelCount - first
        guard count > 0 else { return }
        if l.isPointwise {
            GemmPacking.packB(k: l.reduction, columns: l.outputPlane, firstPanel: first, panelCount: count,
                              source: x, rowStride: l.outputPlane, columnStride: 1, into: scratch)
        } else {
            im2col.pack(x: x, firstPanel: first, panelCount: count, into: scratch)
        }
    }

    /// Output rows of `rowPanels` (8 per panel) and columns `32 × firstPanel ..< 32 × (firstPanel + panelCount)`
    /// of one (image, group). Panels before `packedPanelStart` are read in
    /// place; the others from `packed`, whose first panel is `firstPacked`.
    private func runColumns(_ operands: GemmImageOperands, rowPanels: Range<Int>, firstPanel: Int, panelCount: Int,
                            packed: UnsafeMutablePointer<Float>, firstPacked: Int) {
        let l = layout
        let k = l.reduction, positions = l.outputPlane
        let width = GemmKernelSet.tileColumns, tileRows = GemmKernelSet.tileRows
        guard !rowPanels.isEmpty else { return }
        let firstRow = rowPanels.lowerBound * tileRows
        let rows = min(rowPanels.count * tileRows, l.groupOutputs - firstRow)
        let weights = operands.weights + rowPanels.lowerBound * k * tileRows
        let bias = operands.bias.map { $0 + firstRow }
        let y = operands.y + firstRow * positions
        let directPanels = max(0, min(panelCount, packedPanelStart - firstPanel))
        if directPanels > 0 {
            runPasses(k: k, weights: weights, rows: rows, rowPanels: rowPanels.count, b: operands.x + firstPanel * width,
                      ldb: positions, bPanelStride: width, panelCount: directPanels,
                      columns: directPanels * width, bias: bias, y: y + firstPanel * width, ldc: positions)
        }
        let remaining = panelCount - directPanels
        guard remaining > 0 else { return }
        let first = firstPanel + directPanels
        runPasses(k: k, weights: weights, rows: rows, rowPanels: rowPanels.count,
                  b: packed + (first - firstPacked) * k * width, ldb: width,
                  bPanelStride: k * width, panelCount: remaining,
                  columns: min(remaining * width, positions - first * width),
                  bias: bias, y: y + first * width, ldc: positions)
    }

    /// The GEMM in passes of `reductionBlock` rows of B; the first pass adds
    /// the bias (and starts from the output's residual, if fused), the last
    /// applies the fused activation.
    private func runPasses(k: Int, weights: UnsafePointer<Float>, rows: Int, rowPanels: Int,
                           b: UnsafePointer<Float>, ldb: Int, bPanelStride: Int, panelCount: Int, columns: Int,
                           bias: UnsafePointer<Float>?, y: UnsafeMutablePointer<Float>, ldc: Int) {
        var start = 0
        while start < k {
            let depth = min(Self.reductionBlock, k - start)
            kernels.gemmTiles(depth, weights + start * GemmKernelSet.tileRows, k * GemmKernelSet.tileRows, rowPanels, rows,
                              b + start * ldb, ldb, bPanelStride, panelCount, columns,
                              y, ldc, start == 0 ? bias : nil, start > 0 || addsResidual,
                              start + depth == k ? activation : .none)
            start += depth
        }
        if let postActivation {
            for row in 0..<rows {
                _ = postActivation.apply(count: columns, y + row * ldc, y + row * ldc, pool: nil)
            }
        }
    }
}

/// The pointers a convolution run shares between its parallel work items.
struct GemmConvolutionOperands: Sendable {
    let x: GemmSharedReadPointer
    let w: GemmSharedReadPointer
    let y: GemmSharedPointer
    /// Output elements from one image to the next (more than one image when strided).
    let yBatchStride: Int
    let bias: GemmSharedReadPointer?
}

/// One (image, group)'s slice of ``GemmConvolutionOperands``.
struct GemmImageOperands {
    let x: UnsafePointer<Float>
    let weights: UnsafePointer<Float>
    let bias: UnsafePointer<Float>?
    let y: UnsafeMutablePointer<Float>
}
