import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import InterfaceBuilder
import Testing

/// The XML reader of storyboards and xibs against Foundation's `XMLParser` (libxml2), the oracle:
/// the same elements and attributes where both read a document, a failure where it fails, with
/// the line; and what a damaged storyboard looks like (merge conflicts, stray `&`, cut files).
@Suite struct XMLScannerTests {
    /// What a reader saw: each start tag with its attributes (sorted) and line, each end tag.
    static func events(ours bytes: [UInt8]) -> Result<[String], XMLScanner.Failure> {
        var events: [String] = []
        do {
            try XMLScanner.scan(bytes, start: { tag in
                let attributes = tag.attributes.map { String(decoding: tag.bytes[$0.name], as: UTF8.self) }.sorted()
                    .map { "\($0)=\(tag.attribute($0) ?? "?")" }
                events.append("<\(tag.name) \(attributes.joined(separator: " ")) @\(tag.line)")
            }, end: { name, bytes in events.append("</\(String(decoding: bytes[name], as: UTF8.self))") })
            return .success(events)
        } catch let failure as XMLScanner.Failure {
            return .failure(failure)
        } catch {
            Issue.record("\(error)")
            return .success([])
        }
    }

    final class Recorder: NSObject, XMLParserDelegate {
        var events: [String] = []
        var failed = false
        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            events.append("<\(element) \(attributes.keys.sorted().map { "\($0)=\(attributes[$0]!)" }.joined(separator: " ")) @\(parser.lineNumber)")
        }
        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            events.append("</\(element)")
        }
        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { failed = true }
    }

    static func events(foundation bytes: [UInt8]) -> [String]? {
        let recorder = Recorder()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = recorder
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        return parsed && !recorder.failed && parser.parserError == nil ? recorder.events : nil
    }

    static let storyboard = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Written by hand, as Xcode would: -->
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22155">
            <scenes>
                <scene sceneID="s1">
                    <objects>
                        <viewController title="Réglages 🎛 &amp; &quot;more&quot; &#233;&#x1F600;" id="v1" customClass="SettingsViewController" customModule='App' sceneMemberID="viewController">
                            <view key="view" contentMode="scaleToFill"
                                  id="r1">
                                <subviews>
                                    <label text="a &lt; b &gt; c" id="l1"/>
                                    <textView id="t1"><string key="text">Line one &amp; two
        <![CDATA[ <not a tag> & ]]>
                                    </string></textView>
                                </subviews>
                            </view>
                            <connections>
                                <outlet property="titleLabel" destination="l1" id="o1"/>
                            </connections>
                        </viewController>
                        <?processing instruction?>
                    </objects>
                </scene>
            </scenes>
        </document>

        """

    @Test func readsAStoryboardAsXMLParserDoes() throws {
        for text in [Self.storyboard, Self.storyboard.replacingOccurrences(of: "\n", with: "\r\n"), "\u{FEFF}" + Self.storyboard] {
            let bytes = Array(text.utf8)
            let ours = try Self.events(ours: bytes).get()
            #expect(ours == Self.events(foundation: bytes), "\(ours)")
        }
        let ours = try Self.events(ours: Array(Self.storyboard.utf8)).get()
        #expect(ours.contains { $0.contains("title=Réglages 🎛 & \"more\" é😀") })
        // A start tag's line is that of its `>`.
        #expect(ours.contains("<view contentMode=scaleToFill id=r1 key=view @9"))
    }

    @Test func theDeclarationNamesItsEncodingAsTheRegularExpressionItReplacesRead() throws {
        // The pattern the reading replaced, as the oracle.
        let pattern = try NSRegularExpression(pattern: #"encoding[ \t\r\n]*=[ \t\r\n]*["']([A-Za-z0-9._-]+)["']"#)
        func oracle(_ text: String) -> String? {
            let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
            return match.flatMap { Range($0.range(at: 1), in: text) }.map { text[$0].lowercased() }
        }
        let declarations = [
            #"<?xml version="1.0" encoding="UTF-8"?"#, #"<?xml version='1.0' encoding='ISO-8859-1'?"#,
            "<?xml version=\"1.0\" encoding \t\r\n= \n\"windows-1252\"?", #"<?xml version="1.0"?"#, #"<?xml encoding="utf-8'?"#,
            #"<?xml encoding=""?"#, #"<?xml encoding="utf 8"?"#, #"<?xml encodingX="a" encoding="b"?"#, #"<?xml encoding=utf-8?"#,
            #"<?xml encoding="a" encoding="b"?"#, #"<?xml encoding"#, #"<?xml encoding="#, #"<?xml encoding="x"#, #"<?xml encoding=="x"?"#,
        ]
        for declaration in declarations {
            #expect(XMLScanner.declaredEncoding(ArraySlice(declaration.utf8)) == oracle(declaration), "\(declaration)")
        }
    }

    @Test func readsUTF16WithItsByteOrderMark() throws {
        let text = Self.storyboard.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        let bytes = [UInt8](text.data(using: .utf16)!)
        #expect(try Self.events(ours: bytes).get() == Self.events(foundation: bytes))
    }

    /// Damaged files: each fails, as it fails in `XMLParser`, with the line where it breaks.
    @Test func failsWhereXMLParserFails() {
        let document = "<document type=\"com.apple.InterfaceBuilder3.CocoaTouch.XIB\">\n"
        let cases: [(String, Int, String)] = [
            (document + "<objects>\n<view id=\"a\">\n</objects>\n</document>\n", 4, "closes `<view>` of line 3"),
            (document + "<objects/>\n</document>\n<<<<<<< HEAD\n", 4, "text outside the root element"),
            (document + "<objects/>\n</document>\n=======\n", 4, "text outside the root element"),
            (document + "<objects>\n<label text=\"Tom & Jerry\" id=\"l\"/>\n</objects>\n</document>\n", 3, "`&` begins no reference"),
            (document + "<objects>\nFish &chips;\n</objects>\n</document>\n", 3, "`&` begins no reference"),
            (document + "<objects>\n<label id=\"a\" id=\"b\"/>\n</objects>\n</document>\n", 3, "given twice"),
            (document + "<objects>\n<label id=a/>\n</objects>\n</document>\n", 3, "should be quoted"),
            (document + "<objects>\n<label id=\"a\"text=\"b\"/>\n</objects>\n</document>\n", 3, "a space should come before"),
            (document + "<objects>\n<label text=\"a < b\"/>\n</objects>\n</document>\n", 3, "`<` in the value"),
            (document + "<objects>\n<label id=\"a\"", 3, "is not closed"),
            (document + "<objects>\n<!-- a comment\n", 3, "a comment is not closed"),
            (document + "<objects>\n</document>\n", 3, "closes `<objects>`"),
            (document + "<objects>\n", 3, "is not closed"),
            (document + "</document>\n<document type=\"x\"/>\n", 3, "text outside the root element"),
            (document + "<objects>\n< view/>\n</objects>\n</document>\n", 3, "a name should follow"),
            (document + "<objects>\n<label text=\"a\u{1}b\"/>\n</objects>\n</document>\n", 3, "a control character, U+0001"),
            (document + "<objects>\n\u{0}\u{0}\n</objects>\n</document>\n", 3, "a control character, U+0000"),
            (document + "<objects>\n<!-- a -- b -->\n</objects>\n</document>\n", 3, "`--` inside a comment"),
            (document + "<objects>\n<!-- a --->\n</objects>\n</document>\n", 3, "`--` inside a comment"),
            (document + "<objects>\n<label text=\"&#0;\"/>\n</objects>\n</document>\n", 3, "`&` begins no reference"),
            (document + "<objects>\n<label text=\"&#xD800;\"/>\n</objects>\n</document>\n", 3, "`&` begins no reference"),
            (document + "<objects>\n<label text=\"&#x110000;\"/>\n</objects>\n</document>\n", 3, "`&` begins no reference"),
            ("\n<?xml version=\"1.0\"?>\n" + document + "</document>\n", 2, "an XML declaration that is not at the start"),
            (document + "<objects>\n<?xml version=\"1.0\"?>\n</objects>\n</document>\n", 3, "an XML declaration that is not at the start"),
            ("", 1, "no root element"),
            ("just text", 1, "text outside the root element"),
        ]
        for (text, line, reason) in cases {
            let bytes = Array(text.utf8)
            // (On Linux, `XMLParser` reads an empty file, or bare text, as a document of nothing;
            // `IBDocument` failed on it all the same: no `<document>`.)
            if line > 1 { #expect(Self.events(foundation: bytes) == nil, "XMLParser reads \(text.debugDescription)") }
            switch Self.events(ours: bytes) {
            case .success: Issue.record("read: \(text.debugDescription)")
            case let .failure(failure):
                #expect(failure.line == line && failure.reason.contains("not well-formed XML") && failure.reason.contains(reason),
                        "\(text.debugDescription): \(failure)")
            }
        }
        // Bytes that are not UTF-8 (a Latin-1 `é` on line 3).
        let latin1 = Array((document + "<objects>\n<label text=\"caf").utf8) + [0xE9] + Array("\"/>\n</objects>\n</document>\n".utf8)
        #expect(Self.events(foundation: latin1) == nil)
        if case let .failure(failure) = Self.events(ours: latin1) {
            #expect(failure.line == 3 && failure.reason.contains("not UTF-8"), "\(failure)")
        } else {
            Issue.record("Latin-1 bytes were read")
        }
    }

    /// What Xcode does not write, but XML allows, and `XMLParser` read: UTF-16 without a byte
    /// order mark, an 8-bit encoding the declaration names. An entity a DOCTYPE declares is not
    /// read, and the failure says so.
    @Test func readsOtherEncodingsAndSaysWhatItDoesNotRead() throws {
        for encoding: String.Encoding in [.utf16LittleEndian, .utf16BigEndian] {
            let bytes = [UInt8](Self.storyboard.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"").data(using: encoding)!)
            #expect(try Self.events(ours: bytes).get() == Self.events(foundation: bytes), "\(encoding)")
        }
        let latin1 = [UInt8]("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<document type=\"t\" title=\"Café\"/>\n".data(using: .isoLatin1)!)
        #expect(try Self.events(ours: latin1).get() == Self.events(foundation: latin1))
        #expect(try Self.events(ours: latin1).get().first?.contains("title=Café") == true)
        let entity = "<?xml version=\"1.0\"?>\n<!DOCTYPE document [\n<!ENTITY vc \"VC\">\n]>\n<document type=\"t\">\n<view customClass=\"&vc;\" id=\"a\"/>\n</document>\n"
        guard case let .failure(failure) = Self.events(ours: Array(entity.utf8)) else { Issue.record("read"); return }
        #expect(failure.line == 6 && failure.reason.contains("`&vc;` is an entity its DOCTYPE declares, which is not read"), "\(failure)")
    }

    @Test func aDocumentThatIsNotInterfaceBuildersSaysWhatItsRootIs() {
        do {
            _ = try IBDocument(path: "Info.xib", data: Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n".utf8))
            Issue.record("a property list was read as a xib")
        } catch let error as IBDocument.ReadError {
            #expect(error.line == 2 && error.reason == "not an Interface Builder document (its root is <plist>)", "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
