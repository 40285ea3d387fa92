// The tree-sitter runtime's public C API. The sources are not committed:
// `scripts/bootstrap` downloads them into `.deps/` (git-ignored).
#ifndef SWIFTMOD_CTREESITTER_H
#define SWIFTMOD_CTREESITTER_H

#if __has_include("../../../.deps/tree-sitter/lib/include/tree_sitter/api.h")
#include "../../../.deps/tree-sitter/lib/include/tree_sitter/api.h"
#else
#error "tree-sitter sources are missing: run scripts/bootstrap (or make) first"
#endif

#endif
