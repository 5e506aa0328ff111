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
}
