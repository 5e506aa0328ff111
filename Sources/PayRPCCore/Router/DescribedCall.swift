import PayRPCJSON
import PayRPCSchema

/// What a method and a notification publish alike: their names, words and params, so that the
/// OpenRPC document writes the opening of both entries once.
protocol DescribedCall {
    /// The name on the wire.
    var name: String { get }
    /// One line from the declaration's doc comment.
    var summary: String { get }
    /// The rest of the doc comment.
    var documentation: String { get }
    /// The params (payload) schema.
    var paramsSchema: JSONValue { get }
    /// The params' member names in declaration order.
    var fieldOrder: [String] { get }
    /// The model definitions the params refer to.
    var definitions: SchemaDefinitions { get }
}

extension MethodDescriptor: DescribedCall {}
extension NotificationDescriptor: DescribedCall {}
