#!/usr/bin/env python3
"""SQLite's own durable write rate on this machine, the reference line of scripts/bench.sh.

Drives the same libsqlite3 as payrpc (through Python's sqlite3 module): a fresh database per batch
size, WAL, synchronous=FULL, a table shaped like payrpc's `document` (primary key (profile,
namespace, key), WITHOUT ROWID, json_valid check: the statements are read from
Sources/PayRPCSQLite/StoreSchema.swift and StoreSQL.swift),
one ~300-byte upsert per row with random keys, at 1, 16 and 64 rows per transaction. Reports rows/s
and CPU µs per row (this process's CPU time / rows; Python's own per-row cost is in it, a few µs).
And, measured first, the median latency of one fsync: a 100-byte write appended to a small file +
os.fsync, 200 times (issue 19's 1×1 target is "p50 <= one fsync + 100 µs"); and the same written in place at the
file's start (no size change for the file system's journal: a reused WAL's case, the lower floor).

Usage: scripts/sqlite-reference.py [--json] [--seconds S] [--dir DIR] [--batches 1,16,64]
--dir puts the databases on the same file system as the server's data directory (default: TMPDIR).
"""
import argparse
import json
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def from_store_sources(path, pattern, what):
    """The statement payrpc's store uses, read from its Swift source so the reference stays its twin."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        found = re.search(pattern, f.read(), re.S)
    if not found:
        sys.exit(f"sqlite-reference: cannot find {what} in {path}; update the pattern in {__file__}")
    return found.group(1)


SCHEMA = from_store_sources("Sources/PayRPCSQLite/StoreSchema.swift",
                            r"(CREATE TABLE document \(.*?\) WITHOUT ROWID)", "the document table")
UPSERT = from_store_sources("Sources/PayRPCSQLite/StoreSQL.swift",
                            r'static let upsert = """(.*?)"""', "the upsert statement")


def document(key):
    """A JSON document of about 300 bytes, different per key."""
    text = json.dumps({
        "requestId": key, "amount": "12.50", "currency": "GBP", "reference": "Invoice 2026-001 for services",
        "status": "pending", "createdAt": 1767225600000, "merchant": "Sandbox Merchant Ltd", "pad": "",
    }, separators=(",", ":"))
    return text.replace('"pad":""', '"pad":"' + "x" * max(0, 300 - len(text)) + '"')


def rows_per_second(directory, per_transaction, seconds):
    """Upserts rows in transactions of `per_transaction` rows for about `seconds` seconds."""
    path = os.path.join(directory, f"reference-{per_transaction}.sqlite")
    db = sqlite3.connect(path, isolation_level=None)
    try:
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        db.execute("PRAGMA synchronous = FULL")
        synchronous = db.execute("PRAGMA synchronous").fetchone()[0]
        assert mode == "wal" and synchronous == 2, (mode, synchronous)
        db.execute(SCHEMA)
        rng = random.Random(per_transaction)
        # The rows are made before the clock starts: what is measured is SQLite's part.
        rows = 0
        elapsed = 0.0
        cpu = 0.0
        while elapsed < seconds:
            chunk = []
            for _ in range(max(64, per_transaction)):
                key = "%032x" % rng.getrandbits(128)
                chunk.append(("default", "pbba.request", key, document(key), 1767225600000 + rows))
            wall0, cpu0 = time.perf_counter(), time.process_time()
            for start in range(0, len(chunk), per_transaction):
                db.execute("BEGIN IMMEDIATE")
                for row in chunk[start:start + per_transaction]:
                    db.execute(UPSERT, row)
                db.execute("COMMIT")
            elapsed += time.perf_counter() - wall0
            cpu += time.process_time() - cpu0
            rows += len(chunk)
        return {"rowsPerTransaction": per_transaction, "rows": rows, "seconds": round(elapsed, 3),
                "rowsPerSecond": round(rows / elapsed), "cpuMicrosecondsPerRow": round(cpu * 1e6 / rows, 1)}
    finally:
        db.close()


def fsync_latency(directory, append, samples=200):
    """Median and p90 of one 100-byte write + fsync of a small file, microseconds: appended (the file
    grows, so the file system's journal commits its size too) or written in place at its start (what
    a WAL commit does once the WAL is reused after a checkpoint)."""
    path = os.path.join(directory, "fsync-append" if append else "fsync-in-place")
    fd = os.open(path, os.O_RDWR | os.O_CREAT | (os.O_APPEND if append else 0), 0o600)
    try:
        os.write(fd, b"\0" * 4096)
        os.fsync(fd)
        times = []
        for i in range(samples):
            payload = (b"%08d" % i) * 12 + b"\n\n\n\n"
            t0 = time.perf_counter()
            if append:
                os.write(fd, payload)
            else:
                os.pwrite(fd, payload, 0)
            os.fsync(fd)
            times.append((time.perf_counter() - t0) * 1e6)
        times.sort()
        return {"samples": samples, "medianMicroseconds": round(statistics.median(times), 1),
                "p90Microseconds": round(times[int(samples * 0.9) - 1], 1)}
    finally:
        os.close(fd)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of writing per batch size (default 2)")
    parser.add_argument("--dir", help="where the temporary databases go (default: TMPDIR)")
    parser.add_argument("--batches", default="1,16,64", help="rows per transaction, comma-separated")
    args = parser.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    if not batches or min(batches) < 1 or args.seconds <= 0:
        parser.error("--batches must be positive integers and --seconds positive")
    with tempfile.TemporaryDirectory(prefix="sqlite-reference.", dir=args.dir) as directory:
        # The fsync first: scripts/bench.sh runs this right after the durable 1×1 row, whose target
        # is "one fsync + 100 µs".
        fsync = fsync_latency(directory, append=True)
        in_place = fsync_latency(directory, append=False)
        results = [rows_per_second(directory, b, args.seconds) for b in batches]
    report = {"sqliteVersion": sqlite3.sqlite_version, "journalMode": "wal", "synchronous": "FULL",
              "valueBytes": len(document("%032x" % 0)), "batches": results, "fsync": fsync,
              "fsyncInPlace": in_place}
    if args.json:
        print(json.dumps(report))
        return
    print(f"SQLite {report['sqliteVersion']} (Python sqlite3), WAL, synchronous=FULL, "
          f"{report['valueBytes']}-byte upserts with random keys:")
    for r in results:
        print(f"  {r['rowsPerTransaction']:>3} per transaction: {r['rowsPerSecond']:,} rows/s, "
              f"{r['cpuMicrosecondsPerRow']} µs CPU/row ({r['rows']:,} rows in {r['seconds']} s)")
    print(f"fsync: write of 100 bytes (appended) + fsync, {fsync['samples']} times: median "
          f"{fsync['medianMicroseconds']} µs, p90 {fsync['p90Microseconds']} µs; written in place: median "
          f"{in_place['medianMicroseconds']} µs, p90 {in_place['p90Microseconds']} µs")


if __name__ == "__main__":
    main()
