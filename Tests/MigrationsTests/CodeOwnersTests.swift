import Testing
@testable import Migrations

/// The rules of GitHub's CODEOWNERS documentation, checked one by one.
@Suite struct CodeOwnersTests {
    let owners = CodeOwners(text: """
    # Comments and blank lines are ignored.

    *       @global-owner1 @global-owner2
    *.js    @js-owner #This is an inline comment.
    *.go docs@example.com
    *.txt @octo-org/octocats
    /build/logs/ @doctocat
    docs/*  docs@example.com
    apps/ @octocat
    /docs/ @doctocat
    /scripts/ @doctocat @octocat
    **/logs @octocat
    /apps/ @octocat
    /apps/github
    !Secret.swift @nobody-negation-is-a-pattern
    Sources/**/Generated/ @generator
    """)

    @Test(arguments: [
        ("README.md", ["@global-owner1", "@global-owner2"]),
        ("web/app.js", ["@js-owner"]),
        ("cmd/main.go", ["docs@example.com"]),
        ("notes/a.txt", ["@octo-org/octocats"]),
        ("build/logs/out.log", ["@octocat"]),            // `**/logs` comes later and wins
        ("docs/getting-started.md", ["@doctocat"]),      // `/docs/` comes after `docs/*`
        ("deep/docs/intro.md", ["@global-owner1", "@global-owner2"]),  // `docs/*` is anchored (a slash inside)
        ("scripts/deploy.sh", ["@doctocat", "@octocat"]),
        ("apps/web/index.html", ["@octocat"]),
        ("apps/github/readme.md", []),                   // no owners: unowned
        ("x/logs/today.txt", ["@octocat"]),
        ("Sources/App/Generated/Api.swift", ["@generator"]),
        ("!Secret.swift", ["@nobody-negation-is-a-pattern"]),
        ("Secret.swift", ["@global-owner1", "@global-owner2"]),
    ])
    func ownership(path: String, expected: [String]) {
        #expect(owners.owners(of: path) == expected, "\(path)")
    }

    @Test func lastMatchWinsAndUnmatchedIsUnowned() {
        let simple = CodeOwners(text: "/Sources/ @app\n/Sources/Feed/ @feed\n")
        #expect(simple.owners(of: "Sources/Feed/A.swift") == ["@feed"])
        #expect(simple.owners(of: "Sources/Other/A.swift") == ["@app"])
        #expect(simple.owners(of: "Tests/A.swift") == [])
        #expect(simple.rules.map(\.line) == [1, 2])
    }

    @Test func patternShapes() {
        let rules = CodeOwners(text: "docs/* @a\n/src/*.swift @b\n")
        #expect(rules.owners(of: "docs/a.md") == ["@a"])
        #expect(rules.owners(of: "docs/sub/a.md") == [])
        #expect(rules.owners(of: "src/A.swift") == ["@b"])
        #expect(rules.owners(of: "lib/src/A.swift") == [])
    }

    /// GitHub's names are not case-sensitive: one owner, named as the file first spells it, once
    /// per rule (issue 23).
    @Test func anOwnerSpelledInTwoCasesIsOneOwner() {
        let owners = CodeOwners(text: "/A/ @acme/feed\n/B/ @Acme/Feed\n/C/ @acme/feed @ACME/FEED @acme/ops\n")
        #expect(owners.owners(of: "A/x.swift") == ["@acme/feed"])
        #expect(owners.owners(of: "B/x.swift") == ["@acme/feed"])
        #expect(owners.owners(of: "C/x.swift") == ["@acme/feed", "@acme/ops"])
    }
}
