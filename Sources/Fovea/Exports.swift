@_exported import FoveaCore
