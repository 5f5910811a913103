#!/usr/bin/env bash
# `pip wheel .` from a clean clone of the checkout's HEAD, offline, as a user
# would run it: the whole CMake build inside pip's isolated build environment
# (minutes: it runs only with KLINT_TEST_FULL_BUILD=1, and is labelled slow).
# The wheel installs into a fresh virtual environment, and its klint names
# the clone's commit and lints an example. CMAKE_CXX_COMPILER_LAUNCHER=ccache
# and CMAKE_BUILD_PARALLEL_LEVEL in the environment reach the build.
#
# usage: wheel_from_clone.sh KLINT_SOURCE_DIR
set -euo pipefail
if [[ ${KLINT_TEST_FULL_BUILD:-} != 1 ]]; then
  echo "skipped: builds klint from scratch; KLINT_TEST_FULL_BUILD=1 runs it"
  exit 77
fi
source_dir=$(cd "$1" && pwd)
python=${KLINT_TEST_PYTHON:-python3}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/klint-clone.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $1" >&2
  [[ -n ${2:-} ]] && printf -- '--- output:\n%s\n---\n' "$2" >&2
  exit 1
}
export PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 KLINT_CACHE_DIR=$scratch/cache
unset KLINT_WHEEL_BUILD_DIR

git clone -q "$source_dir" "$scratch/clone"
start=$SECONDS
(cd "$scratch/clone" && "$python" -m pip wheel . --no-deps --no-index -w "$scratch/dist") > "$scratch/build.log" 2>&1 ||
  fail "pip wheel . in a clean clone failed" "$(tail -40 "$scratch/build.log")"
seconds=$((SECONDS - start))
wheel=$(ls "$scratch"/dist/klint-*.whl)

"$python" -m venv "$scratch/venv"
"$scratch/venv/bin/python" -m pip install -q --no-index --no-deps "$wheel"
line=$("$scratch/venv/bin/klint" --version)
head=$(git -C "$scratch/clone" rev-parse --short=10 HEAD)
[[ $line == *"($head)" ]] || fail "the wheel's klint does not name the clone's commit $head" "$line"
status=0
output=$("$scratch/venv/bin/klint" -q "$source_dir/examples/rmsnorm_early_return.comp" 2>&1) || status=$?
((status == 1)) || fail "the wheel's klint exited $status on a bad example" "$output"
echo "ok: $(basename "$wheel") ($(du -h "$wheel" | cut -f1)) built from a clean clone in ${seconds} s: $line"
