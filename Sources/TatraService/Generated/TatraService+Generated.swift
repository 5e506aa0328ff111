// Temporary hand-made stand-in for payrpc-codegen output. Regenerate with payrpc-codegen.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension SetupData {
    public static var fieldOrder: [String] { ["isActivated", "descriptionValidationRegex", "descriptionValidationLength", "phoneValidationRegex", "minTransactionAmount", "maxTransactionAmount", "redirectionUri"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.SetupData"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("isActivated", Bool.schemaReference), .init("descriptionValidationRegex", String.schemaReference), .init("descriptionValidationLength", Int.schemaReference), .init("phoneValidationRegex", String.schemaReference), .init("minTransactionAmount", Decimal.schemaReference), .init("maxTransactionAmount", Decimal.schemaReference), .init("redirectionUri", URL.schemaReference)])), .init("required", ["isActivated", "descriptionValidationRegex", "descriptionValidationLength", "phoneValidationRegex", "minTransactionAmount", "maxTransactionAmount"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.SetupData", schema: schema) else { return }
        Bool.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
        Int.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
        Decimal.collectSchemaDefinitions(into: &definitions)
        Decimal.collectSchemaDefinitions(into: &definitions)
        URL.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _isActivated: Bool? = nil
        var _descriptionValidationRegex: String? = nil
        var _descriptionValidationLength: Int? = nil
        var _phoneValidationRegex: String? = nil
        var _minTransactionAmount: Decimal? = nil
        var _maxTransactionAmount: Decimal? = nil
        var _redirectionUri: URL? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("isActivated") {
                do { _isActivated = try Bool(json: value) } catch { throw error.prefixed("isActivated") }
            } else if name.stringEquals("descriptionValidationRegex") {
                do { _descriptionValidationRegex = try String(json: value) } catch { throw error.prefixed("descriptionValidationRegex") }
            } else if name.stringEquals("descriptionValidationLength") {
                do { _descriptionValidationLength = try Int(json: value) } catch { throw error.prefixed("descriptionValidationLength") }
            } else if name.stringEquals("phoneValidationRegex") {
                do { _phoneValidationRegex = try String(json: value) } catch { throw error.prefixed("phoneValidationRegex") }
            } else if name.stringEquals("minTransactionAmount") {
                do { _minTransactionAmount = try Decimal(json: value) } catch { throw error.prefixed("minTransactionAmount") }
            } else if name.stringEquals("maxTransactionAmount") {
                do { _maxTransactionAmount = try Decimal(json: value) } catch { throw error.prefixed("maxTransactionAmount") }
            } else if name.stringEquals("redirectionUri") {
                if !value.isNull { do { _redirectionUri = try URL(json: value) } catch { throw error.prefixed("redirectionUri") } }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let isActivated_ = _isActivated else { throw .missing("isActivated") }
        guard let descriptionValidationRegex_ = _descriptionValidationRegex else { throw .missing("descriptionValidationRegex") }
        guard let descriptionValidationLength_ = _descriptionValidationLength else { throw .missing("descriptionValidationLength") }
        guard let phoneValidationRegex_ = _phoneValidationRegex else { throw .missing("phoneValidationRegex") }
        guard let minTransactionAmount_ = _minTransactionAmount else { throw .missing("minTransactionAmount") }
        guard let maxTransactionAmount_ = _maxTransactionAmount else { throw .missing("maxTransactionAmount") }
        self.init(isActivated: isActivated_, descriptionValidationRegex: descriptionValidationRegex_, descriptionValidationLength: descriptionValidationLength_, phoneValidationRegex: phoneValidationRegex_, minTransactionAmount: minTransactionAmount_, maxTransactionAmount: maxTransactionAmount_, redirectionUri: _redirectionUri)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("isActivated"); self.isActivated.encode(to: &writer)
        writer.key("descriptionValidationRegex"); self.descriptionValidationRegex.encode(to: &writer)
        writer.key("descriptionValidationLength"); self.descriptionValidationLength.encode(to: &writer)
        writer.key("phoneValidationRegex"); self.phoneValidationRegex.encode(to: &writer)
        writer.key("minTransactionAmount"); self.minTransactionAmount.encode(to: &writer)
        writer.key("maxTransactionAmount"); self.maxTransactionAmount.encode(to: &writer)
        if let value = self.redirectionUri { writer.key("redirectionUri"); value.encode(to: &writer) }
        writer.endObject()
    }
}

extension Contact {
    public static var fieldOrder: [String] { ["fullName", "phones", "image"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.Contact"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("fullName", String.schemaReference), .init("phones", [String].schemaReference), .init("image", URL.schemaReference)])), .init("required", ["fullName", "phones"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.Contact", schema: schema) else { return }
        String.collectSchemaDefinitions(into: &definitions)
        [String].collectSchemaDefinitions(into: &definitions)
        URL.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _fullName: String? = nil
        var _phones: [String]? = nil
        var _image: URL? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("fullName") {
                do { _fullName = try String(json: value) } catch { throw error.prefixed("fullName") }
            } else if name.stringEquals("phones") {
                do { _phones = try [String](json: value) } catch { throw error.prefixed("phones") }
            } else if name.stringEquals("image") {
                if !value.isNull { do { _image = try URL(json: value) } catch { throw error.prefixed("image") } }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let fullName_ = _fullName else { throw .missing("fullName") }
        guard let phones_ = _phones else { throw .missing("phones") }
        self.init(fullName: fullName_, phones: phones_, image: _image)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("fullName"); self.fullName.encode(to: &writer)
        writer.key("phones"); self.phones.encode(to: &writer)
        if let value = self.image { writer.key("image"); value.encode(to: &writer) }
        writer.endObject()
    }
}

extension BalanceData {
    public static var fieldOrder: [String] { ["balance", "dueDate"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.BalanceData"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("balance", Decimal.schemaReference), .init("dueDate", Date.schemaReference)])), .init("required", ["balance", "dueDate"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.BalanceData", schema: schema) else { return }
        Decimal.collectSchemaDefinitions(into: &definitions)
        Date.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _balance: Decimal? = nil
        var _dueDate: Date? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("balance") {
                do { _balance = try Decimal(json: value) } catch { throw error.prefixed("balance") }
            } else if name.stringEquals("dueDate") {
                do { _dueDate = try Date(json: value) } catch { throw error.prefixed("dueDate") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let balance_ = _balance else { throw .missing("balance") }
        guard let dueDate_ = _dueDate else { throw .missing("dueDate") }
        self.init(balance: balance_, dueDate: dueDate_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("balance"); self.balance.encode(to: &writer)
        writer.key("dueDate"); self.dueDate.encode(to: &writer)
        writer.endObject()
    }
}

extension TatraErrorData {
    public static var fieldOrder: [String] { ["type", "status", "fatal", "title", "message"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.TatraErrorData"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("type", TatraErrorType.schemaReference), .init("status", TatraErrorStatus.schemaReference), .init("fatal", Bool.schemaReference), .init("title", String.schemaReference), .init("message", String.schemaReference)])), .init("required", ["type", "status", "fatal", "title", "message"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.TatraErrorData", schema: schema) else { return }
        TatraErrorType.collectSchemaDefinitions(into: &definitions)
        TatraErrorStatus.collectSchemaDefinitions(into: &definitions)
        Bool.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _type: TatraErrorType? = nil
        var _status: TatraErrorStatus? = nil
        var _fatal: Bool? = nil
        var _title: String? = nil
        var _message: String? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("type") {
                do { _type = try TatraErrorType(json: value) } catch { throw error.prefixed("type") }
            } else if name.stringEquals("status") {
                do { _status = try TatraErrorStatus(json: value) } catch { throw error.prefixed("status") }
            } else if name.stringEquals("fatal") {
                do { _fatal = try Bool(json: value) } catch { throw error.prefixed("fatal") }
            } else if name.stringEquals("title") {
                do { _title = try String(json: value) } catch { throw error.prefixed("title") }
            } else if name.stringEquals("message") {
                do { _message = try String(json: value) } catch { throw error.prefixed("message") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let type_ = _type else { throw .missing("type") }
        guard let status_ = _status else { throw .missing("status") }
        guard let fatal_ = _fatal else { throw .missing("fatal") }
        guard let title_ = _title else { throw .missing("title") }
        guard let message_ = _message else { throw .missing("message") }
        self.init(type: type_, status: status_, fatal: fatal_, title: title_, message: message_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); self.type.encode(to: &writer)
        writer.key("status"); self.status.encode(to: &writer)
        writer.key("fatal"); self.fatal.encode(to: &writer)
        writer.key("title"); self.title.encode(to: &writer)
        writer.key("message"); self.message.encode(to: &writer)
        writer.endObject()
    }
}

extension AuthRequiredErrorData {
    public static var fieldOrder: [String] { ["type", "status", "fatal", "title", "showConditions"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.AuthRequiredErrorData"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("type", TatraErrorType.schemaReference), .init("status", TatraErrorStatus.schemaReference), .init("fatal", Bool.schemaReference), .init("title", String.schemaReference), .init("showConditions", Bool.schemaReference)])), .init("required", ["type", "status", "fatal", "title", "showConditions"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.AuthRequiredErrorData", schema: schema) else { return }
        TatraErrorType.collectSchemaDefinitions(into: &definitions)
        TatraErrorStatus.collectSchemaDefinitions(into: &definitions)
        Bool.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
        Bool.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _type: TatraErrorType? = nil
        var _status: TatraErrorStatus? = nil
        var _fatal: Bool? = nil
        var _title: String? = nil
        var _showConditions: Bool? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("type") {
                do { _type = try TatraErrorType(json: value) } catch { throw error.prefixed("type") }
            } else if name.stringEquals("status") {
                do { _status = try TatraErrorStatus(json: value) } catch { throw error.prefixed("status") }
            } else if name.stringEquals("fatal") {
                do { _fatal = try Bool(json: value) } catch { throw error.prefixed("fatal") }
            } else if name.stringEquals("title") {
                do { _title = try String(json: value) } catch { throw error.prefixed("title") }
            } else if name.stringEquals("showConditions") {
                do { _showConditions = try Bool(json: value) } catch { throw error.prefixed("showConditions") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let type_ = _type else { throw .missing("type") }
        guard let status_ = _status else { throw .missing("status") }
        guard let fatal_ = _fatal else { throw .missing("fatal") }
        guard let title_ = _title else { throw .missing("title") }
        guard let showConditions_ = _showConditions else { throw .missing("showConditions") }
        self.init(type: type_, status: status_, fatal: fatal_, title: title_, showConditions: showConditions_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); self.type.encode(to: &writer)
        writer.key("status"); self.status.encode(to: &writer)
        writer.key("fatal"); self.fatal.encode(to: &writer)
        writer.key("title"); self.title.encode(to: &writer)
        writer.key("showConditions"); self.showConditions.encode(to: &writer)
        writer.endObject()
    }
}

extension WrongPinErrorData {
    public static var fieldOrder: [String] { ["type", "status", "fatal", "title", "applicationBlocked"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.WrongPinErrorData"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("type", TatraErrorType.schemaReference), .init("status", TatraErrorStatus.schemaReference), .init("fatal", Bool.schemaReference), .init("title", String.schemaReference), .init("applicationBlocked", Bool.schemaReference)])), .init("required", ["type", "status", "fatal", "title", "applicationBlocked"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.WrongPinErrorData", schema: schema) else { return }
        TatraErrorType.collectSchemaDefinitions(into: &definitions)
        TatraErrorStatus.collectSchemaDefinitions(into: &definitions)
        Bool.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
        Bool.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _type: TatraErrorType? = nil
        var _status: TatraErrorStatus? = nil
        var _fatal: Bool? = nil
        var _title: String? = nil
        var _applicationBlocked: Bool? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("type") {
                do { _type = try TatraErrorType(json: value) } catch { throw error.prefixed("type") }
            } else if name.stringEquals("status") {
                do { _status = try TatraErrorStatus(json: value) } catch { throw error.prefixed("status") }
            } else if name.stringEquals("fatal") {
                do { _fatal = try Bool(json: value) } catch { throw error.prefixed("fatal") }
            } else if name.stringEquals("title") {
                do { _title = try String(json: value) } catch { throw error.prefixed("title") }
            } else if name.stringEquals("applicationBlocked") {
                do { _applicationBlocked = try Bool(json: value) } catch { throw error.prefixed("applicationBlocked") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let type_ = _type else { throw .missing("type") }
        guard let status_ = _status else { throw .missing("status") }
        guard let fatal_ = _fatal else { throw .missing("fatal") }
        guard let title_ = _title else { throw .missing("title") }
        guard let applicationBlocked_ = _applicationBlocked else { throw .missing("applicationBlocked") }
        self.init(type: type_, status: status_, fatal: fatal_, title: title_, applicationBlocked: applicationBlocked_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); self.type.encode(to: &writer)
        writer.key("status"); self.status.encode(to: &writer)
        writer.key("fatal"); self.fatal.encode(to: &writer)
        writer.key("title"); self.title.encode(to: &writer)
        writer.key("applicationBlocked"); self.applicationBlocked.encode(to: &writer)
        writer.endObject()
    }
}

extension BankTempOOSErrorData {
    public static var fieldOrder: [String] { ["type", "status", "fatal", "paymentId"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.BankTempOOSErrorData"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("type", TatraErrorType.schemaReference), .init("status", TatraErrorStatus.schemaReference), .init("fatal", Bool.schemaReference), .init("paymentId", String.schemaReference)])), .init("required", ["type", "status", "fatal", "paymentId"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.BankTempOOSErrorData", schema: schema) else { return }
        TatraErrorType.collectSchemaDefinitions(into: &definitions)
        TatraErrorStatus.collectSchemaDefinitions(into: &definitions)
        Bool.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _type: TatraErrorType? = nil
        var _status: TatraErrorStatus? = nil
        var _fatal: Bool? = nil
        var _paymentId: String? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("type") {
                do { _type = try TatraErrorType(json: value) } catch { throw error.prefixed("type") }
            } else if name.stringEquals("status") {
                do { _status = try TatraErrorStatus(json: value) } catch { throw error.prefixed("status") }
            } else if name.stringEquals("fatal") {
                do { _fatal = try Bool(json: value) } catch { throw error.prefixed("fatal") }
            } else if name.stringEquals("paymentId") {
                do { _paymentId = try String(json: value) } catch { throw error.prefixed("paymentId") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let type_ = _type else { throw .missing("type") }
        guard let status_ = _status else { throw .missing("status") }
        guard let fatal_ = _fatal else { throw .missing("fatal") }
        guard let paymentId_ = _paymentId else { throw .missing("paymentId") }
        self.init(type: type_, status: status_, fatal: fatal_, paymentId: paymentId_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); self.type.encode(to: &writer)
        writer.key("status"); self.status.encode(to: &writer)
        writer.key("fatal"); self.fatal.encode(to: &writer)
        writer.key("paymentId"); self.paymentId.encode(to: &writer)
        writer.endObject()
    }
}

extension MissingContactPermissionErrorData {
    public static var fieldOrder: [String] { ["type", "status", "fatal", "title", "subtitle", "uri"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.MissingContactPermissionErrorData"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("type", TatraErrorType.schemaReference), .init("status", TatraErrorStatus.schemaReference), .init("fatal", Bool.schemaReference), .init("title", String.schemaReference), .init("subtitle", String.schemaReference), .init("uri", URL.schemaReference)])), .init("required", ["type", "status", "fatal", "title", "subtitle", "uri"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.MissingContactPermissionErrorData", schema: schema) else { return }
        TatraErrorType.collectSchemaDefinitions(into: &definitions)
        TatraErrorStatus.collectSchemaDefinitions(into: &definitions)
        Bool.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
        URL.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _type: TatraErrorType? = nil
        var _status: TatraErrorStatus? = nil
        var _fatal: Bool? = nil
        var _title: String? = nil
        var _subtitle: String? = nil
        var _uri: URL? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("type") {
                do { _type = try TatraErrorType(json: value) } catch { throw error.prefixed("type") }
            } else if name.stringEquals("status") {
                do { _status = try TatraErrorStatus(json: value) } catch { throw error.prefixed("status") }
            } else if name.stringEquals("fatal") {
                do { _fatal = try Bool(json: value) } catch { throw error.prefixed("fatal") }
            } else if name.stringEquals("title") {
                do { _title = try String(json: value) } catch { throw error.prefixed("title") }
            } else if name.stringEquals("subtitle") {
                do { _subtitle = try String(json: value) } catch { throw error.prefixed("subtitle") }
            } else if name.stringEquals("uri") {
                do { _uri = try URL(json: value) } catch { throw error.prefixed("uri") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let type_ = _type else { throw .missing("type") }
        guard let status_ = _status else { throw .missing("status") }
        guard let fatal_ = _fatal else { throw .missing("fatal") }
        guard let title_ = _title else { throw .missing("title") }
        guard let subtitle_ = _subtitle else { throw .missing("subtitle") }
        guard let uri_ = _uri else { throw .missing("uri") }
        self.init(type: type_, status: status_, fatal: fatal_, title: title_, subtitle: subtitle_, uri: uri_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("type"); self.type.encode(to: &writer)
        writer.key("status"); self.status.encode(to: &writer)
        writer.key("fatal"); self.fatal.encode(to: &writer)
        writer.key("title"); self.title.encode(to: &writer)
        writer.key("subtitle"); self.subtitle.encode(to: &writer)
        writer.key("uri"); self.uri.encode(to: &writer)
        writer.endObject()
    }
}

extension ExecutePayment.Params {
    public static var fieldOrder: [String] { ["amount", "contact", "reference"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.ExecutePayment.Params"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("amount", Decimal.schemaReference), .init("contact", Contact.schemaReference), .init("reference", String.schemaReference)])), .init("required", ["amount", "contact"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.ExecutePayment.Params", schema: schema) else { return }
        Decimal.collectSchemaDefinitions(into: &definitions)
        Contact.collectSchemaDefinitions(into: &definitions)
        String.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _amount: Decimal? = nil
        var _contact: Contact? = nil
        var _reference: String? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("amount") {
                do { _amount = try Decimal(json: value) } catch { throw error.prefixed("amount") }
            } else if name.stringEquals("contact") {
                do { _contact = try Contact(json: value) } catch { throw error.prefixed("contact") }
            } else if name.stringEquals("reference") {
                if !value.isNull { do { _reference = try String(json: value) } catch { throw error.prefixed("reference") } }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let amount_ = _amount else { throw .missing("amount") }
        guard let contact_ = _contact else { throw .missing("contact") }
        self.init(amount: amount_, contact: contact_, reference: _reference)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("amount"); self.amount.encode(to: &writer)
        writer.key("contact"); self.contact.encode(to: &writer)
        if let value = self.reference { writer.key("reference"); value.encode(to: &writer) }
        writer.endObject()
    }
}

extension AuthorizePayment.Params {
    public static var fieldOrder: [String] { ["pincode"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.AuthorizePayment.Params"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("pincode", String.schemaReference)])), .init("required", ["pincode"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.AuthorizePayment.Params", schema: schema) else { return }
        String.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _pincode: String? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("pincode") {
                do { _pincode = try String(json: value) } catch { throw error.prefixed("pincode") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let pincode_ = _pincode else { throw .missing("pincode") }
        self.init(pincode: pincode_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("pincode"); self.pincode.encode(to: &writer)
        writer.endObject()
    }
}

extension ResubmitPayment.Params {
    public static var fieldOrder: [String] { ["paymentId"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.ResubmitPayment.Params"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("paymentId", String.schemaReference)])), .init("required", ["paymentId"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.ResubmitPayment.Params", schema: schema) else { return }
        String.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _paymentId: String? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("paymentId") {
                do { _paymentId = try String(json: value) } catch { throw error.prefixed("paymentId") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let paymentId_ = _paymentId else { throw .missing("paymentId") }
        self.init(paymentId: paymentId_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("paymentId"); self.paymentId.encode(to: &writer)
        writer.endObject()
    }
}

extension Authorize.Params {
    public static var fieldOrder: [String] { ["pincode"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.Authorize.Params"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("pincode", String.schemaReference)])), .init("required", ["pincode"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.Authorize.Params", schema: schema) else { return }
        String.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _pincode: String? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("pincode") {
                do { _pincode = try String(json: value) } catch { throw error.prefixed("pincode") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let pincode_ = _pincode else { throw .missing("pincode") }
        self.init(pincode: pincode_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("pincode"); self.pincode.encode(to: &writer)
        writer.endObject()
    }
}

extension SandboxSetContactPermission.Params {
    public static var fieldOrder: [String] { ["granted"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.SandboxSetContactPermission.Params"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("granted", Bool.schemaReference)])), .init("required", ["granted"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.SandboxSetContactPermission.Params", schema: schema) else { return }
        Bool.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _granted: Bool? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("granted") {
                do { _granted = try Bool(json: value) } catch { throw error.prefixed("granted") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let granted_ = _granted else { throw .missing("granted") }
        self.init(granted: granted_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("granted"); self.granted.encode(to: &writer)
        writer.endObject()
    }
}

extension SandboxFailNextCall.Params {
    public static var fieldOrder: [String] { ["method", "error"] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.SandboxFailNextCall.Params"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        let schema: JSONValue = .object([.init("type", "object"), .init("properties", .object([.init("method", TatraBankCall.schemaReference), .init("error", FailureKind.schemaReference)])), .init("required", ["method", "error"]), .init("additionalProperties", false)])
        guard definitions.insert("tatra.SandboxFailNextCall.Params", schema: schema) else { return }
        TatraBankCall.collectSchemaDefinitions(into: &definitions)
        FailureKind.collectSchemaDefinitions(into: &definitions)
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard json.kind == .object else { throw .expected("an object", found: json) }
        var _method: TatraBankCall? = nil
        var _error: FailureKind? = nil
        for (name, value) in json.objectMembers {
            if name.stringEquals("method") {
                do { _method = try TatraBankCall(json: value) } catch { throw error.prefixed("method") }
            } else if name.stringEquals("error") {
                do { _error = try FailureKind(json: value) } catch { throw error.prefixed("error") }
            } else { throw JSONDecodingError("unknown member", pointer: "/" + JSONPointer.escape(name.string ?? "")) }
        }
        guard let method_ = _method else { throw .missing("method") }
        guard let error_ = _error else { throw .missing("error") }
        self.init(method: method_, error: error_)
    }
    public func encode(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("method"); self.method.encode(to: &writer)
        writer.key("error"); self.error.encode(to: &writer)
        writer.endObject()
    }
}

extension TatraErrorType {
    public static var fieldOrder: [String] { [] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.TatraErrorType"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert("tatra.TatraErrorType", schema: ["type": "string", "enum": ["general", "authRequired", "executePayment", "amountLimit", "sameRecipient", "serviceUnavailable", "network", "wrongPin", "bankTempOOS", "missingContactPermission"]])
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let text = json.string, let value = TatraErrorType(rawValue: text) else { throw .expected("one of general, authRequired, executePayment, amountLimit, sameRecipient, serviceUnavailable, network, wrongPin, bankTempOOS, missingContactPermission", found: json) }
        self = value
    }
    public func encode(to writer: inout JSONWriter) { writer.string(rawValue) }
}

extension TatraErrorStatus {
    public static var fieldOrder: [String] { [] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.TatraErrorStatus"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert("tatra.TatraErrorStatus", schema: ["type": "string", "enum": ["INVALID_ARGUMENT", "OUT_OF_RANGE", "FAILED_PRECONDITION", "UNAUTHENTICATED", "PERMISSION_DENIED", "NOT_FOUND", "UNAVAILABLE", "UNKNOWN"]])
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let text = json.string, let value = TatraErrorStatus(rawValue: text) else { throw .expected("one of INVALID_ARGUMENT, OUT_OF_RANGE, FAILED_PRECONDITION, UNAUTHENTICATED, PERMISSION_DENIED, NOT_FOUND, UNAVAILABLE, UNKNOWN", found: json) }
        self = value
    }
    public func encode(to writer: inout JSONWriter) { writer.string(rawValue) }
}

extension FailureKind {
    public static var fieldOrder: [String] { [] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.FailureKind"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert("tatra.FailureKind", schema: ["type": "string", "enum": ["general", "serviceUnavailable", "network"]])
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let text = json.string, let value = FailureKind(rawValue: text) else { throw .expected("one of general, serviceUnavailable, network", found: json) }
        self = value
    }
    public func encode(to writer: inout JSONWriter) { writer.string(rawValue) }
}

extension TatraBankCall {
    public static var fieldOrder: [String] { [] }
    public static var schemaReference: JSONValue { ["$ref": "#/definitions/tatra.TatraBankCall"] }
    public static func collectSchemaDefinitions(into definitions: inout SchemaDefinitions) {
        definitions.insert("tatra.TatraBankCall", schema: ["type": "string", "enum": ["tatra.fetchSetupData", "tatra.fetchTopContacts", "tatra.fetchContacts", "tatra.executePayment", "tatra.authorizePayment", "tatra.resubmitPayment", "tatra.fetchBalance", "tatra.getIban", "tatra.authorize"]])
    }
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let text = json.string, let value = TatraBankCall(rawValue: text) else { throw .expected("one of tatra.fetchSetupData, tatra.fetchTopContacts, tatra.fetchContacts, tatra.executePayment, tatra.authorizePayment, tatra.resubmitPayment, tatra.fetchBalance, tatra.getIban, tatra.authorize", found: json) }
        self = value
    }
    public func encode(to writer: inout JSONWriter) { writer.string(rawValue) }
}

extension OnFlowStart {
    public static var summary: String { "OnFlowStart" }
    public static var documentation: String { "" }
}

extension OnFlowStop {
    public static var summary: String { "OnFlowStop" }
    public static var documentation: String { "" }
}

extension FetchSetupData {
    public static var summary: String { "FetchSetupData" }
    public static var documentation: String { "" }
}

extension FetchTopContacts {
    public static var summary: String { "FetchTopContacts" }
    public static var documentation: String { "" }
}

extension FetchContacts {
    public static var summary: String { "FetchContacts" }
    public static var documentation: String { "" }
}

extension ExecutePayment {
    public static var summary: String { "ExecutePayment" }
    public static var documentation: String { "" }
}

extension AuthorizePayment {
    public static var summary: String { "AuthorizePayment" }
    public static var documentation: String { "" }
}

extension ResubmitPayment {
    public static var summary: String { "ResubmitPayment" }
    public static var documentation: String { "" }
}

extension FetchBalance {
    public static var summary: String { "FetchBalance" }
    public static var documentation: String { "" }
}

extension GetIban {
    public static var summary: String { "GetIban" }
    public static var documentation: String { "" }
}

extension Authorize {
    public static var summary: String { "Authorize" }
    public static var documentation: String { "" }
}

extension SandboxSetContactPermission {
    public static var summary: String { "SandboxSetContactPermission" }
    public static var documentation: String { "" }
}

extension SandboxFailNextCall {
    public static var summary: String { "SandboxFailNextCall" }
    public static var documentation: String { "" }
}

extension SandboxResetProfile {
    public static var summary: String { "SandboxResetProfile" }
    public static var documentation: String { "" }
}
