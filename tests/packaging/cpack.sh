#!/usr/bin/env bash
# CPack's packages: the .deb carries CMake's version and the dependencies
# dpkg-shlibdeps read off the binary, and installs a klint that runs; the
# .tar.gz holds the same tree.
#
# usage: cpack.sh KLINT_BUILD_DIR
set -euo pipefail
build_dir=$(cd "$1" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/klint-cpack.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() {
  echo "FAIL: $1" >&2
  [[ -n ${2:-} ]] && printf -- '--- output:\n%s\n---\n' "$2" >&2
  exit 1
}
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt")
[[ -n $version ]] || fail "no CMAKE_PROJECT_VERSION in $build_dir/CMakeCache.txt"

for generator in DEB TGZ; do
  output=$(cpack --config "$build_dir/CPackConfig.cmake" -G "$generator" -B "$scratch" 2>&1) ||
    fail "cpack -G $generator failed" "$output"
done

deb=$(find "$scratch" -maxdepth 1 -name '*.deb')
[[ $(basename "$deb") == klint_${version}_*.deb ]] || fail "the .deb is not klint_${version}_ARCH.deb" "$(ls "$scratch")"
[[ $(dpkg-deb -f "$deb" Package) == klint ]] || fail "the .deb's package is not klint" "$(dpkg-deb -f "$deb")"
[[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "the .deb's version is not $version" "$(dpkg-deb -f "$deb")"
depends=$(dpkg-deb -f "$deb" Depends)
grep -q 'libc6' <<<"$depends" && grep -q 'libstdc++6' <<<"$depends" ||
  fail "the .deb does not depend on libc6 and libstdc++6" "$depends"
! grep -q -E 'libfmt|libtomlplusplus|libvulkan' <<<"$depends" || fail "the .deb depends on more than the runtimes" "$depends"
contents=$(dpkg-deb -c "$deb")
for path in ./usr/bin/klint ./usr/share/man/man1/klint.1 ./usr/share/doc/klint/README.md; do
  grep -q " $path$" <<<"$contents" || fail "the .deb has no $path" "$contents"
done
dpkg-deb -x "$deb" "$scratch/root"
[[ $("$scratch/root/usr/bin/klint" --version) == "klint $version"* ]] ||
  fail "the .deb's klint does not say it is $version" "$("$scratch/root/usr/bin/klint" --version 2>&1)"

tgz=$(find "$scratch" -maxdepth 1 -name '*.tar.gz')
[[ $(basename "$tgz") == klint-${version}-*.tar.gz ]] || fail "the .tar.gz is not klint-${version}-*.tar.gz" "$(ls "$scratch")"
listing=$(tar tzf "$tgz")
for path in bin/klint share/man/man1/klint.1; do
  grep -q "/$path$" <<<"$listing" || fail "the .tar.gz has no $path" "$listing"
done
echo "ok: $(basename "$deb") ($(du -h "$deb" | cut -f1)) and $(basename "$tgz") ($(du -h "$tgz" | cut -f1))"
