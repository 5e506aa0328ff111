#!/usr/bin/env bash
# Clean debug then release builds of both spike packages, one at a time; prints seconds for each.
set -u
cd "$(dirname "$0")"
for config in debug release; do
  for pkg in libpq nio; do
    (cd $pkg && swift package clean >/dev/null 2>&1; rm -rf .build/$config .build/*-linux-gnu/$config)
    start=$(date +%s.%N); load=$(cut -d' ' -f1 /proc/loadavg)
    (cd $pkg && swift build -c $config >build-$config.log 2>&1); rc=$?
    end=$(date +%s.%N); load2=$(cut -d' ' -f1 /proc/loadavg)
    echo "$pkg $config rc=$rc seconds=$(echo "$end - $start" | bc) load=$load..$load2"
  done
done
