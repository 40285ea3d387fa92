import Foundation

// Does not parse (a call left open); what the parser still understands is replaced.
let first = OldThing()
func half() {
    let second = make(OldThing(),
}
