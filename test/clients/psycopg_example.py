"""ndd from Python with psycopg 3: pass fingerprints, search by radius and KNN with psycopg's own
parameter binding, read distances as numbers. Run by test/scripts/clients.sh; doc/reference.md
("Clients") shows the part between the readme markers, checked to match.
Connects with the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE)."""
import sys

import psycopg

conn = psycopg.connect(autocommit=True)
conn.execute("CREATE EXTENSION IF NOT EXISTS ndd")
conn.execute("DROP TABLE IF EXISTS client_docs")
conn.execute("CREATE TABLE client_docs (id int PRIMARY KEY, body text, fp simhash64)")
conn.execute("""INSERT INTO client_docs
    SELECT g, b, simhash(b) FROM generate_series(1, 3000) g,
    LATERAL (SELECT string_agg(left(md5((g / 3) || '.' || i), 6), ' ') || ' own' || g AS b
             FROM generate_series(1, 40) i) t""")
conn.execute("CREATE INDEX ON client_docs USING ndd (fp)")
conn.execute("ANALYZE client_docs")
hex_fp, signed_fp = conn.execute(
    "SELECT fp::text, fp::bigint FROM client_docs WHERE id = 100").fetchone()
unsigned_fp = signed_fp % 2**64
bytes_fp = unsigned_fp.to_bytes(8, "big")

# --- readme begin ---
from psycopg.types import TypeInfo
from psycopg.types.numeric import IntLoader, Int4BinaryLoader

# Once per connection: read ndd's hamming_distance (an int4 on the wire) as a Python int.
info = TypeInfo.fetch(conn, "hamming_distance")
conn.adapters.register_loader(info.oid, IntLoader)
conn.adapters.register_loader(info.oid, Int4BinaryLoader)

# A fingerprint goes in as hex text (str), as bytes (8 bytes, most significant first),
# or as an unsigned 64-bit int; a signed int (bigint) takes ::bigint::simhash64 instead.
radius = "SELECT id, fp <~> {q} AS distance FROM client_docs WHERE fp <~> {q} <= %(k)s ORDER BY id"
for q, value in [("%(fp)s", hex_fp),                           # str: 16 hex digits
                 ("%(fp)s::simhash64", bytes_fp),              # bytes: bound as bytea
                 ("%(fp)s::numeric::simhash64", unsigned_fp)]: # int: 0 .. 2**64-1
    rows = conn.execute(radius.format(q=q), {"fp": value, "k": 8}).fetchall()
    print(rows)                                                # [(99, 4), (100, 0), (101, 3)]

# The 5 nearest, through the index.
knn = conn.execute("SELECT id, fp <~> %s AS distance FROM client_docs ORDER BY fp <~> %s LIMIT 5",
                   (hex_fp, hex_fp)).fetchall()
# --- readme end ---

expected = conn.execute(
    "SELECT id, hamming(fp, %s)::int FROM client_docs WHERE hamming(fp, %s)::int <= 8 ORDER BY id",
    (hex_fp, hex_fp)).fetchall()
failures = []
for q, value in [("%(fp)s", hex_fp), ("%(fp)s::simhash64", bytes_fp),
                 ("%(fp)s::numeric::simhash64", unsigned_fp),
                 ("%(fp)s::bigint::simhash64", signed_fp)]:
    rows = conn.execute(radius.format(q=q), {"fp": value, "k": 8}).fetchall()
    if rows != expected or not all(type(d) is int for _, d in rows):
        failures.append(f"radius with {q}: {rows} != {expected}")
    # the driver's own binding keeps the index: EXPLAIN the same statement with the same parameters
    with conn.transaction():
        conn.execute("SET LOCAL enable_seqscan = off")
        plan = "\n".join(r[0] for r in conn.execute(
            "EXPLAIN " + radius.format(q=q), {"fp": value, "k": 8}))
    if "client_docs_fp_idx" not in plan:
        failures.append(f"radius with {q}: the index is not used:\n{plan}")
if len(knn) != 5 or knn[0] != (100, 0) or [d for _, d in knn] != sorted(d for _, d in knn):
    failures.append(f"knn: {knn}")
with conn.transaction():
    conn.execute("SET LOCAL enable_seqscan = off")
    plan = "\n".join(r[0] for r in conn.execute(
        "EXPLAIN SELECT id FROM client_docs ORDER BY fp <~> %s LIMIT 5", (hex_fp,)))
if "Index Scan using client_docs_fp_idx" not in plan:
    failures.append(f"knn: the index is not used:\n{plan}")
# binary results use the binary loader
with conn.cursor(binary=True) as cur:
    d = cur.execute("SELECT %s::simhash64 <~> 'ffffffffffffffff'", (hex_fp,)).fetchone()[0]
    if type(d) is not int or d != bin(unsigned_fp ^ (2**64 - 1)).count("1"):
        failures.append(f"binary distance: {d!r}")
# out of range is an error, not a wrapped fingerprint
try:
    conn.execute("SELECT %s::numeric::simhash64", (2**64,))
    failures.append("2**64 was accepted")
except psycopg.errors.NumericValueOutOfRange:
    pass
conn.execute("DROP TABLE client_docs")
if failures:
    print("FAIL psycopg:", *failures, sep="\n  ")
    sys.exit(1)
print(f"ok psycopg {psycopg.__version__}: hex, bytes, unsigned and signed fingerprints, radius and KNN "
      f"through the index, distances as int")
