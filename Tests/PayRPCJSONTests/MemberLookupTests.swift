import PayRPCJSON
import Testing

/// ``JSONElement/member(_:)-(StaticString)`` walks the entries and skips a name by its length
/// first: checked against the general lookup (``JSONElement/member(_:)-(String)``, every member's
/// text compared) on objects with escaped names, names longer and shorter than the key, repeats,
/// nested values and other kinds.
@Suite struct MemberLookupTests {
    static let documents = [
        #"[1,2]"#, #""_meta""#, #"null"#, #"{}"#,
        #"{"_met":1,"_metaa":2}"#,
        #"{"_meta":1}"#,
        #"{"amount":"1","contact":{"_meta":3},"reference":"x"}"#,
        #"{"a":[{"_meta":1}],"_meta":{"b":2},"_meta":3}"#,
        #"{"\u005fmeta":7}"#,
        #"{"\u005fmet":7,"_meta":8}"#,
        #"{"_me\u0074a":[1,{"x":2}],"z":0}"#,
        #"{"\\meta":1,"_meta\n":2,"_metb":3}"#,
        #"{"":1,"id":2,"i\u0064":3}"#,
    ]

    @Test("bad and odd input first: the static lookup answers as the general one", arguments: documents)
    func agreesWithGeneralLookup(document: String) throws {
        let tape = try JSONTape(string: document)
        tape.withRoot { root in
            for (key, text) in [("_meta" as StaticString, "_meta"), ("id", "id"), ("", ""), ("z", "z")] {
                let fast = root.member(key)
                let general = root.member(text as String)
                #expect(fast?.index == general?.index, "\(document) \(text)")
            }
        }
    }
}
