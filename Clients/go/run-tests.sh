#!/bin/sh
# Runs the Go client's tests against a real payrpc binary, with the race detector.
#
#   PAYRPC_BIN=/path/to/payrpc Clients/go/run-tests.sh [go test args...]
#
# Needs the Debian packages golang-go, gcc (cgo, for -race) and
# golang-github-xeipuuv-gojsonschema-dev (with its gojsonpointer and gojsonreference
# dependencies); no module proxy: setup.sh vendors the Debian sources into vendor/. Build
# caches stay in Clients/go/.cache (git-ignored).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${PAYRPC_BIN:-}" ]; then
    echo "run-tests.sh: set PAYRPC_BIN to the payrpc binary (swift build --product payrpc)" >&2
    exit 2
fi
case "$PAYRPC_BIN" in
    /*) ;;
    *) PAYRPC_BIN="$(pwd)/$PAYRPC_BIN" ;;
esac
if [ ! -x "$PAYRPC_BIN" ]; then
    echo "run-tests.sh: PAYRPC_BIN=$PAYRPC_BIN is not an executable file" >&2
    exit 2
fi
export PAYRPC_BIN
if ! command -v go >/dev/null 2>&1; then
    echo "run-tests.sh: the go command is missing: apt-get install golang-go" >&2
    exit 1
fi
if ! command -v gcc >/dev/null 2>&1; then
    echo "run-tests.sh: gcc is missing (go test -race needs cgo): apt-get install gcc" >&2
    exit 1
fi
eval "$("$here/setup.sh")"
export CGO_ENABLED=1
cd "$here"
unformatted=$(gofmt -l $(find . -name '*.go' -not -path './vendor/*' -not -path './third_party/*' -not -path './.cache/*'))
if [ -n "$unformatted" ]; then
    echo "run-tests.sh: not gofmt-clean: $unformatted" >&2
    exit 1
fi
go vet ./...
exec go test -race -count=1 -timeout 15m "$@" ./... </dev/null
