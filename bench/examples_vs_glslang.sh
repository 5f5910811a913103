#!/usr/bin/env bash
# klint on a set of shaders beside glslangValidator and glslc compiling the same
# files, one process per file as builds do, in one run; prints the ratios.
# Usage: bench/examples_vs_glslang.sh [KLINT] [DIR] [REPEAT]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
klint=${1:-build/klint}
dir=${2:-examples}
repeat=${3:-5}
mapfile -t files < <(find "$dir" -name '*.comp' | sort)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

each_glslang() { for f in "${files[@]}"; do glslangValidator -V --target-env vulkan1.3 -g -o "$out/x.spv" "$f"; done; }
each_glslc() { for f in "${files[@]}"; do glslc --target-env=vulkan1.3 -g -o "$out/x.spv" "$f"; done; }
each_klint() { for f in "${files[@]}"; do "$klint" "$f"; done; }

t_klint_one=$(best_seconds "$repeat" "$klint" "${files[@]}")
t_klint_each=$(best_seconds "$repeat" each_klint)
t_glslang=$(best_seconds "$repeat" each_glslang)
t_glslc=$(best_seconds "$repeat" each_glslc)
printf '%d shaders from %s, best of %d runs\n' "${#files[@]}" "$dir" "$repeat"
printf '  klint, one process:          %.3f s\n' "$t_klint_one"
printf '  klint, one process per file: %.3f s\n' "$t_klint_each"
printf '  glslangValidator -V -g:      %.3f s\n' "$t_glslang"
printf '  glslc -g:                    %.3f s\n' "$t_glslc"
printf '  ratio klint (per file) / glslangValidator: %.2f\n' "$(echo "$t_klint_each / $t_glslang" | bc -l)"
printf '  ratio klint (per file) / glslc:            %.2f\n' "$(echo "$t_klint_each / $t_glslc" | bc -l)"
