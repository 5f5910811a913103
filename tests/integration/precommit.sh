#!/usr/bin/env bash
# Runs klint as a pre-commit hook in a scratch git repository, committing a
# good and a bad shader, the way docs/integration.md sets it up:
#   framework  klint's hooks (.pre-commit-hooks.yaml) through the pre-commit
#              framework: a .pre-commit-config.yaml that names them by `repo:`
#              and `rev:`, commits through the hook `pre-commit install`
#              writes. First `klint-system`, the klint on PATH; then `klint`,
#              which pre-commit installs into an environment of its own with
#              `pip install .` (language: python) from a hook repository that
#              holds this checkout's files.
#   git-hook   the plain .git/hooks/pre-commit script, as docs/integration.md
#              prints it
# Offline: the hook repository is a local one, and pip may use no package
# index. The python hook's wheel packs the klint already built beside
# KLINT_BINARY (KLINT_WHEEL_BUILD_DIR, packaging/klint_build_backend.py), so
# that the test takes seconds rather than a build's minutes, unless
# KLINT_TEST_FULL_BUILD=1.
#
# usage: precommit.sh framework|git-hook KLINT_SOURCE_DIR KLINT_BINARY
# `framework` fails when pre-commit is not installed (tools/bootstrap installs
# it), unless KLINT_SKIP_PRECOMMIT=1, which skips it (exit 77, CTest's
# SKIP_RETURN_CODE).
set -euo pipefail

mode=$1
source_dir=$(cd "$2" && pwd)
klint_binary=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")

source "$source_dir/tests/integration/missing_tool.sh"
if [[ $mode == framework ]] && ! command -v pre-commit >/dev/null 2>&1; then
  missing_tool "pre-commit is not installed" KLINT_SKIP_PRECOMMIT "tools/bootstrap installs it"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/klint-precommit.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Nothing of the user's or the machine's configuration may leak in: no global
# git config (core.hooksPath would stop `pre-commit install`), no shared
# pre-commit cache. The hook finds the klint under test first on PATH.
export HOME=$scratch/home PRE_COMMIT_HOME=$scratch/cache XDG_CACHE_HOME=$scratch/cache
export GIT_CONFIG_NOSYSTEM=1 PRE_COMMIT_COLOR=never NO_COLOR=1
export PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1
klint_build=$(cd "$(dirname "$klint_binary")" && pwd)
# KLINT_TEST_FULL_BUILD=1: the python hook builds klint from the hook
# repository as it would for a user (minutes; run by hand, not by CTest).
[[ ${KLINT_TEST_FULL_BUILD:-} == 1 ]] || export KLINT_WHEEL_BUILD_DIR=$klint_build
PATH="$klint_build:$PATH"
export PATH
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME"
[[ $(command -v klint) -ef $klint_binary ]] || { echo "error: klint on PATH is not $klint_binary" >&2; exit 1; }

fail() {
  echo "FAIL ($mode): $1" >&2
  [[ -n ${2:-} ]] && printf -- '--- output:\n%s\n---\n' "$2" >&2
  exit 1
}

new_repo() {
  git init -q "$1"
  git -C "$1" config user.name "klint test"
  git -C "$1" config user.email "klint-test@example.invalid"
  git -C "$1" config commit.gpgsign false
}

# The shaders of one commit: a clean kernel, whose name has a space in it;
# the include-only headers beside it, which a hook hands to klint too and klint
# must skip without failing; and a kernel with a finding.
write_shaders() {
  mkdir -p shaders
  echo 'float twice(float x) { return 2.0 * x; }' > shaders/common.glsl
  echo 'float twice(float x) { return 2 * x; }' > shaders/common.hlsli
  cat > "shaders/scale kernel.comp" <<'SHADER'
#version 450
#include "common.glsl"
layout(local_size_x = 64) in;
layout(binding = 0) buffer Data { float data[]; };
void main() {
    data[gl_GlobalInvocationID.x] = twice(data[gl_GlobalInvocationID.x]);
}
SHADER
  # Only the first 16 invocations of each workgroup reach the barrier.
  cat > shaders/divergent.comp <<'SHADER'
#version 450
layout(local_size_x = 64) in;
void main() {
    if (gl_LocalInvocationID.x < 16) {
        barrier();
    }
}
SHADER
  echo "not a shader" > README.md
}

# Commits everything, the bad shader among it: the commit must be refused and
# the output name the file, the line and the rule. Then commits all but the bad
# shader: that must go through. Leaves both outputs in refused and accepted.
commit_bad_then_good() {
  git add -A
  if refused=$(git commit -m "shaders" 2>&1); then
    fail "the commit with shaders/divergent.comp went through" "$refused"
  fi
  grep -q 'shaders/divergent.comp:5:[0-9]*:\? error: .*\[barrier-in-divergent-control-flow\]' <<<"$refused" ||
    fail "the hook did not name the bad shader, its line and the rule" "$refused"
  ! grep -q 'scale kernel.comp:' <<<"$refused" || fail "the good shader has a finding" "$refused"
  ! git rev-parse -q --verify HEAD >/dev/null || fail "a commit was made despite the failed hook"

  git rm -q --cached shaders/divergent.comp
  accepted=$(git commit -m "shaders" 2>&1) || fail "the commit of the good shader and headers was refused" "$accepted"
  [[ $(git ls-files shaders) == $'shaders/common.glsl\nshaders/common.hlsli\nshaders/scale kernel.comp' ]] ||
    fail "the commit does not hold the good shader and headers" "$(git ls-files)"
}

# The hook repository: this checkout's files as they are (in a git checkout,
# those git tracks or would add), committed in a repository of their own, so
# that uncommitted edits are what is tested and the checkout itself need not
# be a git repository. The system hook needs only the manifest.
hook_repo() {
  new_repo "$scratch/hooks"
  if [[ $1 == python ]]; then
    if git -C "$source_dir" rev-parse --show-toplevel >/dev/null 2>&1; then
      (cd "$source_dir" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
        if [[ -f $file ]]; then cp --parents -- "$file" "$scratch/hooks/"; fi
      done)
    else
      tar -C "$source_dir" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$scratch/hooks" -xf -
    fi
  fi
  cp "$source_dir/.pre-commit-hooks.yaml" "$scratch/hooks/"
  git -C "$scratch/hooks" add -A
  git -C "$scratch/hooks" commit -q -m "klint hooks"
}

# $1: the hook's id. Commits through it, and runs it with args.
drive_hook() {
  local id=$1 output
  rm -rf "$scratch/project"
  new_repo "$scratch/project"
  cd "$scratch/project"
  printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: %s\n' "$scratch/hooks" \
    "$(git -C "$scratch/hooks" rev-parse HEAD)" "$id" > .pre-commit-config.yaml
  write_shaders
  pre-commit install >/dev/null

  commit_bad_then_good
  grep -q '^klint\.*Failed$' <<<"$refused" || fail "pre-commit did not report $id as failed" "$refused"
  grep -q '^klint\.*Passed$' <<<"$accepted" || fail "pre-commit did not report $id as passed" "$accepted"

  # A commit that touches no shader does not run klint at all.
  echo "more" >> README.md
  git add README.md
  output=$(git commit -m "readme" 2>&1) || fail "a commit without shaders was refused" "$output"
  grep -q '^klint\.*(no files to check)Skipped$' <<<"$output" || fail "$id ran without shaders to check" "$output"

  # `args:` in the user's config reach klint: ignoring the rule lets the bad
  # shader through.
  echo "        args: [--ignore, barrier-in-divergent-control-flow]" >> .pre-commit-config.yaml
  output=$(pre-commit run "$id" --files shaders/divergent.comp 2>&1) ||
    fail "args from .pre-commit-config.yaml did not reach $id" "$output"
  grep -q '^klint\.*Passed$' <<<"$output" || fail "pre-commit did not report $id as passed" "$output"
}

framework() {
  hook_repo python
  drive_hook klint-system

  # The python hook runs the klint pre-commit installed, not the one on PATH.
  PATH=${PATH#"$klint_build:"}
  ! command -v klint >/dev/null 2>&1 || [[ ! $(command -v klint) -ef $klint_binary ]] ||
    fail "the klint under test is still on PATH"
  drive_hook klint
  local installed
  installed=$(find "$PRE_COMMIT_HOME" -path '*/bin/klint' -type f | head -1)
  [[ -n $installed ]] || fail "pre-commit installed no klint of its own" "$(find "$PRE_COMMIT_HOME" -maxdepth 3)"
  local version
  version=$("$klint_binary" --version | cut -d' ' -f1-2)
  [[ $("$installed" --version) == "$version"* ]] ||
    fail "pre-commit's klint is not $version" "$("$installed" --version)"
}

git_hook() {
  new_repo "$scratch/project"
  cd "$scratch/project"
  # The first sh block after the section's heading, exactly as printed.
  awk '/^## A plain git hook/ { section = 1 }
       section && /^```sh$/ { block = 1; next }
       block && /^```$/ { exit }
       block' "$source_dir/docs/integration.md" > .git/hooks/pre-commit
  grep -q 'xargs -0' .git/hooks/pre-commit || fail "no git hook found in docs/integration.md" "$(cat .git/hooks/pre-commit)"
  chmod +x .git/hooks/pre-commit
  write_shaders
  commit_bad_then_good
}

case $mode in
  framework) framework ;;
  git-hook) git_hook ;;
  *) echo "error: unknown mode '$mode': framework or git-hook" >&2; exit 2 ;;
esac
echo "ok ($mode): the hook refuses the bad shader, names it and its rule, and lets the good one through"
