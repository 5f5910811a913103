#!/usr/bin/env bash
# klint on a few hundred shaders (every .comp fixture, clean kernel and example
# of the repository): cold cache, warm cache and without the cache, on one core
# and on every core, beside glslangValidator compiling the same files one
# process per file as builds do (serially and with as many processes as cores).
# Usage: bench/scale.sh [KLINT] [REPEAT]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
klint=${1:-build/klint}
repeat=${2:-3}
cores=$(nproc)
mapfile -t files < <(find tests/rules tests/clean examples -name '*.comp' | sort)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

glslang_serial() { for f in "${files[@]}"; do glslangValidator -V --target-env vulkan1.3 -g -o "$work/x.spv" "$f"; done; }
glslang_parallel() {
  printf '%s\0' "${files[@]}" |
    xargs -0 -P "$cores" -I{} sh -c 'glslangValidator -V --target-env vulkan1.3 -g -o "$1/$$.spv" "$2"' _ "$work" {}
}
# A cold run starts from an empty cache every time.
cold() { rm -rf "$work/cache"; KLINT_CACHE_DIR="$work/cache" "$klint" -j "$1" "${files[@]}"; }
warm() { KLINT_CACHE_DIR="$work/cache" "$klint" -j "$1" "${files[@]}"; }

t_glslang_1=$(best_seconds "$repeat" glslang_serial)
t_glslang_n=$(best_seconds "$repeat" glslang_parallel)
t_nocache_1=$(best_seconds "$repeat" "$klint" --no-cache -j 1 "${files[@]}")
t_cold_1=$(best_seconds "$repeat" cold 1)
t_cold_n=$(best_seconds "$repeat" cold "$cores")
warm "$cores" >/dev/null 2>&1 || true
t_warm_1=$(best_seconds "$repeat" warm 1)
t_warm_n=$(best_seconds "$repeat" warm "$cores")
rss_cold=$( { rm -rf "$work/cache"; KLINT_CACHE_DIR="$work/cache" /usr/bin/time -f '%M' "$klint" -j "$cores" "${files[@]}" >/dev/null 2>"$work/time"; } ; tail -1 "$work/time")

ratio() { echo "$1 / $2" | bc -l; }
printf '%d shaders, %d cores, best of %d runs\n' "${#files[@]}" "$cores" "$repeat"
printf '  glslangValidator -V -g, one process per file:      %6.3f s\n' "$t_glslang_1"
printf '  glslangValidator, %d processes at once:              %6.3f s\n' "$cores" "$t_glslang_n"
printf '  klint --no-cache -j 1:                             %6.3f s  (%.2f x glslangValidator serial)\n' "$t_nocache_1" "$(ratio "$t_nocache_1" "$t_glslang_1")"
printf '  klint cold cache -j 1:                             %6.3f s  (%.2f x glslangValidator serial)\n' "$t_cold_1" "$(ratio "$t_cold_1" "$t_glslang_1")"
printf '  klint cold cache -j %d:                             %6.3f s  (%.2f x glslangValidator parallel)\n' "$cores" "$t_cold_n" "$(ratio "$t_cold_n" "$t_glslang_n")"
printf '  klint warm cache -j 1:                             %6.3f s  (%.2f x glslangValidator serial)\n' "$t_warm_1" "$(ratio "$t_warm_1" "$t_glslang_1")"
printf '  klint warm cache -j %d:                             %6.3f s  (%.2f x glslangValidator parallel)\n' "$cores" "$t_warm_n" "$(ratio "$t_warm_n" "$t_glslang_n")"
printf '  klint peak memory, cold -j %d:                      %6d KiB\n' "$cores" "$rss_cold"
