#!/usr/bin/env bash
# Wall-clock limits over whole commands (issue 37, item 2): runs each case below through ./memplan, measures its
# wall time from outside (JVM start to exit), and prints a table (command, limit, wall, within?, exit, answer),
# then the same rows as CSV. A case is within when it ends by T + 3 s, or by T + 10% + 3 s with --busy N
# (N busy processes beside it, started here and stopped at the end: the "loaded" measurement).
#
#   bench/wall-limits.sh [--busy N] [--csv FILE] [--only SUBSTRING]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
busy=0
csv=""
only=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --busy) busy="$2"; shift 2 ;;
    --csv) csv="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "wall-limits.sh: unknown argument '$1' (--busy N, --csv FILE, --only SUBSTRING)" >&2; exit 2 ;;
  esac
done
[[ "$busy" =~ ^[0-9]+$ && "$busy" -le 16 ]] || { echo "wall-limits.sh: --busy must be 0..16, got '$busy'" >&2; exit 2; }

# limit (s) | arguments of memplan
cases=(
  "10|solve gen:layered:200000 --budget M_H --time-limit 10"
  "10|budgets gen:layered:200000 --time-limit 10"
  "20|budgets gen:layered:1000000 --time-limit 20"
  "60|allocate gen:trace:1000000 --minimize --time-limit 60"
  "30|allocate gen:heap:28526 --minimize --time-limit 30"
  "5|solve nasnet:train --budget M_H --recompute-weight 1 --time-limit 5"
  "8|solve gen:layered:5000:train --budget M_H --recompute-weight 1 --time-limit 8"
  "12|solve gen:layered:5000:train --budget M_H --recompute-weight 1 --time-limit 12"
)

# Build once, outside the timings (./memplan rebuilds when a source is newer than the jar: edit nothing meanwhile).
"$here/memplan" --version >/dev/null

pids=()
stop_busy() {
  for p in "${pids[@]:-}"; do
    [[ -n "$p" ]] && kill "$p" 2>/dev/null || true
  done
}
trap stop_busy EXIT
for ((i = 0; i < busy; i++)); do
  ( while :; do :; done ) &
  pids+=("$!")
done

rows=()
printf '%-58s %6s %8s %8s %5s  %s\n' "command" "limit" "wall" "within" "exit" "answer"
for c in "${cases[@]}"; do
  limit="${c%%|*}"
  args="${c#*|}"
  [[ -n "$only" && "$args" != *"$only"* ]] && continue
  load="$(cut -d' ' -f1 /proc/loadavg)"
  out="$(mktemp)"
  start=$(date +%s.%N)
  set +e
  # shellcheck disable=SC2086
  "$here/memplan" $args >"$out" 2>&1
  code=$?
  set -e
  end=$(date +%s.%N)
  wall=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')
  allowed=$(awk -v t="$limit" -v b="$busy" 'BEGIN { printf "%.1f", ((b + 0 > 0) ? t * 1.1 + 3 : t + 3) }')
  within=$(awk -v w="$wall" -v a="$allowed" 'BEGIN { print ((w + 0 <= a + 0) ? "yes" : "NO") }')
  # The answer: allocate's height against L, solve's status and traffic, or the one-line reason it stopped.
  answer="$(grep -oE '[0-9.]+ L \(gap [0-9.]+%\)' "$out" | tail -1 || true)"
  [[ -z "$answer" ]] && answer="$(grep -E '^(status|non-compulsory traffic) ' "$out" | awk '{ print $NF }' | paste -sd' ' - || true)"
  [[ -z "$answer" ]] && answer="$(grep -E '^(activations|all) ' "$out" | awk '{ print $1 ": M_P " $3 }' | paste -sd', ' - || true)"
  [[ -z "$answer" ]] && answer="$(grep -E '^(memplan: |gave up)' "$out" | head -1 || true)"
  rm -f "$out"
  printf '%-58s %6s %8s %8s %5s  %s\n' "$args" "$limit" "$wall" "$within" "$code" "$answer (load $load)"
  rows+=("\"$args\",$limit,$wall,$allowed,$within,$code,$busy,$load,\"${answer//\"/\'}\"")
done

echo
header="command,limit_s,wall_s,allowed_s,within,exit,busy_processes,load_at_start,answer"
echo "$header"
printf '%s\n' "${rows[@]}"
if [[ -n "$csv" ]]; then
  { echo "$header"; printf '%s\n' "${rows[@]}"; } >"$csv"
fi
