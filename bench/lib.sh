# Sourced by the benchmarks.

# best_seconds REPEAT COMMAND...: the best wall time of REPEAT runs, in seconds.
best_seconds() {
  local repeat=$1 best="" start end
  shift
  for _ in $(seq "$repeat"); do
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    best=$(echo "$end - $start" | bc -l | awk -v b="$best" '{ if (b == "" || $1 < b) print $1; else print b }')
  done
  echo "$best"
}
