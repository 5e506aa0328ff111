#!/usr/bin/env bash
# Counts the instructions payrpc spends per request inside the engine, under valgrind's callgrind:
# repeatable for the same binary and input, whatever else the machine is doing (the CPU-time
# figures of scripts/bench.sh move 2-5x between runs on shared machines). Only what runs inside
# StreamConnection.receive is counted: framing, parsing, validation, the handler and writing the
# answer into the output buffer, not the kernel's socket work or the loop.
#
# Usage: scripts/callgrind.sh [SCENARIO] [REQUESTS]
#   SCENARIO   a payrpc-bench built-in scenario: health, execute-payment, durable-write (default health);
#              or startup: one whole start counted (serve --stdio, one rpc.health, exit at end of input)
#   REQUESTS   how many requests to send (default 10000; 3000 is plenty for execute-payment)
# Environment: SKIP_BUILD=1 uses the binaries in .build/release; PORT (default 17171);
#   KEEP=FILE keeps the callgrind output there (read it with callgrind_annotate --inclusive=yes FILE);
#   SERVE_ARGS adds options to the server's command line (SERVE_ARGS=--no-call-journal: without the
#   call journal).
# Prints one line: the scenario, the requests and the instructions per request (or per start).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
SCENARIO=${1:-health}
REQUESTS=${2:-10000}
PORT=${PORT:-17171}
command -v valgrind >/dev/null || { echo "scripts/callgrind.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
if [[ -z "${SKIP_BUILD:-}" ]]; then
    echo "building release binaries ..." >&2
    # --static-swift-stdlib as every release build of the repository (scripts/run).
    PAYRPC_TEST_ONLY=none swift build -c release --static-swift-stdlib --product payrpc >&2
    PAYRPC_TEST_ONLY=none swift build -c release --static-swift-stdlib --product payrpc-bench >&2
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/payrpc-callgrind.XXXXXX")
OUT=${KEEP:-$WORK/callgrind.out}
SERVER_PID=""
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill -KILL "$SERVER_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# valgrind 3.19 (Debian 12) writes into the mask rt_sigsuspend is given, and libdispatch's dispatch_main
# (run by the async @main) passes a mask in read-only memory: valgrind itself dies with SIGSEGV ("the
# 'impossible' happened") before the server listens. A preloaded sigsuspend that hands the kernel a
# copy on the stack avoids it; nothing else changes.
cat >"$WORK/sigsuspend.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
int sigsuspend(const sigset_t *mask) {
    static int (*real)(const sigset_t *);
    if (!real) real = (int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend");
    sigset_t copy = *mask;
    return real(&copy);
}
C
cc -shared -fPIC -O2 -o "$WORK/sigsuspend.so" "$WORK/sigsuspend.c" -ldl

# valgrind 3.19 cannot read the DWARF 5 debug information of Swift 6.3's release builds ("unhandled
# dwarf2 abbrev form code 0x25", then it gives up before the server starts): it runs a copy without
# it. The symbols it counts by (--toggle-collect) stay; what runs is the same code.
objcopy --strip-debug .build/release/payrpc "$WORK/payrpc"
if [[ "$SCENARIO" == startup ]]; then
    # The first start creates the store and the server key; the counted one opens them, as every
    # later start does. Symbols stay mangled (scripts/startup-order reads them).
    health='{"jsonrpc":"2.0","id":1,"method":"rpc.health"}'
    # The services' resource bundles beside the binary, as an install has them (scripts/install).
    cp -R .build/release/*.resources "$WORK/"
    echo "$health" | "$WORK/payrpc" serve --stdio --data "$WORK/data" >/dev/null 2>"$WORK/server.log"
    echo "$health" | LD_PRELOAD="$WORK/sigsuspend.so" valgrind --tool=callgrind --demangle=no --callgrind-out-file="$OUT" \
        "$WORK/payrpc" serve --stdio --data "$WORK/data" >"$WORK/answer.json" 2>>"$WORK/server.log"
    grep -q '"SERVING"' "$WORK/answer.json" || { echo "scripts/callgrind.sh: no answer at start-up:" >&2; cat "$WORK/server.log" >&2; exit 1; }
    TOTAL=$(callgrind_annotate "$OUT" 2>/dev/null | awk '/PROGRAM TOTALS/ && !seen {gsub(",", "", $1); print $1; seen = 1}')
    echo "startup: 1 start, $TOTAL instructions"
    exit 0
fi
LD_PRELOAD="$WORK/sigsuspend.so" valgrind --tool=callgrind ${CALLGRIND_ARGS:-} --callgrind-out-file="$OUT" --toggle-collect='*StreamConnectionC7receive*' \
    "$WORK/payrpc" serve --tcp "127.0.0.1:$PORT" --data "$WORK/data" ${SERVE_ARGS:-} 2>"$WORK/server.log" &
SERVER_PID=$!
# The bench retries the connection while the server starts under valgrind (slow).
.build/release/payrpc-bench run --tcp "127.0.0.1:$PORT" --scenario "$SCENARIO" --requests "$REQUESTS" \
    --warmup 0 --depth 16 --connect-timeout 120 >"$WORK/bench.txt" 2>&1 || {
    echo "scripts/callgrind.sh: the load run failed:" >&2
    cat "$WORK/bench.txt" >&2
    exit 1
}
kill -INT "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
# awk reads to the end: leaving early would kill callgrind_annotate with SIGPIPE (and pipefail).
TOTAL=$(callgrind_annotate "$OUT" 2>/dev/null | awk '/PROGRAM TOTALS/ && !seen {gsub(",", "", $1); print $1; seen = 1}')
[[ -n "$TOTAL" ]] || { echo "scripts/callgrind.sh: no totals in $OUT" >&2; exit 1; }
echo "$SCENARIO: $REQUESTS requests, $((TOTAL / REQUESTS)) instructions per request inside the engine"
