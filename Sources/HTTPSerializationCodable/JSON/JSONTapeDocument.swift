import HTTPSerializationCore

/// A parsed document whose tape stays readable for as long as anything holds it.
///
/// A `Decoder` or container may outlive the `decode` call that made it (a type can keep its
/// decoder), so they read through this object, which keeps the tape's owned storage alive,
/// instead of through a closure-scoped pointer.
final class JSONTapeDocument {
    let tape: JSONTape
    let reader: JSONTapeReader

    init(_ tape: JSONTape) {
        self.tape = tape
        reader = tape.reader
    }
}
