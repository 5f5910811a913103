#!/usr/bin/env bash
# How klint's cost grows with shader size, beside glslangValidator compiling the
# same shader: a generated kernel with N tree reductions (each a loop, a
# divergent branch and barriers), for N = 10, 40, 160, 640.
# Usage: bench/large_shader.sh [KLINT] [REPEAT]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
klint=${1:-build/klint}
repeat=${2:-3}
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


printf '%6s %8s %10s %12s %8s %10s\n' blocks lines "klint s" "glslang s" ratio "klint MiB"
for n in 10 40 160 640; do
  generate "$n" >"$dir/large_$n.comp"
  lines=$(wc -l <"$dir/large_$n.comp")
  t_klint=$(best_seconds "$repeat" "$klint" "$dir/large_$n.comp")
  t_glslang=$(best_seconds "$repeat" glslangValidator -V --target-env vulkan1.3 -g -o "$dir/out.spv" "$dir/large_$n.comp")
  /usr/bin/time -f '%M' -o "$dir/rss" "$klint" "$dir/large_$n.comp" >/dev/null 2>&1 || true
  rss=$(tail -1 "$dir/rss")
  printf '%6d %8d %10.3f %12.3f %8.2f %10.1f\n' "$n" "$lines" "$t_klint" "$t_glslang" \
    "$(echo "$t_klint / $t_glslang" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
done
