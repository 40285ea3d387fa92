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

## The main job on bundled examples (see scripts/demo).
demo: release
	@scripts/demo

## Build everything and run the whole test suite.
test: bootstrap
	@scripts/test-tools
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-xctest

clean:
	rm -rf .build
