#!/usr/bin/env bash
# klint on a set of shaders beside glslangValidator and glslc compiling the same
# files, one process per file as builds do, in one run; prints the ratios.
# Usage: bench/examples_vs_glslang.sh [KLINT] [DIR] [REPEAT]
set -euo pipefail
klint=${1:-build/klint}
dir=${2:-examples}
repeat=${3:-5}
mapfile -t files < <(find "$dir" -name '*.comp' | sort)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

seconds() {  # runs "$@" REPEAT times, prints the best wall time in seconds
  local best=""
  for _ in $(seq "$repeat"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    best=$(echo "$end - $start" | bc -l | awk -v b="$best" '{ if (b == "" || $1 < b) print $1; else print b }')
  done
  echo "$best"
}
each_glslang() { for f in "${files[@]}"; do glslangValidator -V --target-env vulkan1.3 -g -o "$out/x.spv" "$f"; done; }
each_glslc() { for f in "${files[@]}"; do glslc --target-env=vulkan1.3 -g -o "$out/x.spv" "$f"; done; }
each_klint() { for f in "${files[@]}"; do "$klint" "$f"; done; }

t_klint_one=$(seconds "$klint" "${files[@]}")
t_klint_each=$(seconds each_klint)
t_glslang=$(seconds each_glslang)
t_glslc=$(seconds each_glslc)
printf '%d shaders from %s, best of %d runs\n' "${#files[@]}" "$dir" "$repeat"
printf '  klint, one process:          %.3f s\n' "$t_klint_one"
printf '  klint, one process per file: %.3f s\n' "$t_klint_each"
printf '  glslangValidator -V -g:      %.3f s\n' "$t_glslang"
printf '  glslc -g:                    %.3f s\n' "$t_glslc"
printf '  ratio klint (per file) / glslangValidator: %.2f\n' "$(echo "$t_klint_each / $t_glslang" | bc -l)"
printf '  ratio klint (per file) / glslc:            %.2f\n' "$(echo "$t_klint_each / $t_glslc" | bc -l)"
