import Foundation
@testable import InterfaceBuilder
import Testing

/// Reading storyboards and xibs: objects of custom classes, File's Owner, connections with the
/// object they are made on, and clear errors for what is not Interface Builder's XML.
@Suite struct IBDocumentTests {
    func read(_ xml: String, path: String = "View.xib") throws -> IBDocument {
        try IBDocument(path: path, data: Data(xml.utf8))
    }

    @Test func aXibsOwnerAndItsOutlets() throws {
        let document = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0">
                <objects>
                    <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="CardView" customModule="App" customModuleProvider="target">
                        <connections>
                            <outlet property="titleLabel" destination="a" id="c1"/>
                            <outletCollection property="stars" destination="a" id="c2"/>
                        </connections>
                    </placeholder>
                    <view id="v">
                        <subviews>
                            <label id="a"/>
                            <button id="b">
                                <connections>
                                    <action selector="tap:" destination="-1" eventType="touchUpInside" id="c3"/>
                                </connections>
                            </button>
                        </subviews>
                    </view>
                </objects>
            </document>
            """)
        #expect(document.platform == .uiKit && !document.isStoryboard)
        let owner = try #require(document.object("-1"))
        #expect(owner.isFilesOwner && owner.customClass == "CardView" && owner.moduleFromTarget && owner.line == 4)
        #expect(document.object("a")?.parent == "v")
        #expect(document.connections.map { "\($0.kind.rawValue) \($0.name) \($0.source)→\($0.destination) @\($0.line)" } == [
            "outlet titleLabel -1→a @6",
            "outletCollection stars -1→a @7",
            "action tap: b→-1 @15",
        ])
    }

    @Test func anAppKitXibsActionsNameTheirTarget() throws {
        let document = try read("""
            <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0">
                <objects>
                    <customObject id="-2" customClass="Prefs"/>
                    <textField id="t"><connections><action selector="apply:" target="-2" id="x"/></connections></textField>
                </objects>
            </document>
            """)
        #expect(document.platform == .appKit)
        #expect(document.connections.first?.destination == "-2" && document.connections.first?.source == "t")
    }

    @Test func whatIsNotInterfaceBuildersXMLIsAnErrorWithItsLine() {
        #expect(throws: IBDocument.ReadError.self) { try read("<plist version=\"1.0\"><dict/></plist>") }
        do {
            _ = try read("<document type=\"com.apple.InterfaceBuilder3.CocoaTouch.XIB\">\n<objects>\n<view id=\"a\">\n</objects>\n")
            Issue.record("a damaged xib was read")
        } catch let error as IBDocument.ReadError {
            #expect(error.line >= 3 && error.reason.contains("not well-formed XML"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
        #expect(throws: IBDocument.ReadError.self) { try read("") }
        #expect(throws: IBDocument.ReadError.self) { try IBDocument(contentsOf: "/no/such/file.xib") }
    }
}
