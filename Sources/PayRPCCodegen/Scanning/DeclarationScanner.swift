import SwiftParser
import SwiftSyntax

/// Reads Swift sources with swift-syntax and records their nominal types, stored properties,
/// enum cases, typealiases and doc comments, without resolving any names.
struct DeclarationScanner {
    private(set) var result = ScanResult()
    private var order = 0

    /// Scans one file of `module`; `path` is how diagnostics name the file.
    mutating func scan(source: String, path: String, module: String) {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        var context = Context(module: module, file: path, converter: converter)
        for item in tree.statements {
            if let decl = item.item.as(DeclSyntax.self) { visit(decl, parent: [], context: &context) }
        }
    }

    private struct Context {
        var module: String
        var file: String
        var converter: SourceLocationConverter

        func line(_ node: some SyntaxProtocol) -> Int {
            node.startLocation(converter: converter).line
        }
    }

    private mutating func visit(_ decl: DeclSyntax, parent: [String], context: inout Context) {
        if let node = decl.as(StructDeclSyntax.self) {
            record(
                node, name: node.name, kind: .struct, inheritance: node.inheritanceClause,
                modifiers: node.modifiers, generic: node.genericParameterClause != nil,
                members: node.memberBlock, parent: parent, context: &context)
        } else if let node = decl.as(EnumDeclSyntax.self) {
            record(
                node, name: node.name, kind: .enum, inheritance: node.inheritanceClause,
                modifiers: node.modifiers, generic: node.genericParameterClause != nil,
                members: node.memberBlock, parent: parent, context: &context)
        } else if let node = decl.as(ClassDeclSyntax.self) {
            record(
                node, name: node.name, kind: .class, inheritance: node.inheritanceClause,
                modifiers: node.modifiers, generic: node.genericParameterClause != nil,
                members: node.memberBlock, parent: parent, context: &context)
        } else if let node = decl.as(ActorDeclSyntax.self) {
            record(
                node, name: node.name, kind: .actor, inheritance: node.inheritanceClause,
                modifiers: node.modifiers, generic: node.genericParameterClause != nil,
                members: node.memberBlock, parent: parent, context: &context)
        } else if let node = decl.as(ProtocolDeclSyntax.self) {
            record(
                node, name: node.name, kind: .protocol, inheritance: node.inheritanceClause,
                modifiers: node.modifiers, generic: false,
                members: node.memberBlock, parent: parent, context: &context)
        } else if let node = decl.as(ExtensionDeclSyntax.self) {
            let extended = DeclarationScanner.namePath(node.extendedType)
            if let inherited = node.inheritanceClause?.inheritedTypes,
                inherited.contains(where: { DeclarationScanner.lastName($0.type) == "JSONModel" })
            {
                result.conformingExtensions.append(
                    ScannedConformingExtension(
                        file: context.file, line: context.line(node), typeName: node.extendedType.trimmedDescription))
            }
            if let extended {
                for member in node.memberBlock.members { visit(member.decl, parent: extended, context: &context) }
            }
        } else if let node = decl.as(TypeAliasDeclSyntax.self) {
            result.aliases.append(
                ScannedAlias(
                    module: context.module, file: context.file, line: context.line(node),
                    path: parent + [node.name.identifierName], type: node.initializer.value,
                    doc: DocComment(leadingTriviaOf: node, converter: context.converter)))
        } else if let node = decl.as(IfConfigDeclSyntax.self), parent.isEmpty {
            for clause in node.clauses {
                if case .decls(let items)? = clause.elements {
                    for item in items { visit(item.decl, parent: parent, context: &context) }
                }
            }
        }
    }

    private mutating func record(
        _ node: some DeclSyntaxProtocol, name: TokenSyntax, kind: DeclaredKind,
        inheritance: InheritanceClauseSyntax?, modifiers: DeclModifierListSyntax, generic: Bool,
        members: MemberBlockSyntax, parent: [String], context: inout Context
    ) {
        let path = parent + [name.identifierName]
        var type = ScannedType(
            module: context.module, file: context.file, line: context.line(name), path: path, kind: kind,
            inherited: inheritance?.inheritedTypes.compactMap { DeclarationScanner.lastName($0.type) } ?? [],
            access: AccessLevel(modifiers: modifiers),
            doc: DocComment(leadingTriviaOf: node, converter: context.converter),
            isGeneric: generic, order: order)
        order += 1
        for member in members.members {
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                type.properties += properties(of: variable, context: context)
            } else if let caseDecl = decl.as(EnumCaseDeclSyntax.self) {
                let doc = DocComment(leadingTriviaOf: caseDecl, converter: context.converter)
                for element in caseDecl.elements {
                    type.cases.append(
                        ScannedCase(
                            name: element.name.identifierName, line: context.line(element.name),
                            rawValue: element.rawValue?.value,
                            parameters: element.parameterClause.map { clause in
                                clause.parameters.map { ($0.firstName.map(\.identifierName), $0.type) }
                            },
                            doc: doc))
                }
            } else if let initializer = decl.as(InitializerDeclSyntax.self),
                initializer.signature.parameterClause.parameters.first?.firstName.text == "json"
            {
                type.hasHandWrittenCodec = true
            } else if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
                function.signature.parameterClause.parameters.first?.firstName.text == "to"
            {
                type.hasHandWrittenCodec = true
            } else if decl.is(IfConfigDeclSyntax.self) {
                type.unsupportedMembers.append(
                    (
                        context.line(decl),
                        "`#if` inside a model body is not supported: the generator cannot tell which members exist"
                    ))
            }
        }
        result.types.append(type)
        for member in members.members where !member.decl.is(VariableDeclSyntax.self) {
            visit(member.decl, parent: path, context: &context)
        }
    }

    private func properties(of variable: VariableDeclSyntax, context: Context) -> [ScannedProperty] {
        let isStatic = variable.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        let isLazy = variable.modifiers.contains { $0.name.text == "lazy" }
        let attributes = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }
        let attribute = attributes.first { $0.attributeName.trimmedDescription.first?.isUppercase == true }?.trimmedDescription
        let isDeprecated = attributes.contains {
            $0.attributeName.trimmedDescription == "available" && $0.arguments?.trimmedDescription.contains("deprecated") == true
        }
        let doc = DocComment(leadingTriviaOf: variable, converter: context.converter)
        let writeAccess = [AccessLevel(modifiers: variable.modifiers), AccessLevel(setterModifiers: variable.modifiers)]
            .compactMap { $0 }.min()
        let bindings = Array(variable.bindings)
        var result: [ScannedProperty] = []
        for (index, binding) in bindings.enumerated() {
            // `var a, b: Int`: a binding without a type takes the next annotated one's.
            let type =
                binding.typeAnnotation?.type
                ?? (binding.initializer == nil ? bindings[index...].lazy.compactMap { $0.typeAnnotation?.type }.first : nil)
            var isComputed = false
            if let accessors = binding.accessorBlock {
                switch accessors.accessors {
                case .getter: isComputed = true
                case .accessors(let list):
                    isComputed = list.contains {
                        ["get", "set", "_read", "_modify", "unsafeAddress", "unsafeMutableAddress"].contains(
                            $0.accessorSpecifier.text)
                    }
                }
            }
            let name: String
            if let identifier = binding.pattern.as(IdentifierPatternSyntax.self) {
                name = identifier.identifier.identifierName
            } else {
                name = binding.pattern.trimmedDescription
            }
            result.append(
                ScannedProperty(
                    name: name, line: context.line(binding), isLet: variable.bindingSpecifier.text == "let",
                    isStatic: isStatic, isComputed: isComputed, isLazy: isLazy, attribute: attribute,
                    isDeprecatedByAttribute: isDeprecated, writeAccess: writeAccess, type: type,
                    initializer: binding.initializer?.value, doc: doc))
        }
        return result
    }

    /// The last component of a type name (`PayRPCSchema.JSONModel` → `JSONModel`).
    static func lastName(_ type: TypeSyntax) -> String? {
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.identifierName }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.identifierName }
        return nil
    }

    /// The components of a plain dotted type name, nil for anything else.
    static func namePath(_ type: TypeSyntax) -> [String]? {
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
            return [identifier.name.identifierName]
        }
        if let member = type.as(MemberTypeSyntax.self), member.genericArgumentClause == nil,
            let base = namePath(member.baseType)
        {
            return base + [member.name.identifierName]
        }
        return nil
    }
}

extension TokenSyntax {
    /// The identifier without backticks.
    var identifierName: String {
        let text = self.text
        if text.hasPrefix("`"), text.hasSuffix("`"), text.count >= 2 { return String(text.dropFirst().dropLast()) }
        return text
    }
}
