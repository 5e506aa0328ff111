#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Delivery {
    /// Ends the delivery at `time`: delivered, nothing left of the last error.
    mutating func delivered(at time: Date) {
        status = .delivered
        lastError = nil
        deliveredAt = time
    }
}
