#!/usr/bin/env bash
# One version, project(klint VERSION ...) in CMakeLists.txt, everywhere: the
# build's, `klint --version`'s, the SARIF log's tool.driver.version and
# semanticVersion, the JSON report's, and the wheel's metadata (the .deb's is
# checked by cpack.sh, the built wheel's by wheel.sh). `klint --version`
# names the commit of a build from a git checkout, and
# packaging/git_commit.cmake names none outside one.
#
# usage: versions.sh KLINT_SOURCE_DIR KLINT_BUILD_DIR KLINT_BINARY
set -euo pipefail
source_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
klint=$3
scratch=$(mktemp -d "${TMPDIR:-/tmp}/klint-versions.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $1" >&2
  [[ -n ${2:-} ]] && printf -- '--- output:\n%s\n---\n' "$2" >&2
  exit 1
}
export KLINT_CACHE_DIR=$scratch/cache NO_COLOR=1

version=$(sed -n 's/^project(klint VERSION \([0-9.]*\).*/\1/p' "$source_dir/CMakeLists.txt")
[[ -n $version ]] || fail "no project(klint VERSION ...) in CMakeLists.txt"
[[ $(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt") == "$version" ]] ||
  fail "the build is not of version $version (configure again)"

line=$("$klint" --version)
[[ $line =~ ^klint\ ([0-9.]+)(\ \(([0-9a-f]+)(-dirty)?\))?$ ]] || fail "klint --version says '$line'"
[[ ${BASH_REMATCH[1]} == "$version" ]] || fail "klint --version says ${BASH_REMATCH[1]}, CMakeLists.txt $version"
commit=${BASH_REMATCH[3]}

example=$source_dir/examples/rmsnorm_early_return.comp
"$klint" --format sarif --output "$scratch/log.sarif" "$example" || true
"$klint" --format json "$example" > "$scratch/report.json" || true
python3 - "$scratch/log.sarif" "$scratch/report.json" "$version" <<'PY' || fail "the reports' versions"
import json, sys
sarif, report, version = sys.argv[1:]
driver = json.load(open(sarif))["runs"][0]["tool"]["driver"]
assert driver["version"] == version, f"SARIF tool.driver.version {driver['version']}, not {version}"
assert driver["semanticVersion"] == version, f"SARIF tool.driver.semanticVersion {driver['semanticVersion']}"
assert json.load(open(report))["version"] == version, "the JSON report's version"
PY
# The wheel's version is what its build backend reads (wheel.sh checks a built one).
wheel_version=$(cd "$source_dir" && python3 -c \
  'import sys; from pathlib import Path; sys.path.insert(0, "packaging"); import klint_build_backend as b; print(b.project_version(Path(".")))')
[[ $wheel_version == "$version" ]] || fail "the wheel's version would be $wheel_version, not $version"

# The commit: the checkout's HEAD in a build from a checkout.
if top=$(git -C "$source_dir" rev-parse --show-toplevel 2>/dev/null) && [[ $top -ef $source_dir ]]; then
  [[ -n $commit ]] || fail "klint --version names no commit, though built from a git checkout" "$line"
  [[ $(git -C "$source_dir" rev-parse "$commit^{commit}") == $(git -C "$source_dir" rev-parse HEAD) ]] ||
    fail "klint --version names $commit, not the checkout's HEAD (build again after committing)" "$line"
fi

# packaging/git_commit.cmake itself: a checkout, a dirty one, a folder inside
# a checkout (an unpacked archive there), and no checkout at all.
commit_of() {
  cmake -DSOURCE_DIR="$1" -DOUTPUT="$scratch/commit.h" -P "$source_dir/packaging/git_commit.cmake"
  sed -n 's/^#define KLINT_GIT_COMMIT "\(.*\)"$/\1/p' "$scratch/commit.h"
}
repo=$scratch/repo
git init -q "$repo"
echo x > "$repo/file"
git -C "$repo" add file
git -C "$repo" -c user.name=t -c user.email=t@example.invalid -c commit.gpgsign=false commit -q -m x
mkdir "$repo/unpacked" "$scratch/plain"
head=$(git -C "$repo" rev-parse --short=10 HEAD)
[[ $(commit_of "$repo") == "$head" ]] || fail "git_commit.cmake in a clean checkout: '$(commit_of "$repo")', not $head"
echo y > "$repo/file"
[[ $(commit_of "$repo") == "$head-dirty" ]] || fail "git_commit.cmake in a dirty checkout: '$(commit_of "$repo")'"
[[ -z $(commit_of "$repo/unpacked") ]] || fail "git_commit.cmake names the commit of the repository around a folder"
[[ -z $(commit_of "$scratch/plain") ]] || fail "git_commit.cmake names a commit outside a checkout"
echo "ok: version $version everywhere; --version: $line"
