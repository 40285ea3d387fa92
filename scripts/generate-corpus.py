#!/usr/bin/env python3
"""Generates a large corpus of realistic Swift for the benchmark (our own generator).

Files look like app code: view controllers, view models, services, extensions, closures, switch
statements, string literals, `#if DEBUG` blocks and comments. A few percent of them hold the
patterns of the three bundled migrations (weak implicitly unwrapped outlets, backtick self
rebindings, UIWebView), next to look-alikes that are not uses (optional weak outlets, outlet
collections, `strongSelf`, the words in strings and comments). Deterministic for a given seed.

--density sets how many files hold a required text (`IBOutlet`, `` `self` ``, `UIWebView`):
  sparse (the default): a few percent of files each, about one file in ten holds any; the
         README's earlier figures were measured on it (it flatters the prefilter);
  real:  as in real app code, measured on ../shared/corpus (Rocket.Chat iOS, 702 files at the
         tip): 18.4% of files hold `IBOutlet` (4.4 outlet declarations each, nearly all
         `weak ... !`), and those files are bigger (26.5% of the bytes). The real code holds no
         `` `self` `` nor `UIWebView`; here 0.5% of files hold each, so their uses are still checked.

Usage: generate-corpus.py OUTPUT_DIR [--lines 1000000] [--seed 7] [--density sparse|real]
Prints the expected number of uses per migration as JSON on stdout, and the fraction of files
holding each required text and of bytes in files holding any.
"""
import argparse
import json
import os
import random

p = argparse.ArgumentParser()
p.add_argument("output")
p.add_argument("--lines", type=int, default=1_000_000)
p.add_argument("--seed", type=int, default=7)
p.add_argument("--density", choices=["sparse", "real"], default="sparse")
args = p.parse_args()
REAL = args.density == "real"
# Per file: the chance of outlets, of backtick rebindings, of UIWebView, and of naming the three
# only in a comment and a string (parsed, but no uses).
CHANCES = {"sparse": (0.03, 0.04, 0.02, 0.02), "real": (0.178, 0.005, 0.005, 0.004)}[args.density]
rng = random.Random(args.seed)

NOUNS = ["Profile", "Feed", "Inbox", "Checkout", "Search", "Settings", "Player", "Map", "Cart", "Order",
         "Account", "Story", "Comment", "Photo", "Video", "Payment", "Ticket", "Route", "Review", "Device"]
TYPES = ["String", "Int", "Bool", "Double", "[String]", "Date", "URL", "Data"]
expected = {"webview": 0, "backtick-self": 0, "strong-iboutlet": 0}


def property_lines(name):
    out = []
    for i in range(rng.randint(3, 8)):
        t = rng.choice(TYPES)
        access = rng.choice(["", "private ", "private(set) ", "fileprivate "])
        out.append(f"    {access}var {name.lower()}{i}: {t}?")
    return out


def outlet_lines():
    if REAL:
        return real_outlet_lines()
    out = []
    for i in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.45:
            access = rng.choice(["", "private ", "fileprivate "])
            out.append(f"    @IBOutlet {access}weak var label{i}: UILabel!")
            expected["strong-iboutlet"] += 1
        elif kind < 0.65:
            out.append(f"    @IBOutlet weak var optionalView{i}: UIView?")
        elif kind < 0.8:
            out.append(f"    @IBOutlet var strongButton{i}: UIButton!")
        elif kind < 0.9:
            out.append(f"    @IBOutlet var stack{i}: [UIView]!")
        else:
            out.append("    @IBOutlet")
            out.append(f"    weak var split{i}: UIStackView!")
            expected["strong-iboutlet"] += 1
    return out


VIEWS = ["UILabel", "UILabel", "NSLayoutConstraint", "UIView", "UIImageView", "UIButton", "UITableView",
         "UIActivityIndicatorView", "UITextField", "UIStackView"]


def real_outlet_lines():
    """Outlets as real view controllers have them: 1 to 8, nearly all `weak ... T!`, some with a
    `didSet` that styles the view, and now and then a look-alike that is not a use."""
    out = []
    for i in range(rng.randint(1, 8)):
        kind = rng.random()
        view = rng.choice(VIEWS)
        if kind < 0.93:
            access = "private " if rng.random() < 0.03 else ""
            if rng.random() < 0.3:
                out += [f"    @IBOutlet {access}weak var outlet{i}: {view}! {{",
                        "        didSet {",
                        f"            outlet{i}.accessibilityIdentifier = \"outlet{i}\"",
                        "        }",
                        "    }"]
            else:
                out.append(f"    @IBOutlet {access}weak var outlet{i}: {view}!")
            expected["strong-iboutlet"] += 1
        elif kind < 0.97:
            out.append(f"    @IBOutlet weak var optionalView{i}: {view}?")
        else:
            out.append(f"    @IBOutlet var strongButton{i}: UIButton!")
    return out


def closure_lines(name, rebind):
    body = []
    if rebind == "guard":
        body.append("            guard let `self` = self else { return }")
        expected["backtick-self"] += 1
        obj = "self"
    elif rebind == "if":
        body.append("            if let `self` = self, !items.isEmpty {")
        body.append("                self.render(items)")
        body.append("            }")
        expected["backtick-self"] += 1
        return ["        service.fetch(page: page) { [weak self] items in"] + body + ["        }"]
    else:
        body.append("            guard let strongSelf = self else { return }")
        obj = "strongSelf"
    body += [
        f"            {obj}.items = items.filter {{ !$0.isEmpty }}",
        f"            {obj}.log(\"loaded \\(items.count) {name.lower()} items\")",
        "            #if DEBUG",
        f"            print(\"debug: \\({obj}.items.count)\")",
        "            #endif",
    ]
    return ["        service.fetch(page: page) { [weak self] items in"] + body + ["        }"]


def method_lines(name, index, rebind, webview):
    out = [f"    /// Loads page {index} of the {name.lower()} list.",
           f"    func load{name}{index}(page: Int) {{"]
    out += closure_lines(name, rebind)
    if webview:
        out.append("        let preview: UIWebView = UIWebView(frame: .zero)")
        out.append("        preview.isHidden = true")
        expected["webview"] += 2
    out += [
        "        switch page {",
        "        case 0: log(\"first page\")",
        "        case 1...10: log(\"page \\(page)\")",
        "        default: log(\"far page\")",
        "        }",
        "        let summary = items.map { $0.uppercased() }.joined(separator: \", \")",
        "        if summary.count > 100 { log(String(summary.prefix(100))) }",
        "    }",
        "",
    ]
    return out


def file_text(index):
    name = rng.choice(NOUNS)
    # How often each pattern appears: a few percent of files, as in a codebase mid-migration;
    # `mentions` files name the patterns only in comments and strings (parsed, but no uses).
    has_outlets = rng.random() < CHANCES[0]
    has_rebind = rng.random() < CHANCES[1]
    has_webview = rng.random() < CHANCES[2]
    mentions = rng.random() < CHANCES[3]
    lines = [
        "//",
        f"//  {name}ViewController{index}.swift",
        "//  Generated for the swiftmod benchmark.",
        "//",
        "",
        "import Foundation",
        "import UIKit",
        "",
        f"/// Shows the {name.lower()} screen." + (" 📱" if rng.random() < 0.2 else ""),
        f"final class {name}ViewController{index}: UIViewController {{",
    ]
    if has_outlets:
        lines += outlet_lines()
    lines += property_lines(name)
    lines += ["    var items: [String] = []", "    private let service = Service()", ""]
    if mentions:
        lines.append("    // Old code used UIWebView and `guard let `self` = self`; see the migration docs.")
        lines.append("    private let note = \"@IBOutlet weak var x: UILabel! and UIWebView are deprecated\"")
    # Real view controllers with outlets are the big files: they hold 26.5% of the bytes.
    methods = rng.randint(7, 14) if REAL and has_outlets else rng.randint(4, 9)
    for m in range(methods):
        rebind = "plain"
        if has_rebind and m < 2:
            rebind = rng.choice(["guard", "if"])
        lines += method_lines(name, m, rebind, has_webview and m == 0)
    lines += [
        "    func log(_ message: String) { print(\"[\\(type(of: self))] \\(message)\") }",
        "    func render(_ items: [String]) { self.items = items }",
        "}",
        "",
        f"extension {name}ViewController{index}: CustomStringConvertible {{",
        f"    var description: String {{ \"{name}ViewController{index}(\\(items.count) items)\" }}",
        "}",
        "",
    ]
    return lines


total = 0
index = 0
REQUIRED = ["IBOutlet", "`self`", "UIWebView"]
holding = {text: 0 for text in REQUIRED}
all_bytes = candidate_bytes = 0
os.makedirs(args.output, exist_ok=True)
while total < args.lines:
    lines = file_text(index)
    module = f"Module{index % 60:02d}"
    folder = os.path.join(args.output, "Modules", module, "Sources", module)
    os.makedirs(folder, exist_ok=True)
    text = "\n".join(lines)
    with open(os.path.join(folder, f"File{index:05d}.swift"), "w", encoding="utf-8") as f:
        f.write(text)
    size = len(text.encode())
    all_bytes += size
    found = [required for required in REQUIRED if required in text]
    for required in found:
        holding[required] += 1
    if found:
        candidate_bytes += size
    total += len(lines)
    index += 1

with open(os.path.join(args.output, ".swiftmod.yml"), "w") as f:
    f.write("""migrations:
  - id: webview
    codemod: swap-type
    params: { from: UIWebView, to: WKWebView, module: UIKit, import: WebKit }
    priority: P1
  - codemod: backtick-self
  - codemod: strong-iboutlet
""")
density = {text: round(count / index, 4) for text, count in holding.items()}
density["bytes in files holding any"] = round(candidate_bytes / all_bytes, 4)
print(json.dumps({"files": index, "lines": total, "uses": expected, "density": density}))
