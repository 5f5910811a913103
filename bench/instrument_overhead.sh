#!/usr/bin/env bash
# What the shadow-memory instrumentation of `klint run --shadow` and
# `klint --confirm` costs: each kernel of tests/clean and each failing
# fixture of the rules --confirm confirms, run once plain and once
# instrumented with the same harness, on the default device (lavapipe). Per
# kernel: the dispatch time (vkQueueSubmit to fence, best of REPEAT) and the
# whole `klint run` process, plain and instrumented, and their ratios; then
# the geometric means. And `klint --confirm` over all those fixtures, which
# runs each kernel at three subgroup sizes, beside plain linting.
# Usage: bench/instrument_overhead.sh [KLINT] [REPEAT]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
klint=${1:-build/klint}
repeat=${2:-3}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
mapfile -t files < <(
  { find tests/clean -name '*.comp' -o -name '*.hlsl'
    for rule in shared-memory-race insufficient-barrier uninitialized-shared-read grid-stride-mismatch \
                subgroup-size-assumed subgroup-count-assumed; do
      find "tests/rules/$rule" -name 'bad_*'
    done; } | sort)

# Best dispatch time in ms over REPEAT runs; "-" when the run does not complete.
dispatch_ms() {
  local best="" ms
  for _ in $(seq "$repeat"); do
    ms=$("$klint" run --time "$@" 2>/dev/null | sed -n 's/^dispatch: \(.*\) ms$/\1/p') || true
    [ -n "$ms" ] || { echo -; return; }
    if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$ms; fi
  done
  echo "$best"
}

printf '%-62s %10s %10s %7s %9s %9s %7s\n' kernel plain_ms shadow_ms ratio plain_s shadow_s ratio
log_sum=0; log_wall=0; n=0
for f in "${files[@]}"; do
  plain=$(dispatch_ms "$f")
  shadow=$(dispatch_ms --shadow "$f")
  [ "$plain" != - ] && [ "$shadow" != - ] || { printf '%-62s %10s %10s\n' "$f" "$plain" "$shadow"; continue; }
  wall_plain=$(best_seconds "$repeat" "$klint" run "$f")
  wall_shadow=$(best_seconds "$repeat" "$klint" run --shadow "$f")
  ratio=$(awk -v a="$shadow" -v b="$plain" 'BEGIN { printf "%.2f", a / (b > 0.001 ? b : 0.001) }')
  wall_ratio=$(awk -v a="$wall_shadow" -v b="$wall_plain" 'BEGIN { printf "%.2f", a / b }')
  printf '%-62s %10.3f %10.3f %7s %9.3f %9.3f %7s\n' "$f" "$plain" "$shadow" "$ratio" "$wall_plain" "$wall_shadow" "$wall_ratio"
  log_sum=$(awk -v s="$log_sum" -v r="$ratio" 'BEGIN { print s + log(r) }')
  log_wall=$(awk -v s="$log_wall" -v r="$wall_ratio" 'BEGIN { print s + log(r) }')
  n=$((n + 1))
done
awk -v s="$log_sum" -v w="$log_wall" -v n="$n" \
  'BEGIN { printf "geometric mean over %d kernels: dispatch %.2fx, whole run %.2fx\n", n, exp(s / n), exp(w / n) }'

mapfile -t fixtures < <(printf '%s\n' "${files[@]}" | grep '^tests/rules/')
t_lint=$(best_seconds "$repeat" "$klint" --no-cache -j 1 "${fixtures[@]}")
t_confirm=$(best_seconds "$repeat" "$klint" --no-cache -j 1 --confirm "${fixtures[@]}")
awk -v l="$t_lint" -v c="$t_confirm" -v n="${#fixtures[@]}" \
  'BEGIN { printf "%d fixtures: lint %.2f s, lint --confirm %.2f s (%.2f s a file)\n", n, l, c, (c - l) / n }'
