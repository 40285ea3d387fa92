import Foundation
import Testing
@testable import Workspace

/// The old-style property list reader `XcodeProject` uses, against Foundation's reader (the
/// oracle) on a project written as Xcode writes them, and on damaged ones.
@Suite struct PropertyListTests {
    /// A project as Xcode writes it: a header comment, ids with comments after them, bare and
    /// quoted strings, escapes, non-ASCII names, an empty array, nested dictionaries, CRLF lines.
    static let project = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 77;
        \tobjects = {

        /* Begin PBXBuildFile section */
        \t\tA1000001 /* Feed.swift in Sources */ = {isa = PBXBuildFile; fileRef = A2000001 /* Feed.swift */; };
        /* End PBXBuildFile section */

        /* Begin PBXFileReference section */
        \t\tA2000001 /* Feed.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Feed.swift; sourceTree = "<group>"; };
        \t\tA2000002 /* Réglages 🎛.storyboard */ = {isa = PBXFileReference; path = "Réglages 🎛.storyboard"; sourceTree = "<group>"; };
        \t\tA2000003 = {isa = PBXFileReference; name = "say \\"hi\\"\\tnow\\\\"; path = "a\\nb"; sourceTree = SOURCE_ROOT; };
        /* End PBXFileReference section */

        \t\tA3000001 /* App */ = {
        \t\t\tisa = PBXGroup;
        \t\t\tchildren = (
        \t\t\t\tA2000001 /* Feed.swift */,
        \t\t\t\tA2000002 /* Réglages 🎛.storyboard */,
        \t\t\t);
        \t\t\tpath = App;
        \t\t\tsourceTree = "<group>";
        \t\t};
        \t\tA4000001 /* Debug */ = {
        \t\t\tisa = XCBuildConfiguration;
        \t\t\tbuildSettings = {
        \t\t\t\t"OTHER_SWIFT_FLAGS[arch=*]" = "-D DEBUG";
        \t\t\t\tPRODUCT_MODULE_NAME = "$(TARGET_NAME:c99extidentifier)";
        \t\t\t\tSWIFT_VERSION = 5.0;
        \t\t\t\tLIBRARY_SEARCH_PATHS = (
        \t\t\t\t);
        \t\t\t};
        \t\t\tname = Debug;
        \t\t};
        \t};
        \trootObject = A3000001 /* App */;
        }

        """

    @Test func readsAProjectAsFoundationDoes() throws {
        for text in [Self.project, Self.project.replacingOccurrences(of: "\n", with: "\r\n")] {
            let bytes = Array(text.utf8)
            let ours = try PropertyList(bytes: bytes)
            let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            #expect(ours == Self.converted(foundation))
        }
        let read = try PropertyList(bytes: Array(Self.project.utf8))
        #expect(read["objects"]?["A2000002"]?["path"]?.string == "Réglages 🎛.storyboard")
        #expect(read["objects"]?["A2000003"]?["name"]?.string == "say \"hi\"\tnow\\")
        #expect(read["objects"]?["A3000001"]?["children"]?.strings == ["A2000001", "A2000002"])
    }

    @Test func readsEscapesAndDataAsFoundationDoes() throws {
        let text = #"{ a = "\101\U00e9\n"; b = <0fA1 b2>; c = ( "x", y, ); 'd' = 'single'; }"#
        let ours = try PropertyList(bytes: Array(text.utf8))
        let foundation = try PropertyListSerialization.propertyList(from: Data(text.utf8), options: [], format: nil)
        #expect(ours == Self.converted(foundation))
        #expect(ours["a"]?.string == "Aé\n")
        #expect(ours["b"] == .data([0x0F, 0xA1, 0xB2]))
        // A character beyond U+FFFF, as two UTF-16 units.
        let pair = #"{ path = "\Ud83d\Ude00VC.swift"; lone = "\Ud83dx"; }"#
        let read = try PropertyList(bytes: Array(pair.utf8))
        #expect(read == Self.converted(try PropertyListSerialization.propertyList(from: Data(pair.utf8), options: [], format: nil)))
        #expect(read["path"]?.string == "😀VC.swift")
    }

    @Test func saysWhereADamagedFileGoesWrong() {
        let cases: [(String, Int, String)] = [
            ("// nothing but a comment\n", 2, "nothing but comments"),
            ("{\n  a = b;\n  c = d\n}\n", 4, "`;` after the value of `c` is missing"),
            ("{\n  a = (x, y;\n}\n", 2, "`,` or `)` should follow"),
            ("{\n  a = \"open;\n}\n", 4, "a string is not closed"),
            ("{ a = b; }\n}\n", 2, "more text after the value"),
            ("{\n<<<<<<< HEAD\n", 2, "a dictionary key should be a string"),
            ("{ a = <0g>; }", 1, "no hex digit"),
            ("{ a = b;", 1, "a `}` is missing"),
            ("{ objects = " + String(repeating: "(", count: 40_000) + String(repeating: ")", count: 40_000) + "; }", 1, "nested more than 512 deep"),
        ]
        for (text, line, reason) in cases {
            #expect(throws: PropertyList.ReadError.self) { try PropertyList(bytes: Array(text.utf8)) }
            do {
                _ = try PropertyList(bytes: Array(text.utf8))
            } catch let error as PropertyList.ReadError {
                #expect(error.line == line && error.reason.contains(reason), "\(text.debugDescription): \(error)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Foundation's value as ours.
    static func converted(_ value: Any) -> PropertyList? {
        switch value {
        case let string as String: return .string(string)
        case let data as Data: return .data([UInt8](data))
        case let array as [Any]:
            let items = array.compactMap(converted)
            return items.count == array.count ? .array(items) : nil
        case let dictionary as [String: Any]:
            var result: [String: PropertyList] = [:]
            for (key, item) in dictionary {
                guard let converted = converted(item) else { return nil }
                result[key] = converted
            }
            return .dictionary(result)
        default:
            return nil
        }
    }
}
