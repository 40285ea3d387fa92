class A: UIView {
    @IBOutlet weak var a: UILabel?, b: UILabel!
    @IBOutlet weak var c: UILabel!, d: UILabel?
}
