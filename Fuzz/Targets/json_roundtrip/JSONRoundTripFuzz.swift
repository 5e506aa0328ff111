import PayRPCFuzzSupport
import PayRPCJSON

/// Reader → writer → reader: any JSON text the reader accepts, written back by the writer, reads
/// as the same value, and writing that value again gives the same bytes.
@main
enum JSONRoundTripFuzz: FuzzTarget {
    static func fuzz(_ input: UnsafeRawBufferPointer) {
        guard let tape = try? JSONTape(copying: input) else { return }
        let first = tape.withRoot { JSONValue($0) }
        let written = first.jsonText
        let second: JSONValue
        do {
            second = try JSONValue(parsing: written)
        } catch {
            fuzzCheck(false, "the writer wrote what the reader rejects (\(error)): \(written)")
            return
        }
        fuzzCheck(second == first, "read back differently: \(written)")
        fuzzCheck(second.jsonText == written, "written differently the second time: \(written)")
        let equal = tape.withRoot { root in (try? JSONTape(string: written))?.withRoot { root.jsonEquals($0) } }
        fuzzCheck(equal == true, "jsonEquals denies the round trip: \(written)")
    }
}
