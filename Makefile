# swiftmod — two commands: `make demo` (the main job on a bundled example) and `make test`.
SWIFT ?= swift
RELEASE_BINARY := .build/release/swiftmod
# On Linux the release binary carries the Swift runtime, so it runs where Swift is not installed.
STATIC := $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,)

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
	@$(SWIFT) build -c release --product swiftmod $(STATIC) 2>&1 | grep -v '^\[' || true
	@test -x $(RELEASE_BINARY)

## The main job on a bundled example.
demo: release
	@echo "== swiftmod list"
	@$(RELEASE_BINARY) list
	@echo
	@echo "== swiftmod run strong-iboutlet Corpus/strong-iboutlet/basic.swift   (a dry run: a diff, nothing written)"
	@$(RELEASE_BINARY) run strong-iboutlet Corpus/strong-iboutlet/basic.swift
	@echo
	@echo "Next: add --write to apply it, 'swiftmod parse FILE' to see what a codemod can match,"
	@echo "      'swiftmod test' to run every codemod's examples. Binary: $(RELEASE_BINARY)"

## Build everything and run the whole test suite.
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-xctest

clean:
	rm -rf .build
