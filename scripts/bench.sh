#!/usr/bin/env bash
# Runs every payrpc benchmark scenario, each side by side with the ceiling (the same libuv transport
# echoing lines: `payrpc-bench ceiling`), and prints Markdown tables. See docs/benchmarks.md.
#
# Usage: scripts/bench.sh [--quick]
# Environment (all optional):
#   DURATION=5 WARMUP=1     seconds measured / not measured per load run (--quick: 1 and 0.5)
#   SERVER_CPU=0 CLIENT_CPU=1   cores for the server (taskset) and the load generator (--client-cpu)
#   PORT=17070              first of two loopback TCP ports (payrpc, ceiling)
#   SCRATCH=.build          swift build scratch path; binaries come from $SCRATCH/release
#   RESULTS_DIR=DIR         keep every JSON report there (default: a temporary directory, removed)
#   SKIP_BUILD=1            use the binaries already built
#   ONLY=REGEX              run only the scenarios whose label matches (the durable rows are matched as
#                           "durable: LABEL", so ONLY=durable runs them and SQLite's reference alone)
#   PAYRPC_SERVE_ARGS=...   more options for every payrpc serve (--no-call-journal: without the journal)
# Exit code: 0 when every run was clean, 1 when any run reported errors or failed.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-5}
WARMUP=${WARMUP:-1}
if [[ "${1:-}" == "--quick" ]]; then DURATION=1; WARMUP=0.5; fi
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
PORT=${PORT:-17070}
SCRATCH=${SCRATCH:-.build}
ONLY=${ONLY:-}

# Only the products are built: no test targets, no swift-syntax.
export PAYRPC_TEST_ONLY=${PAYRPC_TEST_ONLY:-none}
if [[ -z "${SKIP_BUILD:-}" ]]; then
    echo "building release binaries in $SCRATCH ..." >&2
    # --static-swift-stdlib as every release build of the repository (scripts/run).
    swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product payrpc >&2
    swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product payrpc-bench >&2
fi
PAYRPC=$SCRATCH/release/payrpc
BENCH=$SCRATCH/release/payrpc-bench
[[ -x "$BENCH" ]] || { echo "no $BENCH" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/payrpc-bench.XXXXXX")
DATA=$WORK/data
mkdir -p "$DATA"
RESULTS=${RESULTS_DIR:-$WORK/results}
mkdir -p "$RESULTS"
SERVER_PID=""
SERVE_EXTRA=(${PAYRPC_SERVE_ARGS:-})
FAILED=0
RUN=0

# Stops the current server: SIGTERM, then up to 5 s, then SIGKILL; always reaped.
stop_server() {
    [[ -n "$SERVER_PID" ]] || return 0
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}
cleanup() {
    stop_server
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1,000 idle connections need descriptors on both sides.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 4096 2>/dev/null || true

# start_server payrpc|ceiling tcp|unix → SERVER_PID, ADDR (the bench's --tcp/--unix arguments), ECHO
start_server() {
    local target=$1 transport=$2 port
    case $target in
        payrpc) port=$PORT; ECHO=() ;;
        ceiling) port=$((PORT + 1)); ECHO=(--echo) ;;
    esac
    if [[ $transport == tcp ]]; then
        ADDR=(--tcp "127.0.0.1:$port")
        LISTEN=(--tcp "127.0.0.1:$port")
    else
        ADDR=(--unix "$WORK/$target.sock")
        LISTEN=(--unix "$WORK/$target.sock")
        rm -f "$WORK/$target.sock"
    fi
    if [[ $target == payrpc ]]; then
        taskset -c "$SERVER_CPU" "$PAYRPC" serve "${LISTEN[@]}" --data "${SERVE_DATA:-$DATA}" "${SERVE_EXTRA[@]}" >>"${SERVER_LOG:-$WORK/server.log}" 2>&1 &
    else
        taskset -c "$SERVER_CPU" "$BENCH" ceiling "${LISTEN[@]}" >>"$WORK/server.log" 2>&1 &
    fi
    SERVER_PID=$!
    # Ready when it answers (the bench retries the connection for up to 10 s).
    if ! "$BENCH" run "${ADDR[@]}" "${ECHO[@]}" --server-pid "$SERVER_PID" --requests 10 --warmup 0 --connect-timeout 10 >/dev/null 2>>"$WORK/server.log"; then
        echo "  $target ($transport) did not come up or answer rpc.health; see its log below" >&2
        tail -5 "$WORK/server.log" >&2 || true
        return 1
    fi
}

# pair LABEL KIND TRANSPORT ARGS...: runs `payrpc-bench KIND` against payrpc, then against the ceiling,
# each with a fresh server pinned to SERVER_CPU. KIND is run, idle or flood; TRANSPORT tcp, unix or stdio.
pair() {
    local label=$1 kind=$2 transport=$3
    shift 3
    if [[ -n "$ONLY" && ! "$label" =~ $ONLY ]]; then return 0; fi
    for target in payrpc ceiling; do
        RUN=$((RUN + 1))
        local out="$RESULTS/$(printf %03d $RUN)-$target.json"
        echo "== $label [$target]" >&2
        local status=0
        if [[ $transport == stdio ]]; then
            local flags=(--spawn --binary "$PAYRPC" --server-cpu "$SERVER_CPU")
            if [[ $target == ceiling ]]; then flags+=(--echo "$@"); else flags+=("$@" -- --data "$DATA"); fi
            "$BENCH" "$kind" --label "$label" --json "${flags[@]}" >"$out" 2>>"$WORK/server.log" || status=$?
        else
            if ! start_server "$target" "$transport"; then
                stop_server
                FAILED=$((FAILED + 1))
                continue
            fi
            "$BENCH" "$kind" "${ADDR[@]}" "${ECHO[@]}" --server-pid "$SERVER_PID" --label "$label" --json "$@" \
                >"$out" 2>>"$WORK/server.log" || status=$?
            stop_server
        fi
        if [[ $status -ne 0 ]]; then
            FAILED=$((FAILED + 1))
            echo "   exit code $status" >&2
        fi
        [[ -s "$out" ]] || rm -f "$out"
    done
}

LOAD=(--duration "$DURATION" --warmup "$WARMUP")
for request in health execute-payment; do
    R=(--scenario "$request" "${LOAD[@]}" --client-cpu "$CLIENT_CPU")
    for transport in tcp unix; do
        pair "$request $transport 1×1" run $transport "${R[@]}" --connections 1 --depth 1
        pair "$request $transport 1×64" run $transport "${R[@]}" --connections 1 --depth 64
        pair "$request $transport 16×16" run $transport "${R[@]}" --connections 16 --depth 16
    done
    pair "$request stdio 1×64" run stdio "${R[@]}" --depth 64
    # Two batches of 100 in flight: 200 requests, under the server's default --max-in-flight (256).
    pair "$request tcp batch 100 1×2" run tcp "${R[@]}" --batch 100 --depth 2
    pair "$request tcp 1×1 same core" run tcp --scenario "$request" "${LOAD[@]}" --client-cpu "$SERVER_CPU" \
        --connections 1 --depth 1
done
# Durable writes: payrpc only (the ceiling stores nothing), each run with a fresh data directory. The
# server logs its store's writes and commits (fsyncs) when it stops; per call and per commit they show
# the group commit at work. ONLY is matched against "durable: LABEL", so ONLY=durable selects them all.
DURABLE_ROWS=()
TATRA_SANDBOX=$WORK/tatra-sandbox-bench.json
# wrong-pin needs a Tatra sandbox whose wrongPinLimit is never reached: at the limit the application is
# blocked and a PIN check counts nothing. The shipped defaults with only that changed.
python3 - Sources/TatraService/Resources/tatra-sandbox.json "$TATRA_SANDBOX" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
data["wrongPinLimit"] = 2**62
json.dump(data, open(sys.argv[2], "w"), ensure_ascii=False, indent=2)
PY
# durable LABEL SCENARIO CONNECTIONS DEPTH [payrpc serve options...]
durable() {
    local label=$1 scenario=$2 connections=$3 depth=$4
    shift 4
    if [[ -n "$ONLY" && ! "durable: $label" =~ $ONLY ]]; then return 0; fi
    RUN=$((RUN + 1))
    local out="$RESULTS/$(printf %03d $RUN)-payrpc.json" status=0
    echo "== $label [payrpc]" >&2
    SERVER_LOG="$WORK/durable-$RUN.log"
    SERVE_DATA="$WORK/durable-data-$RUN"
    SERVE_EXTRA=("$@" ${PAYRPC_SERVE_ARGS:-})
    if start_server payrpc tcp; then
        "$BENCH" run "${ADDR[@]}" --server-pid "$SERVER_PID" --label "$label" --json --scenario "$scenario" "${LOAD[@]}" \
            --client-cpu "$CLIENT_CPU" --connections "$connections" --depth "$depth" >"$out" 2>>"$WORK/server.log" || status=$?
        stop_server
        if [[ $status -ne 0 ]]; then FAILED=$((FAILED + 1)); echo "   exit code $status" >&2; fi
        # The store's counts and, for wrong-pin, the profile's counter: every answered call must have
        # counted one wrong PIN on disk (a blocked profile answers the same error but counts nothing).
        local export="$WORK/durable-export-$RUN.json" row
        "$PAYRPC" data export --profile default --data "$SERVE_DATA" >"$export" 2>>"$WORK/server.log" || true
        if row=$(python3 - "$out" "$SERVER_LOG" "$export" "$scenario" <<'PY'
import json, re, sys
report_path, log_path, export_path, scenario = sys.argv[1:]
try:
    r = json.load(open(report_path))
except (OSError, ValueError):
    sys.exit("   no report")
stopped = [line for line in open(log_path, errors="replace") if "store.writes=" in line]
counts = dict(re.findall(r"store\.(writes|commits)=(\d+)", stopped[-1])) if stopped else {}
calls = r.get("answeredOverall") or 0
if "writes" not in counts or "commits" not in counts or calls == 0:
    sys.exit("   no store statistics in the server's log, or no calls answered")
writes, commits = int(counts["writes"]), int(counts["commits"])
if scenario == "wrong-pin":
    try:
        state = json.load(open(export_path))["tatra"]["profile"]
    except (OSError, ValueError, KeyError):
        sys.exit("   no tatra state in `payrpc data export`")
    if state.get("blocked") or state.get("wrongPinAttempts") != calls:
        sys.exit(f"   {calls} wrong PINs answered but the stored counter is {state.get('wrongPinAttempts')}"
                 f" (blocked: {state.get('blocked')}): not every call wrote")
l = r["latencyMicroseconds"]
cpu = r.get("serverCPUMicrosecondsPerRequest")
print(f"| {r['label']} | {r['requestsPerSecond']:,.0f} | {l['p50']:,.0f} | {l['p99']:,.0f} | "
      + (f"{cpu:.1f}" if cpu is not None else "–")
      + f" | {writes / calls:.2f} | {r['requestsPerSecond'] * commits / calls:,.0f} | "
      + (f"{writes / commits:.0f}" if commits else "–") + f" | {r['errorCount']} |")
PY
        ); then
            DURABLE_ROWS+=("$row")
            [[ $scenario == durable-write && $connections == 1 && $depth == 1 ]] && DURABLE_1X1=$out
        else
            FAILED=$((FAILED + 1))
        fi
    else
        stop_server
        FAILED=$((FAILED + 1))
    fi
    cat "$SERVER_LOG" >>"$WORK/server.log"
    unset SERVER_LOG SERVE_DATA
    SERVE_EXTRA=(${PAYRPC_SERVE_ARGS:-})
}
durable "durable-write tcp 16×16" durable-write 16 16
durable "durable-write tcp 1×64" durable-write 1 64
durable "wrong-pin tcp 64×1" wrong-pin 64 1 --sandbox-data "tatra=$TATRA_SANDBOX"
durable "wrong-pin tcp 16×1" wrong-pin 16 1 --sandbox-data "tatra=$TATRA_SANDBOX"
# Last, so that the fsync its target is measured against is probed right after it (these shared
# machines' fsync moves 30× with the other tenants' I/O).
durable "durable-write tcp 1×1" durable-write 1 1
# One fsync, then SQLite's own rate, on the server's core and file system, in the same run.
SQLITE_REFERENCE=$WORK/sqlite-reference.json
if ((${#DURABLE_ROWS[@]})); then
    echo "== sqlite-reference" >&2
    taskset -c "$SERVER_CPU" python3 scripts/sqlite-reference.py --json --dir "$WORK" \
        --seconds "$(awk -v d="$DURATION" 'BEGIN{print (d < 2 ? d : 2)}')" >"$SQLITE_REFERENCE" \
        || { FAILED=$((FAILED + 1)); echo "   failed" >&2; }
fi

pair "1,000 idle connections (tcp)" idle tcp --connections 1000 --hold 2 --client-cpu "$CLIENT_CPU"
pair "flood: 100,000 requests unread (tcp)" flood tcp --requests 100000 --scenario execute-payment --timeout 10 \
    --client-cpu "$CLIENT_CPU"

# Start-up: the data directory exists (created by the runs above and by the warm-up run).
if [[ -z "$ONLY" || "start-up" =~ $ONLY ]]; then
    for target in payrpc ceiling; do
        RUN=$((RUN + 1))
        out="$RESULTS/$(printf %03d $RUN)-$target.json"
        echo "== start-up [$target]" >&2
        flags=(--binary "$PAYRPC")
        [[ $target == ceiling ]] && flags+=(--echo)
        extra=()
        [[ $target == payrpc ]] && extra=(-- --data "$DATA")
        taskset -c "$SERVER_CPU" "$BENCH" startup "${flags[@]}" --runs 20 --label "start-up (stdio, to first answer)" \
            --json "${extra[@]}" >"$out" 2>>"$WORK/server.log" || { FAILED=$((FAILED + 1)); echo "   failed" >&2; }
        [[ -s "$out" ]] || rm -f "$out"
    done
fi

echo
echo "payrpc benchmarks — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, server on CPU $SERVER_CPU, load generator on CPU $CLIENT_CPU, ${DURATION} s per run after ${WARMUP} s warm-up"
echo
shopt -s nullglob
files=("$RESULTS"/*.json)
if ((${#files[@]})); then "$BENCH" table "${files[@]}"; fi
if ((${#DURABLE_ROWS[@]})); then
    echo
    echo "Durable writes (group commit, synchronous=FULL), payrpc only; store writes and commits (fsyncs) from the"
    echo "server's \`stopped\` line, per call answered over the whole run (warm-up included); fsyncs/s = req/s × commits per call:"
    echo
    echo "| scenario | req/s | p50 µs | p99 µs | server µs CPU/call | store writes/call | fsyncs/s | writes per commit | errors |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${DURABLE_ROWS[@]}"
fi
if [[ -s "$SQLITE_REFERENCE" ]]; then
    echo
    python3 - "$SQLITE_REFERENCE" "${DURABLE_1X1:-}" "$SERVER_CPU" <<'PY'
import json, sys
ref = json.load(open(sys.argv[1]))
print(f"SQLite's own rate, same run, on CPU {sys.argv[3]} (`scripts/sqlite-reference.py`: Python's sqlite3, SQLite "
      f"{ref['sqliteVersion']}, WAL, synchronous=FULL, {ref['valueBytes']}-byte upserts with random keys into a "
      "`document`-shaped table; CPU is the process's, Python's share included):")
print()
print("| rows per transaction | rows/s | µs CPU/row |")
print("|---:|---:|---:|")
for b in ref["batches"]:
    print(f"| {b['rowsPerTransaction']} | {b['rowsPerSecond']:,} | {b['cpuMicrosecondsPerRow']} |")
f, p = ref["fsync"], ref["fsyncInPlace"]
print()
print(f"One fsync (a 100-byte write appended + fsync, median of {f['samples']}): {f['medianMicroseconds']:,.0f} µs "
      f"(p90 {f['p90Microseconds']:,.0f}); written in place: {p['medianMicroseconds']:,.0f} µs.", end="")
if sys.argv[2]:
    try:
        p50 = json.load(open(sys.argv[2]))["latencyMicroseconds"]["p50"]
        target = f["medianMicroseconds"] + 100
        print(f" `durable-write` 1×1 target, p50 ≤ one fsync + 100 µs = {target:,.0f} µs: measured {p50:,.0f} µs "
              f"({'met' if p50 <= target else 'not met'}).", end="")
    except (OSError, ValueError, KeyError):
        pass
print()
PY
fi
if ((FAILED > 0)); then
    echo
    echo "$FAILED run(s) reported errors or failed (see the list above); warnings and errors logged:"
    grep -iE 'error|warning|critical|fatal' "$WORK/server.log" | sort | uniq -c | sort -rn | head -20 || true
    exit 1
fi
