#!/usr/bin/env bash
# Script test: every ```sql block of README.md and then of doc/reference.md runs, in order, in one
# psql session on a fresh database, with ON_ERROR_STOP, so that the documentation cannot drift from
# what the extension does (the reference continues the README's first session). A block may opt
# out only with a line right above it: `<!-- readme-sql: citus -->` for a block that needs Citus
# (test/scripts/citus_distributed.sh runs those, through scripts/readme_blocks.awk), or
# `<!-- readme-sql: skip: <reason> -->` for what a fresh database cannot have (e.g. the large
# corpus); skipped blocks are listed with their reasons.
# Needs PGHOST/PGPORT/PGUSER of a throwaway cluster with ndd installed (not yet created in it).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
db=ndd_readme
script=$(mktemp /tmp/ndd-readme.XXXXXX.sql)
log=$(mktemp /tmp/ndd-readme.XXXXXX.log)
trap 'rm -f "$script" "$log"' EXIT

# One psql script: each block preceded by an \echo naming its file and first line.
for doc in README.md doc/reference.md; do
	awk -v mode=plain -f "$here/scripts/readme_blocks.awk" "$here/$doc" >>"$script"
done
grep '^-- skipped: ' "$script" | sed 's/^-- //' || true
echo "$(grep -c '^\\echo ' "$script") sql blocks to run"

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "SET client_min_messages = warning" \
	-c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
if ! psql -X -v ON_ERROR_STOP=1 -d $db -f "$script" >"$log" 2>&1; then
	echo "FAIL: an SQL block of the documentation does not run as written:"
	grep -n '\.md block\|ERROR\|LINE\|HINT\|DETAIL' "$log" | tail -8
	exit 1
fi
echo "every SQL block of README.md and doc/reference.md ran in order: $(grep -c '\.md block' "$log") blocks, no error"
psql -X -q -d postgres -c "DROP DATABASE $db"
