#!/usr/bin/env bash
# klint's binary needs nothing at run time but the C and C++ runtimes: its
# DT_NEEDED entries may name only libc, libm, libstdc++, libgcc_s and the
# dynamic loader (libdl and libpthread, empty since glibc 2.34, too). The
# Vulkan loader is opened with dlopen when a kernel runs, so it is not among
# them, and linting works on a machine without Vulkan.
#
# usage: dependencies.sh KLINT_BINARY [EXTRA_REGEX]
# EXTRA_REGEX allows more: a sanitizer build's runtimes (tests/CMakeLists.txt).
set -euo pipefail
binary=$1
extra=${2:-}

needed=$(objdump -p "$binary" | awk '$1 == "NEEDED" { print $2 }')
[[ -n $needed ]] || { echo "FAIL: objdump found no NEEDED entries in $binary" >&2; exit 1; }
allowed='libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|ld-linux[-a-z0-9_.]*\.so\.[0-9]+|libdl\.so\.2|libpthread\.so\.0'
unexpected=$(grep -v -E "^($allowed${extra:+|$extra})\$" <<<"$needed" || true)
if [[ -n $unexpected ]]; then
  echo "FAIL: $binary needs libraries besides the C and C++ runtimes:" >&2
  sed 's/^/  /' <<<"$unexpected" >&2
  exit 1
fi
echo "ok: $binary needs only" $needed
