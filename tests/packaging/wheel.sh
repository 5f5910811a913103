#!/usr/bin/env bash
# The wheel: `pip wheel .` through pip's isolated build environment and
# without a package index, then installed into a fresh virtual environment,
# where `klint` is the native binary: it says its version and lints an
# example. The wheel's metadata carries CMake's version, and its manylinux tag
# allows the glibc the binary needs.
#
# To take seconds, the wheel packs the klint of KLINT_BUILD_DIR
# (KLINT_WHEEL_BUILD_DIR, packaging/klint_build_backend.py) instead of
# building one; tests/packaging/wheel_from_clone.sh does the whole build.
#
# usage: wheel.sh KLINT_SOURCE_DIR KLINT_BUILD_DIR
set -euo pipefail
source_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
python=${KLINT_TEST_PYTHON:-python3}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/klint-wheel.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $1" >&2
  [[ -n ${2:-} ]] && printf -- '--- output:\n%s\n---\n' "$2" >&2
  exit 1
}
export PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 KLINT_WHEEL_BUILD_DIR=$build_dir
export KLINT_CACHE_DIR=$scratch/cache NO_COLOR=1
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt")

output=$(cd "$source_dir" && "$python" -m pip wheel . --no-deps --no-index -w "$scratch/dist" 2>&1) ||
  fail "pip wheel . failed" "$output"
wheels=("$scratch"/dist/*.whl)
((${#wheels[@]} == 1)) || fail "pip wheel made ${#wheels[@]} wheels" "$(ls "$scratch/dist")"
wheel=${wheels[0]}
name=$(basename "$wheel")
[[ $name =~ ^klint-${version//./\\.}-py3-none-(.+)\.whl$ ]] || fail "the wheel is not klint-$version-py3-none-PLATFORM.whl: $name"
tag=${BASH_REMATCH[1]}

# Metadata and tag, and the glibc the tag allows against the one the binary needs.
"$python" - "$wheel" "$version" "$tag" "$scratch/klint.bin" <<'PY' || fail "the wheel's contents"
import re, sys, zipfile
wheel, version, tag, binary_copy = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    names = z.namelist()
    metadata = z.read(f"klint-{version}.dist-info/METADATA").decode()
    wheel_file = z.read(f"klint-{version}.dist-info/WHEEL").decode()
    script = z.getinfo(f"klint-{version}.data/scripts/klint")
    assert f"klint-{version}.data/data/share/man/man1/klint.1" in names, names
    assert f"klint-{version}.dist-info/RECORD" in names, names
assert re.search(rf"^Version: {re.escape(version)}$", metadata, re.M), metadata[:400]
assert re.search(rf"^Tag: py3-none-{re.escape(tag)}$", wheel_file, re.M), wheel_file
assert (script.external_attr >> 16) & 0o111, "the binary is not executable in the wheel"
with open(binary_copy, "wb") as binary:
    binary.write(zipfile.ZipFile(wheel).read(f"klint-{version}.data/scripts/klint"))
PY
newest_glibc=$(objdump -p "$scratch/klint.bin" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
if [[ $tag =~ ^manylinux_([0-9]+)_([0-9]+)_ ]]; then
  allowed="${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"
  [[ $(printf '%s\n%s\n' "$newest_glibc" "$allowed" | sort -V | tail -1) == "$allowed" ]] ||
    fail "$name: the binary needs GLIBC_$newest_glibc, newer than $tag allows"
fi

"$python" -m venv "$scratch/venv"
output=$("$scratch/venv/bin/python" -m pip install --no-index --no-deps "$wheel" 2>&1) ||
  fail "pip install of $name into a fresh virtual environment failed" "$output"
klint=$scratch/venv/bin/klint
[[ -x $klint ]] || fail "the wheel put no klint into the environment's bin/" "$(ls "$scratch/venv/bin")"
[[ $("$klint" --version) == "klint $version"* ]] || fail "the wheel's klint --version" "$("$klint" --version 2>&1)"
status=0
output=$("$klint" -q "$source_dir/examples/rmsnorm_early_return.comp" 2>&1) || status=$?
((status == 1)) && grep -q '\[barrier-in-divergent-control-flow\]' <<<"$output" ||
  fail "the wheel's klint did not report the example's finding (exit $status)" "$output"
[[ -s $scratch/venv/share/man/man1/klint.1 ]] || fail "the wheel put no man page into the environment"
echo "ok: $name ($(du -h "$wheel" | cut -f1), binary needs GLIBC_$newest_glibc) installs a klint that lints"
