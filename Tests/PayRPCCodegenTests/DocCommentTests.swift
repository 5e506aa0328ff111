import Testing
@testable import PayRPCCodegen

@Suite struct DocCommentTests {
    @Test func tagsAreTakenOutOfTheProse() {
        let doc = DocComment(lines: ["Full name.", "- MinLength: 1", "Phones.  - MinItems: 2", "", "More."])
        #expect(doc.text == "Full name.\nPhones.\n\nMore.")
        #expect(doc.tags.map(\.name) == ["MinLength", "MinItems"])
        #expect(doc.tags.map(\.value) == ["1", "2"])
        #expect(doc.tags.map(\.line) == [2, 3])
        #expect(doc.summary == "Full name. Phones.")
        #expect(doc.remainder == "More.")
    }

    @Test func flagTagsStandAlone() {
        let doc = DocComment(lines: ["The PIN.", "- Sensitive", "- Deprecated", "- Sensitive: last4", "- Sensitive middle"])
        #expect(doc.tags.map(\.name) == ["Sensitive", "Deprecated", "Sensitive"])
        #expect(doc.tags.map(\.value) == ["", "", "last4"])
        // Not a tag without its colon when something follows the name: prose.
        #expect(doc.text == "The PIN.\n- Sensitive middle")
    }
}
