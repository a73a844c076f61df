/// Decides where every value of a graph lives during a run (see ``MemoryPlan``).
///
/// In order:
/// 1. **Views.** Flatten, Reshape, Squeeze, Unsqueeze, Identity and Dropout
///    outputs share their input's bytes; nothing runs.
/// 2. **Concat elision.** A Concat along channels (or along an axis with
///    nothing but ones before it) gets its own buffer, and each input that can
///    be placed is written by its producer straight into its slice. An input
///    stays a copy when it is a graph input or a constant, when it is read by
///    anything else (the same value twice, another reader, a graph output),
///    when its producer is a view or another elided Concat (nested), or when
///    the slice is strided (batch > 1) and the producer's step cannot write strided output.
/// 3. **In place.** An elementwise step may write over the input it names in
///    ``PreparedStep/overwritableInput`` when that input's bytes are read for
///    the last time there, have the output's size, and are not a graph input,
///    a graph output or a constant.
/// 4. **Offsets.** Each buffer lives from the first step that writes any of
///    its values to the last that reads one (graph outputs to the end); every
///    step's workspace lives during its step; ``ArenaPlanner`` places them.
///    With more than one thread, small buffers stay reserved
///    ``multiThreadReuseDelay`` steps longer.
///
/// Without ``MemoryPlan/Options/reuseMemory`` steps 3 is skipped and every
/// buffer lives to the end, so every value survives the run.
public enum MemoryPlanner {
    /// With more than one thread, a small buffer's bytes are not handed to
    /// another value until this many steps after its last read.
    ///
    /// Why: a step's threads usually all read the whole of their input (a
    /// 1×1 convolution split by output channels does), so its lines end up
    /// shared in every core's cache. A value written over them one or two
    /// steps later pays for every store with an invalidation on the other
    /// core: MobileNetV2's 7×7 and 14×14 depthwise layers ran slower on two
    /// threads than on one for that reason. Bytes freed a few steps earlier
    /// were last touched by one thread per part (a depthwise input, split by
    /// channels) or have left the caches.
    public static let multiThreadReuseDelay = 2

    /// Buffers larger than this keep no reuse delay: they are larger than a
    /// core's L2, so little of them is still cached when the bytes are reused,
    /// and delaying them would grow the arena for nothing.
    public static let reuseDelayMaxBytes = 1 << 20

    /// What the planner needs to know about one step.
    public struct StepInfo {
        /// The graph node the step runs.
        public var node: Node
        /// The prepared step: its workspace, in-place and strided-output answers.
        public var step: any PreparedStep
        /// Pairs a node with the step a backend prepared for it.
        public init(node: Node, step: any PreparedStep) {
            self.node = node
            self.step = step
        }
    }

    /// Plans the memory of `graph` whose values have `types`, run as `steps`
    /// (one per node, in order) with up to `maxThreads` threads.
    public static func plan(graph: Graph, types: [String: TensorType], steps: [StepInfo],
                            options: MemoryPlan.Options, maxThreads: Int) throws -> MemoryPlan {
        var planner = Planner(graph: graph, types: types, steps: steps, options: options)
        return try planner.run(maxThreads: maxThreads)
    }

    /// Mutable state of one planning.
    private struct Planner {
        let graph: Graph
        let types: [String: TensorType]
        let steps: [StepInfo]
        let options: MemoryPlan.Options
        let stepCount: Int
        var producer: [String: Int] = [:]
        var readCount: [String: Int] = [:]
        var lastRead: [String: Int] = [:]
        var actions: [MemoryPlan.Action]
        var placements: [String: MemoryPlan.Placement] = [:]
        var placementKind: [String: String] = [:]
        /// Arena buffers under construction; merged buffers point to their parent.
        var bufferBytes: [Int] = []
        var bufferParent: [Int] = []
        var bufferHasSlices: [Bool] = []
        var constantOffsets: [String: Int] = [:]
        var constantBytes = 0

        init(graph: Graph, types: [String: TensorType], steps: [StepInfo], options: MemoryPlan.Options) {
            self.graph = graph
            self.types = types
            self.steps = steps
            self.options = options
            self.stepCount = steps.count
            self.actions = [MemoryPlan.Action](repeating: .run, count: steps.count)
        }

        mutating func run(maxThreads: Int) throws -> MemoryPlan {
            countReads()
            placeFeedsAndConstants()
            markViews()
            if options.elideConcat { elideConcats() }
            try placeOutputs()
            if options.reuseMemory { placeInPlace() }
            return try finish(maxThreads: maxThreads)
        }

        // MARK: Reads

        mutating func countReads() {
            for (index, node) in graph.nodes.enumerated() {
                for output in node.outputs where !output.isEmpty { producer[output] = index }
                for input in node.inputs where !input.isEmpty {
                    readCount[input, default: 0] += 1
                    lastRead[input] = index
                }
            }
            for output in graph.outputs {
                readCount[output.name, default: 0] += 1
                lastRead[output.name] = stepCount
            }
        }

        func type(_ name: String) throws -> TensorType {
            guard let type = types[name] else {
                throw FoveaError(.invalidModel, "value '\(name)' has no planned type")
            }
            return type
        }

        // MARK: Roots

        mutating func placeFeedsAndConstants() {
            for (index, input) in graph.inputs.enumerated() {
                guard let type = types[input.name] else { continue }
                placements[input.name] = MemoryPlan.Placement(root: .feed(index), byteOffset: 0, type: type)
                placementKind[input.name] = "graph input"
            }
            // Only the initializers something reads at run time (sorted, so the block is deterministic).
            var used = Set<String>()
            for node in graph.nodes { used.formUnion(node.inputs) }
            used.formUnion(graph.outputs.map(\.name))
            for name in graph.initializers.keys.sorted() where used.contains(name) && placements[name] == nil {
                guard let tensor = graph.initializers[name] else { continue }
                let type = TensorType(tensor.dataType, tensor.shape)
                constantOffsets[name] = constantBytes
                placements[name] = MemoryPlan.Placement(root: .constant, byteOffset: constantBytes, type: type)
                placementKind[name] = "constant"
                constantBytes += ArenaPlanner.aligned(tensor.count * tensor.dataType.byteSize)
            }
        }

        mutating func newBuffer(bytes: Int) -> Int {
            bufferBytes.append(bytes)
            bufferParent.append(bufferBytes.count - 1)
            bufferHasSlices.append(false)
            return bufferBytes.count - 1
        }

        func root(_ buffer: Int) -> Int {
            var b = buffer
            while bufferParent[b] != b { b = bufferParent[b] }
            return b
        }

        // MARK: Views

        mutating func markViews() {
            for (index, node) in graph.nodes.enumerated() where node.op.isView {
                guard node.outputs.count == 1, !node.outputs[0].isEmpty, node.input(0) != nil else { continue }
                actions[index] = .view
            }
        }

        // MARK: Concat

        mutating func elideConcats() {
            for (index, node) in graph.nodes.enumerated() {
                guard case .concat(let axis) = node.op, node.outputs.count == 1, !node.outputs[0].isEmpty,
                      let outputType = types[node.outputs[0]] else { continue }
                let shape = outputType.shape
                let rank = shape.count
                let resolved = axis < 0 ? axis + rank : axis
                guard rank >= 1, resolved >= 0, resolved < rank else { continue }
                let outer = shape[..<resolved].reduce(1, *)
                // Slices are contiguous when nothing but ones comes before the
                // axis, and one per image (a batch stride) along channels.
                guard outer == 1 || resolved == 1 else { continue }
                let inner = shape[(resolved + 1)...].reduce(1, *)
                let size = outputType.dataType.byteSize
                let imageElements = shape.dropFirst().reduce(1, *)
                let inputTypes = node.inputs.compactMap { types[$0] }
                guard inputTypes.count == node.inputs.count, inputTypes.allSatisfy({ $0.shape.count == rank }) else { continue }
                let placeable = node.inputs.indices.filter { canPlaceInSlice(node.inputs[$0], strided: outer > 1) }
                guard !placeable.isEmpty else { continue }
                let outputName = node.outputs[0]
                let buffer = newBuffer(bytes: outputType.shape.elementCount * size)
                bufferHasSlices[buffer] = true
                placements[outputName] = MemoryPlan.Placement(root: .arena(buffer), byteOffset: 0, type: outputType)
                placementKind[outputName] = "own"
                // Input k's slice starts after the inputs before it along the axis.
                var slices: [MemoryPlan.Placement] = []
                var start = 0
                for type in inputTypes {
                    slices.append(MemoryPlan.Placement(root: .arena(buffer), byteOffset: start * size, type: type,
                                                       batchStride: outer > 1 ? imageElements : nil))
                    start += type.shape[resolved] * inner
                }
                for k in placeable {
                    placements[node.inputs[k]] = slices[k]
                    placementKind[node.inputs[k]] = "slice of \(outputName)"
                }
                let copies = node.inputs.indices.filter { !placeable.contains($0) }.map {
                    MemoryPlan.ConcatCopy(input: $0, destination: slices[$0])
                }
                actions[index] = .concat(copies: copies)
            }
        }

        /// Whether `value`'s producer can write it straight into a Concat slice.
        func canPlaceInSlice(_ value: String, strided: Bool) -> Bool {
            guard let step = producer[value], readCount[value] == 1, placements[value] == nil,
                  case .run = actions[step] else { return false }
            return !strided || steps[step].step.writesStridedOutput
        }

        // MARK: Outputs

        mutating func placeOutputs() throws {
            for (index, node) in graph.nodes.enumerated() {
                if case .view = actions[index] {
                    let input = node.inputs[0], output = node.outputs[0]
                    guard var placement = placements[input] else {
                        throw FoveaError(.invalidModel, "value '\(input)' is read before it is written")
                    }
                    guard placement.isContiguous else {
                        // Cannot happen (a slice has one reader, its Concat); run the step instead.
                        actions[index] = .run
                        try placeOwn(output)
                        continue
                    }
                    placement.type = try type(output)
                    placement.batchStride = placement.type.shape.isEmpty ? 1 : placement.type.shape.dropFirst().reduce(1, *)
                    placements[output] = placement
                    placementKind[output] = "view of \(input)"
                    continue
                }
                for output in node.outputs where !output.isEmpty && placements[output] == nil {
                    try placeOwn(output)
                }
            }
        }

        mutating func placeOwn(_ name: String) throws {
            let type = try type(name)
            let buffer = newBuffer(bytes: type.shape.elementCount * type.dataType.byteSize)
            placements[name] = MemoryPlan.Placement(root: .arena(buffer), byteOffset: 0, type: type)
            placementKind[name] = "own"
        }

        // MARK: In place

        /// The last step that reads any value in each root buffer, as placed so far.
        func bufferLastReads() -> [Int: Int] {
            var last: [Int: Int] = [:]
            for (name, placement) in placements {
                guard case .arena(let buffer) = placement.root else { continue }
                let r = root(buffer)
                last[r] = Swift.max(last[r] ?? -1, lastRead[name] ?? producer[name] ?? -1)
            }
            return last
        }

        mutating func placeInPlace() {
            var lastReads = bufferLastReads()
            for (index, info) in steps.enumerated() {
                guard case .run = actions[index], let k = info.step.overwritableInput,
                      let input = info.node.input(k), let output = info.node.outputs.first, !output.isEmpty,
                      let inPlacement = placements[input], let outPlacement = placements[output],
                      case .arena(let inBuffer) = inPlacement.root, case .arena(let outBuffer) = outPlacement.root
                else { continue }
                let source = root(inBuffer), target = root(outBuffer)
                guard source != target, inPlacement.byteOffset == 0, outPlacement.byteOffset == 0,
                      inPlacement.isContiguous, outPlacement.isContiguous,
                      inPlacement.bytes == outPlacement.bytes, bufferBytes[source] == inPlacement.bytes,
                      bufferBytes[target] == outPlacement.bytes,
                      !bufferHasSlices[source], !bufferHasSlices[target],
                      lastReads[source] == index else { continue }
                bufferParent[target] = source
                lastReads[source] = Swift.max(index, lastReads[target] ?? index)
                placementKind[output] = "in place of \(input)"
            }
        }

        // MARK: Offsets

        func finish(maxThreads: Int) throws -> MemoryPlan {
            // Root buffers: contents and lifetimes.
            var contents: [Int: [String]] = [:]
            var first: [Int: Int] = [:], last: [Int: Int] = [:]
            for (name, placement) in placements {
                guard case .arena(let buffer) = placement.root else { continue }
                let r = root(buffer)
                contents[r, default: []].append(name)
                let written = producer[name] ?? 0
                first[r] = Swift.min(first[r] ?? written, written)
                let read = options.reuseMemory ? (lastRead[name] ?? written) : stepCount
                last[r] = Swift.max(last[r] ?? read, read)
            }
            let delay = maxThreads > 1 ? MemoryPlanner.multiThreadReuseDelay : 0
            var requests: [ArenaPlanner.Request] = []
            var roles: [String] = []
            var requestContents: [[String]] = []
            var requestOfBuffer: [Int: Int] = [:]
            for r in bufferBytes.indices where root(r) == r {
                guard let names = contents[r], let start = first[r], var end = last[r] else { continue }
                if bufferBytes[r] <= MemoryPlanner.reuseDelayMaxBytes { end = Swift.min(stepCount, end + delay) }
                requestOfBuffer[r] = requests.count
                requests.append(ArenaPlanner.Request(bytes: bufferBytes[r], firstStep: start, lastStep: end))
                roles.append("value")
                requestContents.append(names.sorted())
            }
            // Every step's workspace and unnamed outputs, alive during that step only.
            var workspaces: [(buffer: Int, bytes: Int)?] = []
            var unnamed: [Int: [Int: Int]] = [:]  // step -> output index -> request
            for (index, info) in steps.enumerated() {
                var workspace: (buffer: Int, bytes: Int)?
                if case .run = actions[index] {
                    let bytes = info.step.workspaceBytes(threads: maxThreads)
                    if bytes > 0 {
                        workspace = (requests.count, bytes)
                        requests.append(ArenaPlanner.Request(bytes: bytes, firstStep: index, lastStep: index))
                        roles.append("scratch")
                        requestContents.append([info.node.name])
                    }
                    for (o, output) in info.node.outputs.enumerated() where output.isEmpty {
                        let placeholder = ArenaPlanner.Request(bytes: 0, firstStep: index, lastStep: index)
                        unnamed[index, default: [:]][o] = requests.count
                        requests.append(placeholder)
                        roles.append("scratch")
                        requestContents.append(["\(info.node.name) (unnamed output \(o))"])
                    }
                }
                workspaces.append(workspace)
            }
            let layout = ArenaPlanner.place(requests)
            let buffers = requests.indices.map { i in
                MemoryPlan.Buffer(offset: layout.offsets[i], bytes: ArenaPlanner.aligned(requests[i].bytes),
                                  firstStep: requests[i].firstStep, lastStep: requests[i].lastStep,
                                  role: roles[i], contents: requestContents[i])
            }

            // Placements now point at request indices instead of planner buffers.
            func remap(_ placement: MemoryPlan.Placement) -> MemoryPlan.Placement {
                var p = placement
                if case .arena(let buffer) = p.root, let request = requestOfBuffer[root(buffer)] { p.root = .arena(request) }
                return p
            }
            let resolved = placements.mapValues(remap)
            var resolvedActions = actions
            for (index, action) in actions.enumerated() {
                if case .concat(let copies) = action {
                    resolvedActions[index] = .concat(copies: copies.map {
                        MemoryPlan.ConcatCopy(input: $0.input, destination: remap($0.destination))
                    })
                }
            }
            var inputPlacements: [[MemoryPlan.Placement?]] = []
            var outputPlacements: [[MemoryPlan.Placement]] = []
            for (index, info) in steps.enumerated() {
                inputPlacements.append(try info.node.inputs.map { name -> MemoryPlan.Placement? in
                    guard !name.isEmpty else { return nil }
                    guard let p = resolved[name] else {
                        throw FoveaError(.invalidModel, "value '\(name)' is read before it is written")
                    }
                    return p
                })
                outputPlacements.append(try info.node.outputs.enumerated().map { o, name in
                    if name.isEmpty {
                        // A view or elided Concat runs nothing: its placeholder is never written.
                        let root = unnamed[index]?[o].map { MemoryPlan.Root.arena($0) } ?? .constant
                        return MemoryPlan.Placement(root: root, byteOffset: 0, type: MemoryPlan.unnamedOutputType)
                    }
                    guard let p = resolved[name] else {
                        throw FoveaError(.invalidModel, "output '\(name)' has no placement")
                    }
                    return p
                })
            }

            var values: [MemoryPlan.ValueReport] = []
            var naive = 0
            for (name, placement) in resolved.sorted(by: { $0.key < $1.key }) {
                guard case .arena(let request) = placement.root else { continue }
                let written = producer[name] ?? 0
                values.append(MemoryPlan.ValueReport(
                    name: name, offset: layout.offsets[request] + placement.byteOffset, bytes: placement.bytes,
                    firstStep: written, lastStep: lastRead[name] ?? written, buffer: request,
                    placement: placementKind[name] ?? "own"))
            }
            for node in graph.nodes {
                for output in node.outputs where !output.isEmpty {
                    if let type = types[output] { naive += ArenaPlanner.aligned(type.shape.elementCount * type.dataType.byteSize) }
                }
            }
            let scratch = workspaces.compactMap { $0 }.reduce(0) { $0 + ArenaPlanner.aligned($1.bytes) }
            return MemoryPlan(
                options: options, arenaBytes: layout.arenaBytes, lowerBoundBytes: layout.lowerBoundBytes,
                naiveBytes: naive, scratchBytes: scratch, constantBytes: constantBytes,
                buffers: buffers, values: values.sorted { ($0.firstStep, $0.name) < ($1.firstStep, $1.name) },
                stepCount: stepCount, actions: resolvedActions,
                inputPlacements: inputPlacements, outputPlacements: outputPlacements, workspaces: workspaces,
                placements: resolved, constantOffsets: constantOffsets)
        }
    }
}
