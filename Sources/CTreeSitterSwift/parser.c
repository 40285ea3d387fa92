// Compiles the generated Swift grammar tables from `.deps/`.
#if __has_include("../../.deps/tree-sitter-swift/src/parser.c")
#include "../../.deps/tree-sitter-swift/src/parser.c"
#else
#error "tree-sitter-swift sources are missing: run scripts/bootstrap (or make) first"
#endif
