// `import Fovea` gives users the graph, tensor and image types too.
@_exported import FoveaCore
@_exported import FoveaImage
