// Compiles the tree-sitter runtime (its single-file amalgamation) from `.deps/`.
#if __has_include("../../.deps/tree-sitter/lib/src/lib.c")
#include "../../.deps/tree-sitter/lib/src/lib.c"
#else
#error "tree-sitter sources are missing: run scripts/bootstrap (or make) first"
#endif
