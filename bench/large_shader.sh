#!/usr/bin/env bash
# How klint's cost grows with shader size, beside glslangValidator compiling the
# same shader: a generated kernel with N tree reductions (each a loop, a
# divergent branch and barriers), for N = 10 to 9000 (9000 makes 2 MB of
# GLSL). Also klint's peak resident memory, and what SPIRV-Tools alone takes
# on the same module: spirv-val validating it and spirv-opt running the passes
# klint normalizes with (analyzer/normalize.cpp), which klint cannot make
# faster; the rest is klint's own.
# Usage: bench/large_shader.sh [KLINT] [REPEAT] [N...]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
klint=${1:-build/klint}
repeat=${2:-3}
shift $(($# > 2 ? 2 : $#))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10 40 160 640 2560 9000)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

generate() {  # generate N > file
  local n=$1
  printf '#version 450\nlayout(local_size_x = 256) in;\n'
  printf 'layout(binding = 0) buffer Data { float data[]; };\nshared float partial[256];\n'
  printf 'void main() {\n    uint tid = gl_LocalInvocationID.x;\n    float acc = 0.0;\n'
  for ((k = 0; k < n; ++k)); do
    printf '    partial[tid] = data[%d * 256 + tid] * acc;\n    barrier();\n' "$k"
    printf '    for (uint s = 128; s > 0; s >>= 1) {\n'
    printf '        if (tid < s) partial[tid] += partial[tid + s];\n        barrier();\n    }\n'
    printf '    acc += partial[0];\n    barrier();\n'
  done
  printf '    data[gl_GlobalInvocationID.x] = acc;\n}\n'
}

normalize_passes=(--inline-entry-points-exhaustive --eliminate-dead-functions --private-to-local
  --eliminate-local-single-block --eliminate-local-single-store --ssa-rewrite --ccp
  --eliminate-dead-branches --merge-blocks)

printf '%6s %8s %6s %9s %10s %7s %9s %10s %10s\n' blocks lines KiB "klint s" "glslang s" ratio "klint MiB" \
  "spirv-val s" "spirv-opt s"
for n in "${sizes[@]}"; do
  generate "$n" >"$dir/large_$n.comp"
  lines=$(wc -l <"$dir/large_$n.comp")
  kib=$(($(wc -c <"$dir/large_$n.comp") / 1024))
  t_klint=$(best_seconds "$repeat" "$klint" --no-cache "$dir/large_$n.comp")
  t_glslang=$(best_seconds "$repeat" glslangValidator -V --target-env vulkan1.3 -g -o "$dir/out.spv" "$dir/large_$n.comp")
  t_val=$(best_seconds "$repeat" spirv-val --target-env vulkan1.3 "$dir/out.spv")
  t_opt=$(best_seconds "$repeat" spirv-opt --skip-validation "${normalize_passes[@]}" "$dir/out.spv" -o "$dir/opt.spv")
  # glslang in klint's own process, so that its memory counts too.
  KLINT_COMPILE_IN_PROCESS=1 /usr/bin/time -f '%M' -o "$dir/rss" "$klint" --no-cache "$dir/large_$n.comp" >/dev/null 2>&1 || true
  rss=$(tail -1 "$dir/rss")
  printf '%6d %8d %6d %9.3f %10.3f %7.2f %9.1f %10.3f %10.3f\n' "$n" "$lines" "$kib" "$t_klint" "$t_glslang" \
    "$(echo "$t_klint / $t_glslang" | bc -l)" "$(echo "$rss / 1024" | bc -l)" "$t_val" "$t_opt"
done
