#!/usr/bin/env bash
# klint beside glslc on real shaders, one process per shader as builds run
# them: each glslc command line runs as written (its output sent to a scratch
# file), and klint lints the same compile with `--commands` given that one
# line. The two alternate, shader by shader, so that load from other work on
# the machine falls on both; each time is the best of REPEAT runs.
#
# Usage: bench/real_vs_glslc.sh [-k KLINT] [-r REPEAT] [-n EVERY] [-t SECONDS] SOURCE...
#   SOURCE: a file of glslc command lines (as a build runs them: ggml's
#           generator, a make log), or a folder whose .comp files are compiled
#           with `glslc -fshader-stage=compute --target-env=vulkan1.3 -I FOLDER
#           -I DIR`, DIR the file's own folder. Shaders glslc rejects are
#           left out (counted at the end).
#   -n EVERY: take every EVERY-th shader only (default 1: all).
#   -t SECONDS: stop a klint run after SECONDS (default 600); it counts as that long.
# Prints one line per shader (seconds and the ratio), the five highest ratios,
# and the totals: sum of times and the geometric mean of the ratios.
# Nothing is downloaded; the shaders come from trees you extracted.
set -euo pipefail
klint=build/klint repeat=3 every=1 limit=600
while getopts k:r:n:t: opt; do
  case $opt in
    k) klint=$OPTARG ;; r) repeat=$OPTARG ;; n) every=$OPTARG ;; t) limit=$OPTARG ;;
    *) sed -n 2,17p "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n 2,17p "$0"; exit 2; }
klint=$(readlink -f "$klint")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every shader as one glslc command line.
: >"$work/all"
for source in "$@"; do
  if [ -d "$source" ]; then
    dir=$(readlink -f "$source")
    find "$dir" -name '*.comp' | sort | while read -r f; do
      printf 'glslc -fshader-stage=compute --target-env=vulkan1.3 -I %q -I %q %q -o out.spv\n' "$dir" "$(dirname "$f")" "$f"
    done >>"$work/all"
  else
    grep -E '(^|/)glslc ' "$source" >>"$work/all" || true
  fi
done
awk -v n="$every" '(NR - 1) % n == 0' "$work/all" >"$work/lines"

# The command with its output (-o FILE, -oFILE) and dependency files (-MD, -MF
# FILE) sent to scratch files.
scratch_command() {
  sed -E "s#(^|[[:space:]])-o[[:space:]]*[^[:space:]]+#\\1-o $work/out.spv#; s#(^|[[:space:]])-MF[[:space:]]*[^[:space:]]+#\\1-MF $work/out.d#" <<<"$1"
}
seconds() {  # seconds COMMAND...: wall time of one run
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'; }

printf '%9s %9s %7s  %s\n' "glslc s" "klint s" ratio shader
total_g=0 total_k=0 log_sum=0 count=0 rejected=0
: >"$work/ratios"
while IFS= read -r line; do
  command=$(scratch_command "$line")
  printf '%s\n' "$command" >"$work/one.txt"
  # The shader: the argument that names an existing file with a shader suffix.
  shader=$(grep -oE '[^[:space:]]+\.(comp|glsl|hlsl)' <<<"$line" | head -1)
  if ! bash -c "$command" >/dev/null 2>&1; then
    rejected=$((rejected + 1))
    continue
  fi
  # The output stem names a variant when one source is built several ways.
  variant=$(grep -oE '(^|[[:space:]])-o[[:space:]]*[^[:space:]]+' <<<"$line" | head -1 | sed -E 's#.*[/[:space:]]##; s#\.spv$##')
  best_g="" best_k=""
  for r in $(seq "$repeat"); do
    # Alternate which runs first, so neither always meets a warm cache.
    if ((r % 2)); then
      best_g=$(min "$best_g" "$(seconds bash -c "$command")")
      best_k=$(min "$best_k" "$(seconds timeout "$limit" "$klint" --no-cache -j 1 --commands "$work/one.txt")")
    else
      best_k=$(min "$best_k" "$(seconds timeout "$limit" "$klint" --no-cache -j 1 --commands "$work/one.txt")")
      best_g=$(min "$best_g" "$(seconds bash -c "$command")")
    fi
  done
  ratio=$(echo "$best_k / $best_g" | bc -l)
  printf '%9.3f %9.3f %7.2f  %s (%s)\n' "$best_g" "$best_k" "$ratio" "${shader#"$PWD"/}" "$variant"
  printf '%.2f %s %s (%s)\n' "$ratio" "$best_k" "$shader" "$variant" >>"$work/ratios"
  total_g=$(echo "$total_g + $best_g" | bc -l)
  total_k=$(echo "$total_k + $best_k" | bc -l)
  log_sum=$(echo "$log_sum + l($ratio)" | bc -l)
  count=$((count + 1))
done <"$work/lines"

echo "highest ratios:"
sort -rn "$work/ratios" | head -5 | awk '{ printf "  %6.2fx  %7.3f s  %s %s\n", $1, $2, $3, $4 }'
printf '%d shaders (%d more that glslc rejects left out), best of %d runs each, %d cores\n' "$count" "$rejected" "$repeat" "$(nproc)"
printf '  glslc, one process per shader: %9.3f s\n' "$total_g"
printf '  klint, one process per shader: %9.3f s  (%.2f x glslc)\n' "$total_k" "$(echo "$total_k / $total_g" | bc -l)"
printf '  geometric mean of the ratios:  %9.2f x\n' "$(echo "e($log_sum / $count)" | bc -l)"
