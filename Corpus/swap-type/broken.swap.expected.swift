import Foundation

// Does not parse (a call left open); what the parser still understands is replaced.
let first = NewThing()
func half() {
    let second = make(NewThing(),
}
