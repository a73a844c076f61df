/// Running one step on owned tensors, outside any plan: for tests, tools and
/// one-off evaluation. It allocates the outputs and the workspace on every
/// call; ``ExecutionPlan`` never uses it.
extension PreparedStep {
    /// Runs the step on `inputs` and returns one tensor per planned output.
    ///
    /// - Parameters:
    ///   - inputs: the node's inputs in operator order (`nil` for absent optional inputs).
    ///   - node: the context the step was prepared for; every present input
    ///     must have the planned type.
    ///   - outputBatchStrides: for a step that ``writesStridedOutput``, the
    ///     batch stride of each output view (at least its image size); the
    ///     returned tensors are gathered from them. `nil` for contiguous outputs.
    /// - Throws: `FoveaError` if an input is missing or has another type than planned.
    public func run(_ inputs: [Tensor?], planned node: NodeContext, context: RunContext,
                    outputBatchStrides: [Int]? = nil) throws -> [Tensor] {
        let op = node.op.typeName
        for (index, planned) in node.inputTypes.enumerated() {
            let given = index < inputs.count ? inputs[index] : nil
            switch (planned, given) {
            case (nil, nil): continue
            case (nil, .some): throw FoveaError(.invalidArgument, "\(op): input \(index) was planned as absent")
            case (.some, nil): throw FoveaError(.invalidArgument, "\(op): required input \(index) is missing")
            case (.some(let type), .some(let tensor)):
                guard tensor.dataType == type.dataType else {
                    throw FoveaError(.unsupported, "\(op): input \(index) has data type \(tensor.dataType); the step was planned for \(type.dataType)")
                }
                guard tensor.shape == type.shape else {
                    throw FoveaError(.shapeMismatch, "\(op): input \(index) is \(tensor.shape.shapeDescription); the step was planned for \(type.shape.shapeDescription)")
                }
            }
        }
        var blocks: [UnsafeMutableRawPointer] = []
        defer { blocks.forEach { $0.deallocate() } }
        func allocate(_ bytes: Int) -> UnsafeMutableRawPointer {
            let block = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(64, bytes), alignment: 64)
            blocks.append(block)
            return block
        }
        let inputViews: [TensorView?] = node.inputTypes.indices.map { index in
            guard let tensor = inputs[index] else { return nil }
            let base = allocate(tensor.count * tensor.dataType.byteSize)
            let view = TensorView(base: base, dataType: tensor.dataType, shape: tensor.shape)
            view.copy(from: tensor)
            return view
        }
        let outputViews: [TensorView] = node.outputTypes.enumerated().map { index, type in
            let stride = outputBatchStrides.map { $0[index] }
            let images = type.shape.first ?? 1
            let per = type.shape.isEmpty ? 1 : type.shape.dropFirst().reduce(1, *)
            let elements = stride.map { $0 * Swift.max(0, images - 1) + per } ?? type.shape.elementCount
            let base = allocate(elements * type.dataType.byteSize)
            return TensorView(base: base, dataType: type.dataType, shape: type.shape, batchStride: stride)
        }
        let bytes = workspaceBytes(threads: context.threads)
        let workspace = bytes > 0 ? allocate(bytes) : nil
        try run(StepBuffers(inputs: inputViews, outputs: outputViews, workspace: workspace), context: context)
        return outputViews.map { $0.copyToTensor() }
    }
}
