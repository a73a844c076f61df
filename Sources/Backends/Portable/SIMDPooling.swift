import FoveaCore

/// MaxPool and AveragePool over two spatial axes (NCHW float32), and the
/// global poolings over any number of spatial axes.
///
/// Windowed pooling copies each input plane once into a scratch plane that
/// already holds the padding (-inf for max, 0 for average: neither changes the
/// result, so padded taps need no test) and splits every row by column phase
/// `c mod stride`. Then for every kernel tap, 16 neighbouring outputs read 16
/// contiguous scratch values whatever the stride, and the kernel visits the
/// taps in the reference's order, so max pooling and the average's sums match
/// the reference exactly. Planes run in parallel.
enum SIMDPooling: SIMDOperatorFamily {
    typealias Vector = SIMDStepSupport.Vector

    static func supports(_ node: NodeContext) -> Bool {
        guard node.inputTypes.count == 1, SIMDStepSupport.isPlannedFloatNode(node),
              let x = node.inputType(0) else { return false }
        switch node.op {
        case .maxPool(let attributes), .averagePool(let attributes):
            // 1-D / 3-D windows and MaxPool's Indices output go to the reference.
            guard x.shape.count == 4 else { return false }
            let isMax: Bool
            if case .maxPool = node.op { isMax = true } else { isMax = false }
            return (try? WindowPlan(inputShape: x.shape, attributes: attributes, isMax: isMax)) != nil
        case .globalAveragePool, .globalMaxPool:
            return x.shape.count >= 2
        default:
            return false
        }
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        let shapes = try SIMDStepSupport.plannedShapes(node)
        guard let inputShape = shapes.first else {
            throw FoveaError(.invalidModel, "\(node.op.typeName) has no input")
        }
        switch node.op {
        case .maxPool(let attributes):
            if let direct = DirectMaxPoolPlan(inputShape: inputShape, attributes: attributes) {
                return DirectMaxPoolStep(plan: direct, label: try WindowPlan(inputShape: inputShape, attributes: attributes, isMax: true).label + " direct", inputShape: inputShape)
            }
            return WindowStep(plan: try WindowPlan(inputShape: inputShape, attributes: attributes, isMax: true))
        case .averagePool(let attributes):
            return WindowStep(plan: try WindowPlan(inputShape: inputShape, attributes: attributes, isMax: false))
        case .globalAveragePool, .globalMaxPool:
            guard inputShape.count >= 2 else {
                throw FoveaError(.shapeMismatch, "\(node.op.typeName) input is \(inputShape.shapeDescription); expected rank >= 2")
            }
            var isMax = false
            if case .globalMaxPool = node.op { isMax = true }
            return GlobalStep(inputShape: inputShape, isMax: isMax)
        default:
            throw FoveaError(.unsupported, "\(node.op.typeName) is not a pooling")
        }
    }

    // MARK: Windowed pooling

    /// Loop bounds and tables of a 2-D max or average pooling.
    struct WindowPlan: Sendable {
        let isMax: Bool
        let inputShape: [Int]
        /// N·C.
        let planes: Int
        let inputHeight: Int, inputWidth: Int
        let outputHeight: Int, outputWidth: Int
        let kernelHeight: Int, kernelWidth: Int
        let strideHeight: Int, strideWidth: Int
        let dilationHeight: Int
        let padTop: Int, padLeft: Int
        /// Scratch rows: every padded row some window reads.
        let scratchRows: Int
        /// Length of one column phase of a scratch row, with room for the
        /// last vector's unused lanes.
        let phaseLength: Int
        /// Per kernel column: offset of its tap within a scratch row.
        let tapOffsets: [Int]
        /// Average only: the divisor of every output, rows padded to a whole
        /// number of vectors (`divisorRowLength`); 0 for a window with no tap.
        let divisors: [Float]
        let divisorRowLength: Int
        let label: String

        var scratchRowLength: Int { strideWidth * phaseLength }
        var scratchCount: Int { scratchRows * scratchRowLength }
        var padValue: Float { isMax ? -.infinity : 0 }

        /// Scratch planes larger than this (absurd pads or strides) are left to the reference.
        static let scratchLimit = 1 << 24

        init(inputShape: [Int], attributes: PoolAttributes, isMax: Bool) throws {
            guard inputShape.count == 4 else {
                throw FoveaError(.unsupported, "simd pooling runs 2-D windows only; input is \(inputShape.shapeDescription)")
            }
            let g = try SpatialGeometry(inputSize: Array(inputShape.dropFirst(2)), pooling: attributes)
            let width = SIMDStepSupport.width
            self.isMax = isMax
            self.inputShape = inputShape
            planes = inputShape[0] * inputShape[1]
            (inputHeight, inputWidth) = (g.inputSize[0], g.inputSize[1])
            (outputHeight, outputWidth) = (g.outputSize[0], g.outputSize[1])
            (kernelHeight, kernelWidth) = (g.kernelShape[0], g.kernelShape[1])
            (strideHeight, strideWidth) = (g.strides[0], g.strides[1])
            dilationHeight = g.dilations[0]
            (padTop, padLeft) = (g.padsBegin[0], g.padsBegin[1])
            scratchRows = (outputHeight - 1) * strideHeight + g.dilatedKernel(0)
            let roundedWidth = (outputWidth + width - 1) / width * width
            let lastTap = (kernelWidth - 1) * g.dilations[1]
            phaseLength = roundedWidth + lastTap / strideWidth
            let (stride, phaseLength) = (strideWidth, phaseLength)
            tapOffsets = (0..<kernelWidth).map { kw in
                let column = kw * g.dilations[1]
                return (column % stride) * phaseLength + column / stride
            }
            guard strideWidth <= 64, scratchRows * strideWidth * phaseLength <= Self.scratchLimit else {
                throw FoveaError(.unsupported, "simd pooling: window geometry too large for a scratch plane")
            }
            divisorRowLength = roundedWidth
            if isMax {
                divisors = []
            } else {
                var divisors = [Float](repeating: 1, count: outputHeight * roundedWidth)
                for oh in 0..<outputHeight {
                    for ow in 0..<outputWidth {
                        let count = attributes.countIncludePad
                            ? g.paddedTapCount(axis: 0, output: oh) * g.paddedTapCount(axis: 1, output: ow)
                            : g.validTapRange(axis: 0, output: oh).count * g.validTapRange(axis: 1, output: ow).count
                        divisors[oh * roundedWidth + ow] = Float(count)
                    }
                }
                self.divisors = divisors
            }
            var label = "\(isMax ? "maxpool" : "avgpool") \(kernelHeight)x\(kernelWidth)/\(strideHeight == strideWidth ? "\(strideWidth)" : "\(strideHeight)x\(strideWidth)")"
            if g.dilations != [1, 1] { label += " dilated" }
            self.label = label
        }
    }

    struct WindowStep: PreparedStep {
        let plan: WindowPlan
        var algorithm: String { plan.label }
        var writesStridedOutput: Bool { true }

        /// Elements touched, for the thread count.
        private var work: Int {
            plan.planes * (plan.inputHeight * plan.inputWidth + plan.outputHeight * plan.outputWidth * plan.kernelHeight * plan.kernelWidth)
        }

        /// One scratch plane per chunk.
        func workspaceBytes(threads: Int) -> Int {
            SIMDStepSupport.workspaceBytes(slices: SIMDStepSupport.chunkCount(threads: threads, count: plan.planes, work: work),
                                           floats: plan.scratchCount)
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let p = plan
            let source = SIMDStepSupport.SharedInput(try buffers.input(0, p.isMax ? "MaxPool" : "AveragePool"))
            guard p.planes > 0 else { return }
            let out = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let workspace = SIMDStepSupport.SharedOutput(base: try buffers.floatWorkspace(p.isMax ? "MaxPool" : "AveragePool"))
            let channels = p.inputShape[1]
            let inputPlane = p.inputHeight * p.inputWidth, outputPlane = p.outputHeight * p.outputWidth
            let slice = SIMDStepSupport.alignedFloats(p.scratchCount)
            SIMDStepSupport.parallelChunks(context, count: p.planes, work: work) { chunk, range in
                // One scratch plane per chunk, reused for its planes.
                let scratch = workspace.base + chunk * slice
                for plane in range {
                    let y = out.image(plane / channels) + plane % channels * outputPlane
                    SIMDPooling.fillScratch(p, source.base + plane * inputPlane, scratch)
                    if p.isMax {
                        SIMDPooling.maxPlane(p, scratch, y)
                    } else {
                        SIMDPooling.averagePlane(p, scratch, y)
                    }
                }
            }
        }
    }

    /// Max pooling without padding: see ``DirectMaxPoolPlan``.
    struct DirectMaxPoolStep: PreparedStep {
        let plan: DirectMaxPoolPlan
        let label: String
        let inputShape: [Int]
        var algorithm: String { label }
        var writesStridedOutput: Bool { true }

        private var work: Int {
            plan.planes * (plan.inputHeight * plan.inputWidth + plan.outputHeight * plan.outputWidth * plan.kernelHeight)
        }

        /// One scratch block of row maxima per chunk.
        func workspaceBytes(threads: Int) -> Int {
            SIMDStepSupport.workspaceBytes(slices: SIMDStepSupport.chunkCount(threads: threads, count: plan.planes, work: work),
                                           floats: plan.scratchCount)
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let p = plan
            let x = try buffers.input(0, "MaxPool")
            guard p.planes > 0 else { return }
            let source = SIMDStepSupport.SharedInput(x)
            let out = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let workspace = SIMDStepSupport.SharedOutput(base: try buffers.floatWorkspace("MaxPool"))
            let channels = inputShape[1]
            let inputPlane = p.inputHeight * p.inputWidth, outputPlane = p.outputHeight * p.outputWidth
            let total = x.count
            let slice = SIMDStepSupport.alignedFloats(p.scratchCount)
            SIMDStepSupport.parallelChunks(context, count: p.planes, work: work) { chunk, range in
                let scratch = workspace.base + chunk * slice
                for plane in range {
                    p.pool(source.base + plane * inputPlane, end: source.base + total, scratch: scratch,
                           into: out.image(plane / channels) + plane % channels * outputPlane)
                }
            }
        }
    }

    /// Writes the padded, phase-split copy of one input plane:
    /// scratch row `r`, phase `q`, element `j` is padded input `(r, q + stride·j)`.
    static func fillScratch(_ p: WindowPlan, _ input: UnsafePointer<Float>, _ scratch: UnsafeMutablePointer<Float>) {
        let stride = p.strideWidth, phaseLength = p.phaseLength
        for r in 0..<p.scratchRows {
            let row = scratch + r * p.scratchRowLength
            let ih = r - p.padTop
            guard ih >= 0, ih < p.inputHeight else {
                row.initialize(repeating: p.padValue, count: p.scratchRowLength)
                continue
            }
            let source = input + ih * p.inputWidth
            for phase in 0..<stride {
                let destination = row + phase * phaseLength
                // Input column of element j: phase + stride·j - padLeft, valid in 0 ..< inputWidth.
                let first = Swift.min(phaseLength, Swift.max(0, SpatialGeometry.ceilDivide(p.padLeft - phase, stride)))
                let end = Swift.min(phaseLength, Swift.max(first, SpatialGeometry.floorDivide(p.padLeft + p.inputWidth - 1 - phase, stride) + 1))
                destination.initialize(repeating: p.padValue, count: first)
                if stride == 1 {
                    destination.advanced(by: first).initialize(from: source + (first - p.padLeft), count: end - first)
                } else {
                    var column = phase + stride * first - p.padLeft
                    for j in first..<end {
                        destination[j] = source[column]
                        column += stride
                    }
                }
                destination.advanced(by: end).initialize(repeating: p.padValue, count: phaseLength - end)
            }
        }
    }

    /// Max over each window, starting from the lowest finite float as the
    /// reference does (so a window of only -inf, NaN or padding gives it).
    static func maxPlane(_ p: WindowPlan, _ scratch: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<Float>) {
        let width = SIMDStepSupport.width
        for oh in 0..<p.outputHeight {
            let outputRow = output + oh * p.outputWidth
            var ow = 0
            while ow < p.outputWidth {
                var best = Vector(repeating: -.greatestFiniteMagnitude)
                for kh in 0..<p.kernelHeight {
                    let row = UnsafePointer(scratch + (oh * p.strideHeight + kh * p.dilationHeight) * p.scratchRowLength + ow)
                    for offset in p.tapOffsets {
                        let v = SIMDStepSupport.load(row + offset)
                        // `v > best`: NaN and -inf never win, the first of equal values stays.
                        best = best.replacing(with: v, where: v .> best)
                    }
                }
                let lanes = Swift.min(width, p.outputWidth - ow)
                if lanes == width { SIMDStepSupport.store(best, outputRow + ow) } else { SIMDStepSupport.storePartial(best, outputRow + ow, lanes) }
                ow += width
            }
        }
    }

    /// Sum over each window (padding adds 0) divided by the window's divisor.
    static func averagePlane(_ p: WindowPlan, _ scratch: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<Float>) {
        let width = SIMDStepSupport.width
        p.divisors.withUnsafeBufferPointer { divisorBuffer in
            guard let divisors = divisorBuffer.baseAddress else { return }
            for oh in 0..<p.outputHeight {
                let outputRow = output + oh * p.outputWidth
                var ow = 0
                while ow < p.outputWidth {
                    var sum = Vector()
                    for kh in 0..<p.kernelHeight {
                        let row = UnsafePointer(scratch + (oh * p.strideHeight + kh * p.dilationHeight) * p.scratchRowLength + ow)
                        for offset in p.tapOffsets {
                            sum += SIMDStepSupport.load(row + offset)
                        }
                    }
                    let divisor = SIMDStepSupport.load(divisors + oh * p.divisorRowLength + ow)
                    let average = (sum / divisor).replacing(with: 0, where: divisor .== 0)
                    let lanes = Swift.min(width, p.outputWidth - ow)
                    if lanes == width { SIMDStepSupport.store(average, outputRow + ow) } else { SIMDStepSupport.storePartial(average, outputRow + ow, lanes) }
                    ow += width
                }
            }
        }
    }

    // MARK: Global pooling

    struct GlobalStep: PreparedStep {
        let inputShape: [Int]
        let isMax: Bool
        var algorithm: String { isMax ? "global max" : "global average" }
        var writesStridedOutput: Bool { true }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, isMax ? "GlobalMaxPool" : "GlobalAveragePool")
            let source = SIMDStepSupport.SharedInput(x)
            let out = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let channels = inputShape[1]
            let planes = inputShape[0] * channels
            let planeSize = inputShape.dropFirst(2).reduce(1, *)
            let isMax = self.isMax
            SIMDStepSupport.parallelFor(context, count: planes, work: x.count) { range in
                for plane in range {
                    let values = source.base + plane * planeSize
                    out.image(plane / channels)[plane % channels] = isMax ? SIMDPooling.maximum(values, planeSize)
                                                                          : SIMDPooling.sum(values, planeSize) / Float(planeSize)
                }
            }
        }
    }

    /// The sum of `count` values, in 16 running lanes.
    static func sum(_ values: UnsafePointer<Float>, _ count: Int) -> Float {
        let width = SIMDStepSupport.width
        var lanes = Vector(), i = 0
        while i + width <= count {
            lanes += SIMDStepSupport.load(values + i)
            i += width
        }
        var total = lanes.sum()
        while i < count { total += values[i]; i += 1 }
        return total
    }

    /// The largest of `count` values from -inf with `Swift.max`'s rule
    /// (`v >= best` wins), as the reference folds: NaN is skipped.
    static func maximum(_ values: UnsafePointer<Float>, _ count: Int) -> Float {
        let width = SIMDStepSupport.width
        var lanes = Vector(repeating: -.infinity), i = 0
        while i + width <= count {
            let v = SIMDStepSupport.load(values + i)
            lanes = lanes.replacing(with: v, where: v .>= lanes)
            i += width
        }
        var best = lanes.max()
        while i < count { best = Swift.max(best, values[i]); i += 1 }
        return best
    }
}
