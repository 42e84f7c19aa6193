extension Array {
    /// Empties the array, keeping its room for reuse unless something grew it past `room`
    /// elements, when it goes back to `room`: a buffer reused for a stream's chunks keeps no
    /// more memory than one write needs after a large chunk went through it.
    mutating func removeAll(keepingRoomUpTo room: Int) {
        guard capacity > room else { return removeAll(keepingCapacity: true) }
        self = []
        reserveCapacity(room)
    }
}
