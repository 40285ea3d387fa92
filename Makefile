# swiftmod — two commands: `make demo` (the main job on a bundled example) and `make test`.
SWIFT ?= swift
RELEASE_BINARY := .build/release/swiftmod

.PHONY: all bootstrap build release demo test clean

all: release

## Download and verify the tree-sitter sources into .deps/ (once).
bootstrap:
	@scripts/bootstrap

## Debug build.
build: bootstrap
	$(SWIFT) build

## Release binary at .build/release/swiftmod.
release: bootstrap
	@$(SWIFT) build -c release --product swiftmod 2>&1 | grep -v '^\[' || true
	@test -x $(RELEASE_BINARY)

## The main job on a bundled example.
demo: release
	@echo "== swiftmod parse Corpus/parse/ViewController.swift (the syntax tree a codemod matches against)"
	@$(RELEASE_BINARY) parse Corpus/parse/ViewController.swift

## Build everything and run the whole test suite.
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-xctest

clean:
	rm -rf .build
