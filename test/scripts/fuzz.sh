#!/usr/bin/env bash
# Fuzz suite (issue 8, point 7): every function and operator of the extension called with random
# arguments in UTF8, SQL_ASCII and LATIN1 databases as an unprivileged role, and random query shapes
# on an ndd-indexed table compared with a sequential scan. The server must never crash or restart;
# an internal error (XX...) or a wrong answer fails. Bounded and reproducible:
#   NDD_FUZZ_SECONDS (default 120)   total time
#   NDD_FUZZ_SEED                    replay a run (the seed is printed first)
# Needs the cluster of scripts/test.sh in PG* and Debian's python3-psycopg.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 -c 'import psycopg' 2>/dev/null || { echo "fuzz: python3-psycopg is not installed" >&2; exit 1; }
exec /usr/bin/python3 "$here/../fuzz/fuzz.py"
