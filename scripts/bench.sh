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
#   ONLY=REGEX              run only the scenarios whose label matches
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
    swift build -c release --scratch-path "$SCRATCH" --product payrpc >&2
    swift build -c release --scratch-path "$SCRATCH" --product payrpc-bench >&2
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
        taskset -c "$SERVER_CPU" "$PAYRPC" serve "${LISTEN[@]}" --data "$DATA" >>"${SERVER_LOG:-$WORK/server.log}" 2>&1 &
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
# Durable writes: payrpc only (the ceiling stores nothing). The server logs its store's writes and
# commits (fsyncs) when it stops; writes per commit show the group commit at work.
DURABLE_ROWS=()
for shape in "1 64" "16 16"; do
    read -r connections depth <<<"$shape"
    label="durable-write tcp ${connections}×${depth}"
    if [[ -n "$ONLY" && ! "$label" =~ $ONLY ]]; then continue; fi
    RUN=$((RUN + 1))
    out="$RESULTS/$(printf %03d $RUN)-payrpc.json"
    echo "== $label [payrpc]" >&2
    SERVER_LOG="$WORK/durable-$RUN.log"
    if ! start_server payrpc tcp; then
        stop_server
        FAILED=$((FAILED + 1))
        unset SERVER_LOG
        continue
    fi
    status=0
    "$BENCH" run "${ADDR[@]}" --server-pid "$SERVER_PID" --label "$label" --json --scenario durable-write "${LOAD[@]}" \
        --client-cpu "$CLIENT_CPU" --connections "$connections" --depth "$depth" >"$out" 2>>"$WORK/server.log" || status=$?
    stop_server
    if [[ $status -ne 0 ]]; then FAILED=$((FAILED + 1)); echo "   exit code $status" >&2; fi
    stopped=$(grep -o 'stopped .*' "$SERVER_LOG" | tail -1)
    writes=$(sed -n 's/.*store\.writes=\([0-9]*\).*/\1/p' <<<"$stopped")
    commits=$(sed -n 's/.*store\.commits=\([0-9]*\).*/\1/p' <<<"$stopped")
    uptime=$(sed -n 's/.*uptime\.seconds=\([0-9.]*\).*/\1/p' <<<"$stopped")
    rate=$(sed -n 's/.*"requestsPerSecond" *: *\([0-9.]*\).*/\1/p' "$out" | head -1)
    if [[ -n "$writes" && -n "$commits" && -n "$uptime" && "$commits" -gt 0 ]]; then
        DURABLE_ROWS+=("| $label | ${rate%.*} | $(awk -v w="$writes" -v u="$uptime" 'BEGIN{printf "%d", w/u}') | $(awk -v c="$commits" -v u="$uptime" 'BEGIN{printf "%d", c/u}') | $(awk -v w="$writes" -v c="$commits" 'BEGIN{printf "%.0f", w/c}') |")
    else
        echo "   no store statistics in the server's log" >&2
        FAILED=$((FAILED + 1))
    fi
    cat "$SERVER_LOG" >>"$WORK/server.log"
    unset SERVER_LOG
done

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
    echo "Durable writes (group commit, synchronous=FULL), from the store's counts over the server's uptime:"
    echo
    echo "| scenario | req/s | store writes/s | commits (fsyncs)/s | writes per commit |"
    echo "|---|---:|---:|---:|---:|"
    printf '%s\n' "${DURABLE_ROWS[@]}"
fi
if ((FAILED > 0)); then
    echo
    echo "$FAILED run(s) reported errors or failed (see the list above); warnings and errors logged:"
    grep -iE 'error|warning|critical|fatal' "$WORK/server.log" | sort | uniq -c | sort -rn | head -20 || true
    exit 1
fi
