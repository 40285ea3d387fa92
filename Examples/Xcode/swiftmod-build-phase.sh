# swiftmod in an Xcode "Run Script" build phase: new uses of deprecated patterns, and new module
# rule violations, in this target's files are errors in the issue navigator, at their lines.
# The target's files: $SWIFTMOD_PATH if set (a build setting), else $SRCROOT/$TARGET_NAME when
# that folder exists, else $SRCROOT.
export PATH="$PATH:/opt/homebrew/bin:/usr/local/bin"
if ! command -v swiftmod >/dev/null 2>&1; then
  echo "warning: swiftmod is not installed, so deprecated patterns are not checked"
  exit 0
fi
if [ -n "$SWIFTMOD_PATH" ] && [ ! -e "$SWIFTMOD_PATH" ]; then
  echo "error: SWIFTMOD_PATH is $SWIFTMOD_PATH, which does not exist"
  exit 1
fi
target="${SWIFTMOD_PATH:-$SRCROOT/$TARGET_NAME}"
[ -e "$target" ] || target="$SRCROOT"
cd "$SRCROOT" && swiftmod check --format xcode "$target"
