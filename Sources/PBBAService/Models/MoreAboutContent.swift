import PayRPCJSON
import PayRPCSchema

/// The text of the "More about Pay by Bank app" pop-up (document section 3.5.1.7), which the
/// `moreAbout` layouts' link opens.
public struct MoreAboutContent: JSONModel, Equatable {
    /// The first lines of the pop-up.
    public var headline: [String]
    /// "It works like this:"
    public var stepsTitle: String
    /// The numbered steps.
    public var steps: [String]
}
