import Testing
@testable import Tracker

/// CSV cells: never a formula a spreadsheet would run, yet numbers stay numbers.
@Suite struct CSVFieldTests {
    @Test(arguments: [("-0.8", "-0.8"), ("12", "12"), ("0.25", "0.25"), ("-3", "-3")])
    func numbersStayNumbers(_ raw: String, _ cell: String) {
        #expect(ProgressCSV.field(raw) == cell)
    }

    @Test(arguments: [("=1+1", "\"'=1+1\""), ("-1+2", "\"'-1+2\""), ("@team", "\"'@team\""), ("+1", "\"'+1\""), ("-", "\"'-\""),
                      ("a,b", "\"a,b\"")])
    func formulasAreText(_ raw: String, _ cell: String) {
        #expect(ProgressCSV.field(raw) == cell)
    }
}
