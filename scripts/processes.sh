# Sourced by the benchmarks and the soak that start peer processes: a scratch directory ($work), the list of
# processes to stop ($pids: append each one started), and on exit every one of them stopped (TERM, then KILL after
# a grace) and the scratch directory removed — unless KEEP_WORK is set (then it is named on stderr).
# Also: cpu PID, the process's utime+stime in clock ticks ($hz a second), from /proc/PID/stat.
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
    sleep "${STOP_GRACE:-0.5}"
    for pid in "${pids[@]:-}"; do [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true; done
    if [ -n "${KEEP_WORK:-}" ]; then echo "logs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
hz="$(getconf CLK_TCK)"
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
