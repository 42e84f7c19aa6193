#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The throttle as each adapter applies it: reads capped at the packet size, and the delay
/// owed before every packet but the first.
package struct ThrottleState {
    package let throttle: MultipartFormData.Throttle?
    private var packets = 0

    package init(_ throttle: MultipartFormData.Throttle?) {
        self.throttle = throttle
    }

    package func cap(_ count: Int) -> Int {
        throttle.map { min(count, $0.packetSize) } ?? count
    }

    /// Seconds to wait before the packet about to be read.
    package mutating func pauseBeforeNextPacket() -> TimeInterval {
        defer { packets += 1 }
        guard let throttle, packets > 0 else { return 0 }
        return throttle.delay
    }
}
