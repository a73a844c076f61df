// The protocol's types and decoders (FoveaServerProtocol, a module of their own so
// that the fuzzers build without Hummingbird and gRPC) are part of this library's API.
@_exported import FoveaServerProtocol
