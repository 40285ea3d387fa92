// The tree-sitter-swift grammar. Its sources are not committed:
// `scripts/bootstrap` downloads them into `.deps/` (git-ignored).
#ifndef SWIFTMOD_CTREESITTERSWIFT_H
#define SWIFTMOD_CTREESITTERSWIFT_H

typedef struct TSLanguage TSLanguage;

/// The Swift grammar, as a tree-sitter language.
const TSLanguage *tree_sitter_swift(void);

#endif
