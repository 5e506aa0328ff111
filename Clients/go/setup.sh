#!/bin/sh
# Prepares Clients/go for building without a module proxy: copies the Debian sources of
# gojsonschema and its two dependencies into vendor/ (git-ignored) and writes
# vendor/modules.txt, so that `go build -mod=vendor` finds them. Idempotent; prints the
# environment to use with `eval "$(./setup.sh)"`.
#
#   GOCODE   where the Debian Go sources are (default /usr/share/gocode/src)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
gocode=${GOCODE:-/usr/share/gocode/src}
vendor="$here/vendor"

# module path, version (as go.mod requires it), Debian package that ships it
modules='github.com/xeipuuv/gojsonpointer v0.0.0-20190905194746-02993c407bfb golang-github-xeipuuv-gojsonpointer-dev
github.com/xeipuuv/gojsonreference v0.0.0-20180127040603-bd5ef7bd5415 golang-github-xeipuuv-gojsonreference-dev
github.com/xeipuuv/gojsonschema v1.2.0 golang-github-xeipuuv-gojsonschema-dev'

if ! command -v go >/dev/null 2>&1; then
    echo "setup.sh: the go command is missing: apt-get install golang-go" >&2
    exit 1
fi

rm -rf "$vendor"
mkdir -p "$vendor"
: >"$vendor/modules.txt"
while read -r path version package; do
    if [ ! -d "$gocode/$path" ]; then
        echo "setup.sh: $gocode/$path is missing: apt-get install $package" >&2
        exit 1
    fi
    mkdir -p "$vendor/$path"
    for file in "$gocode/$path"/*.go; do
        case "$file" in *_test.go) continue ;; esac
        cp "$file" "$vendor/$path/"
    done
    printf '# %s %s\n## explicit\n%s\n' "$path" "$version" "$path" >>"$vendor/modules.txt"
done <<MODULES
$modules
MODULES

# Caches inside the folder (git-ignored), so a read-only HOME does not matter.
cat <<ENV
export GOFLAGS='-mod=vendor -buildvcs=false'
export GOPROXY=off
export GO111MODULE=on
export GOCACHE='$here/.cache/go-build'
export GOPATH='$here/.cache/gopath'
ENV
