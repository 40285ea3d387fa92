// Compiles the Swift grammar's external scanner from `.deps/`.
#if __has_include("../../.deps/tree-sitter-swift/src/scanner.c")
#include "../../.deps/tree-sitter-swift/src/scanner.c"
#else
#error "tree-sitter-swift sources are missing: run scripts/bootstrap (or make) first"
#endif
