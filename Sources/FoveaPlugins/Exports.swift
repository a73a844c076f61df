// What a backend plugin needs, as its own product: `import Fovea` to load models
// and register the backend (`BackendRegistry([MyBackend()] + BackendRegistry.standard.backends)`),
// `import FoveaPlugins` for the `Backend` protocol and every type its requirements
// mention. A backend that builds or rewrites graphs, or names the attribute
// structs of `Op`'s cases, imports FoveaCore as well (no stability promise).
// scripts/ci/api-boundary.sh checks that these names need this import.
@_exported import protocol FoveaCore.Backend
@_exported import protocol FoveaCore.PreparedStep
@_exported import struct FoveaCore.NodeContext
@_exported import struct FoveaCore.StepBuffers
@_exported import struct FoveaCore.TensorView
@_exported import struct FoveaCore.Node
@_exported import enum FoveaCore.Op
@_exported import struct FoveaCore.RunContext
@_exported import Fovea
