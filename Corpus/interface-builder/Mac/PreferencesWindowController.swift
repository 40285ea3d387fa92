import AppKit

final class PreferencesWindowController: NSWindowController {
    @IBOutlet weak var nameField: NSTextField!

    @IBAction func apply(_ sender: Any?) {}
}
