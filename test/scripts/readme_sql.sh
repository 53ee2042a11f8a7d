#!/usr/bin/env bash
# Script test: every ```sql block of README.md runs, in order, in one psql session on a fresh
# database, with ON_ERROR_STOP, so that the README cannot drift from what the extension does. A
# block may opt out only with the line `<!-- readme-sql: skip: <reason> -->` right above it (for
# examples that need what a fresh database cannot have, e.g. the large corpus); skipped blocks are
# listed with their reasons.
# Needs PGHOST/PGPORT/PGUSER of a throwaway cluster with ndd installed (not yet created in it).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
db=ndd_readme
script=$(mktemp /tmp/ndd-readme.XXXXXX.sql)
trap 'rm -f "$script"' EXIT

# One psql script: each block preceded by an \echo naming its first line in README.md.
awk -v out="$script" '
	/^<!-- readme-sql: skip: .* -->$/ { skip = $0; sub(/^<!-- readme-sql: skip: /, "", skip); sub(/ -->$/, "", skip); next }
	/^```sql[ \t]*$/ && !inside { inside = 1; n++; start = NR + 1
		if (skip != "") { printf "skipped: README.md block %d (line %d): %s\n", n, start, skip; skipping = 1 }
		else print "\\echo README.md block " n " (line " start ")" > out
		skip = ""; next }
	/^```/ && inside { inside = 0; skipping = 0; next }
	inside && !skipping { print > out }
	!inside && !/^[ \t]*$/ { skip = "" }
	END { printf "%d sql blocks\n", n }' "$here/README.md"

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "SET client_min_messages = warning" \
	-c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
log=$(mktemp /tmp/ndd-readme.XXXXXX.log)
trap 'rm -f "$script" "$log"' EXIT
if ! psql -X -v ON_ERROR_STOP=1 -d $db -f "$script" >"$log" 2>&1; then
	echo "FAIL: a README.md SQL block does not run as written:"
	grep -n 'README.md block\|ERROR\|LINE\|HINT\|DETAIL' "$log" | tail -8
	exit 1
fi
echo "every README.md SQL block ran in order: $(grep -c '^README.md block' "$log") blocks, no error"
psql -X -q -d postgres -c "DROP DATABASE $db"
