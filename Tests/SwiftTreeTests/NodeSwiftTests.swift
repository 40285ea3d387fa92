import Testing
@testable import SwiftTree

/// The Swift-grammar helpers of `Node+Swift.swift`.
@Suite struct NodeSwiftTests {
    func node(_ source: String, _ predicate: (Node) -> Bool) throws -> Node {
        let found = Parser().parse(source).root.descendants.first(where: predicate)
        return try #require(found)
    }

    func identifier(_ text: String, in source: String) throws -> Node {
        try node(source) { $0.kind == "simple_identifier" && $0.text == text }
    }

    @Test func declaredNamesOfTypesExtensionsAndFunctions() throws {
        let source = """
        final class Feed<T> {}
        extension Outer . Inner {}
        extension Outer . /* c */ Inner {}
        extension Box<Int> {}
        protocol Loading {}
        func reload(all: Bool) {}
        typealias Client = HTTPClient
        let x = 1
        """
        // A property declares its pattern (`x`): it has a `name` field too.
        let declarations = Parser().parse(source).root.namedChildren
        #expect(declarations.map(\.declaredName) == ["Feed", "Outer.Inner", "Outer.Inner", "Box", "Loading", "reload", "Client", "x"])
        #expect(declarations.map(\.declaredNameAsWritten)
            == ["Feed", "Outer.Inner", "Outer./*c*/Inner", "Box<Int>", "Loading", "reload", "Client", "x"])
        #expect(declarations.map(\.isExtension) == [false, true, true, true, false, false, false, false])
        #expect(declarations.map(\.extendedTypeName) == [nil, "Outer.Inner", "Outer.Inner", "Box", nil, nil, nil, nil])
    }

    @Test func structsEnumsAndActorsAreNoExtensions() throws {
        let declarations = Parser().parse("struct A {}\nenum B {}\nactor C {}\n").root.namedChildren
        #expect(declarations.map(\.kind) == ["class_declaration", "class_declaration", "class_declaration"])
        #expect(declarations.map(\.isExtension) == [false, false, false])
        #expect(declarations.map(\.declaredName) == ["A", "B", "C"])
    }

    @Test func significantSiblingsSkipComments() throws {
        let source = "guard let `self` /* a */ = // b\n self else { return }\n"
        let binding = try identifier("`self`", in: source)
        #expect(binding.nextSibling?.kind == "multiline_comment")
        #expect(binding.nextSibling?.isComment == true)
        let equals = try #require(binding.nextSignificantSibling)
        #expect(equals.kind == "=")
        #expect(equals.nextSignificantSibling?.kind == "self_expression")
        #expect(equals.previousSignificantSibling == binding)
        #expect(binding.previousSignificantSibling?.kind == "value_binding_pattern")
        #expect(!binding.isComment)
    }

    @Test func conditionalCompilation() throws {
        let source = """
        func f() {
            before()
            #if DEBUG
            inside()
            #if os(iOS)
            nested()
            #endif
            #elseif TESTING
            other()
            #else
            fallback()
            #endif
            after()
        }
        """
        let expected: [(String, Int)] = [("before", 0), ("inside", 1), ("nested", 2), ("other", 1), ("fallback", 1), ("after", 0)]
        for (name, depth) in expected {
            let call = try #require(try identifier(name, in: source).ancestors.first { $0.kind == "call_expression" })
            #expect(call.conditionalCompilationDepth == depth, "\(name)")
            #expect(call.isInsideConditionalCompilation == (depth > 0), "\(name)")
        }
        let directives = Parser().parse(source).root.descendants.compactMap(\.conditionalCompilationDirective)
        #expect(directives == [.if, .if, .endif, .elseif, .else, .endif])
        #expect(try identifier("before", in: source).conditionalCompilationDirective == nil)
    }

    @Test func onlyEarlierSiblingsCount() throws {
        // A block inside an `#if` of its parent's parent is not counted: only its own siblings are.
        let source = "#if DEBUG\nfunc f() {\n    g()\n}\n#endif\n"
        let function = try node(source) { $0.kind == "function_declaration" }
        #expect(function.isInsideConditionalCompilation)
        let call = try #require(try identifier("g", in: source).ancestors.first { $0.kind == "call_expression" })
        #expect(!call.isInsideConditionalCompilation)
    }

    @Test func enclosingTypeDeclaration() throws {
        let source = """
        class Outer {
            struct Inner { func f() { a() } }
            func g() { b() }
        }
        extension Outer { func h() { c() } }
        protocol P { func p() }
        func free() { d() }
        """
        #expect(try identifier("a", in: source).enclosingTypeDeclaration?.declaredName == "Inner")
        #expect(try identifier("b", in: source).enclosingTypeDeclaration?.declaredName == "Outer")
        #expect(try identifier("c", in: source).enclosingTypeDeclaration?.extendedTypeName == "Outer")
        #expect(try identifier("p", in: source).enclosingTypeDeclaration == nil)
        #expect(try identifier("d", in: source).enclosingTypeDeclaration == nil)
    }
}
