import HummingbirdCore

/// The most open HTTP connections: beyond it the server stops accepting (new
/// connections wait in the listen backlog, and are refused once it is full)
/// and says so in the log, rate-limited. Keeps file descriptors for the
/// health checks, the gRPC port and the models however many clients connect.
struct ConnectionLimit: AvailableConnectionsDelegate {
    let maxConnections: Int
    let events: EventLog
    let metrics: ServerMetrics
    private var open = 0

    init(maxConnections: Int, events: EventLog, metrics: ServerMetrics) {
        self.maxConnections = maxConnections
        self.events = events
        self.metrics = metrics
    }

    mutating func connectionOpened() {
        open += 1
        if open == maxConnections {
            metrics.countRejection(reason: "connection_limit")
            events.record("http connection limit reached: not accepting until one closes", ["max_connections": "\(maxConnections)"])
        }
    }

    mutating func connectionClosed() {
        open -= 1
    }

    func isAcceptingNewConnections() -> Bool {
        open < maxConnections
    }
}
