#!/usr/bin/env python3
"""Documents (.jsonl or .jsonl.gz, one JSON object per line, as test/data/sample.jsonl and the
evaluation corpus hold them) -> PostgreSQL COPY text rows (id, corpus, source, path, body):

    python3 test/data/to_copy_tsv.py test/data/sample.jsonl | psql -c "\\copy docs FROM STDIN"
"""
import gzip
import json
import sys


def esc(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
             .replace("\r", "\\r").replace("\x00", ""))


path = sys.argv[1]
f = gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8")
for line in f:
    r = json.loads(line)
    sys.stdout.write("\t".join(esc(str(r.get(k, ""))) for k in ("id", "corpus", "source", "path", "text")) + "\n")
