#!/usr/bin/env bash
# Runs both spike clients (release builds) against one throw-away PostgreSQL cluster (initdb + pg_ctl
# in a temporary directory, fsync on, removed on exit), alternating them, and prints one JSON line a run.
# Usage: ./run.sh [CONNECTIONS=8] [SECONDS=5] [ROUNDS=2]
set -euo pipefail
cd "$(dirname "$0")"
connections=${1:-8}
seconds=${2:-5}
rounds=${3:-2}
libpq=libpq/.build/release/libpq-upsert
nio=nio/.build/release/nio-upsert
[[ -x $libpq && -x $nio ]] || { echo "build both first: (cd libpq && swift build -c release); (cd nio && swift build -c release)" >&2; exit 1; }
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_owner() { if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$bindir/$1" "${@:2}"; else "$bindir/$1" "${@:2}"; fi; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pg-spike.XXXXXX")
chmod 755 "$work"
[[ $(id -u) == 0 ]] && chown postgres "$work"
trap 'as_owner pg_ctl -D "$work/pg" -m immediate -w stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_owner initdb -D "$work/pg" -A trust -U postgres -E UTF8 --no-locale >"$work/initdb.log" 2>&1
as_owner pg_ctl -D "$work/pg" -l "$work/pg.log" -w -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c fsync=on" start >/dev/null
"$bindir/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c \
    "CREATE TABLE bench_document (profile text COLLATE \"C\" NOT NULL, namespace text COLLATE \"C\" NOT NULL,
     key text COLLATE \"C\" NOT NULL, value text NOT NULL, updated_at bigint NOT NULL, PRIMARY KEY (profile, namespace, key))"
echo "{\"date\":\"$(date -u +%FT%TZ)\",\"loadAverage\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"postgresql\":\"$("$bindir/postgres" --version)\"}"
for round in $(seq "$rounds"); do
    runs=("$libpq pipeline" "$nio transaction" "$libpq sequential" "$nio autocommit" "$libpq autocommit")
    ((round % 2 == 0)) && runs=("$nio transaction" "$libpq pipeline" "$nio autocommit" "$libpq sequential" "$libpq autocommit")
    for run in "${runs[@]}"; do
        read -r binary mode <<<"$run"
        "$binary" "$port" "$connections" "$seconds" "$mode"
    done
done
