#!/usr/bin/env bash
# `cmake --install` into a scratch prefix: the installed binary runs and lints
# an example, the man page is there, renders without a warning and lists every
# subcommand and rule the binary knows, and the documentation is there.
#
# usage: install.sh KLINT_SOURCE_DIR KLINT_BUILD_DIR
set -euo pipefail
source_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/klint-install.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $1" >&2
  [[ -n ${2:-} ]] && printf -- '--- output:\n%s\n---\n' "$2" >&2
  exit 1
}

prefix=$scratch/prefix
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
klint=$prefix/bin/klint
[[ -x $klint ]] || fail "no bin/klint under the prefix" "$(find "$prefix")"
export KLINT_CACHE_DIR=$scratch/cache NO_COLOR=1

"$klint" --version | grep -q '^klint [0-9]' || fail "the installed klint --version" "$("$klint" --version 2>&1)"
status=0
output=$("$klint" -q "$source_dir/examples/rmsnorm_early_return.comp" 2>&1) || status=$?
((status == 1)) || fail "the installed klint exited $status on a bad example, not 1" "$output"
grep -q 'rmsnorm_early_return.comp:20:.* error: .*\[barrier-in-divergent-control-flow\]' <<<"$output" ||
  fail "the installed klint did not report the example's finding" "$output"

man_page=$prefix/share/man/man1/klint.1
[[ -s $man_page ]] || fail "no share/man/man1/klint.1" "$(find "$prefix")"
grep -q '^\.TH KLINT 1 ' "$man_page" || fail "klint.1 has no .TH line" "$(head "$man_page")"
# Every rule and subcommand of the binary is in the page.
while read -r rule _; do
  grep -q "^\\\\fB${rule//-/\\\\-}\\\\fR$" "$man_page" || fail "klint.1 does not list the rule $rule"
done < <("$klint" --list-rules)
for command in $("$klint" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }'); do
  grep -q "^\\.SS klint $command$" "$man_page" || fail "klint.1 does not describe klint $command"
done
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -ww -z -Tutf8 "$man_page" 2>&1)
  [[ -z $warnings ]] || fail "groff warns about klint.1" "$warnings"
  rendered=$(groff -man -Tutf8 -P-c "$man_page" 2>&1 | sed 's/.\x08//g')
  grep -q '^RULES' <<<"$rendered" || fail "klint.1 renders without a RULES section" "$rendered"
  grep -q 'barrier-in-divergent-control-flow' <<<"$rendered" || fail "klint.1 renders without its rules" "$rendered"
else
  echo "note: groff is not installed (tools/bootstrap installs groff-base): the page was not rendered"
fi

for doc in README.md CHANGELOG.md; do
  [[ -s $prefix/share/doc/klint/$doc ]] || fail "no share/doc/klint/$doc" "$(find "$prefix")"
done
echo "ok: cmake --install put a klint that lints, its man page and its documentation into $prefix"
