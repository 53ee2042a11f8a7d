#!/usr/bin/env bash
# Script test: the client examples of test/clients/ (doc/reference.md's "Clients" section shows
# their marked parts, checked here to match) run against the cluster with each driver's own parameter
# binding. A client whose driver is not installed is skipped with a message; the drivers are not
# part of NDD_PACKAGES (Debian: python3-psycopg, libpostgresql-jdbc-java and a JDK; npm: pg).
# Needs PGHOST/PGPORT/PGUSER of a throwaway cluster with ndd installed (and NDD_PGBIN to start a
# TCP cluster for JDBC, which cannot use a Unix socket).
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
clients=$here/test/clients
PSQL="psql -X -q -At -v ON_ERROR_STOP=1"
fail=0 ran=0

# The reference's client code is the files' code between the readme markers.
extract() {  # file -> its marked part, indentation of the begin marker removed
	awk '/--- readme begin ---/ { on = 1; match($0, /^ */); cut = RLENGTH; next }
	     /--- readme end ---/ { on = 0 }
	     on { print substr($0, cut + 1) }' "$1"
}
for f in psycopg_example.py node_example.js JdbcExample.java; do
	readme_part=$(awk -v f="test/clients/$f" '$0 ~ "<!-- code: " f " -->" { want = 1; next }
		want && /^```/ { if (inside) exit; inside = 1; next }
		inside { print }' "$here/doc/reference.md")
	if [ -z "$readme_part" ]; then
		echo "FAIL: doc/reference.md has no code block marked <!-- code: test/clients/$f -->"; fail=1
	elif ! diff -u <(extract "$clients/$f") <(printf '%s\n' "$readme_part") >/tmp/ndd-clients-diff.$$; then
		echo "FAIL: doc/reference.md's code for test/clients/$f differs from the file (- file, + reference):"
		cat /tmp/ndd-clients-diff.$$; fail=1
	fi
	rm -f /tmp/ndd-clients-diff.$$
done

$PSQL -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS ndd_clients" \
	-c "CREATE DATABASE ndd_clients"
export PGDATABASE=ndd_clients

run() {  # name, command...: runs a client, counts its verdict
	local name=$1; shift
	echo "--- $name"
	if "$@"; then ran=$((ran + 1)); else echo "FAIL: $name"; fail=1; fi
}

# psycopg 3: Debian's python3-psycopg is for the system Python
python=""
for p in /usr/bin/python3 python3; do
	if command -v "$p" >/dev/null && "$p" -c 'import psycopg' 2>/dev/null; then python=$p; break; fi
done
if [ -n "$python" ]; then run psycopg "$python" "$clients/psycopg_example.py"
else echo "skipped: psycopg (python3-psycopg) not installed"; fi

# node-postgres: from the directory's node_modules, NODE_PATH, or npm's global modules
if command -v node >/dev/null; then
	export NODE_PATH=${NODE_PATH:+$NODE_PATH:}$clients/node_modules:$(npm root -g 2>/dev/null)
	if node -e 'require("pg")' 2>/dev/null; then run node-postgres node "$clients/node_example.js"
	else echo "skipped: node-postgres (npm pg) not installed"; fi
else
	echo "skipped: node-postgres (node) not installed"
fi

# pgjdbc: Debian's libpostgresql-jdbc-java; the example runs as a single-file source program (JDK 11+).
# pgjdbc speaks TCP only, and the test cluster listens on a Unix socket: start a second
# throwaway cluster on 127.0.0.1 for it.
jar=${NDD_JDBC_JAR:-/usr/share/java/postgresql.jar}
if [ -f "$jar" ] && command -v java >/dev/null && java --help 2>&1 | grep -q 'source-file'; then
	echo "--- pgjdbc"
	(
		source "$here/scripts/lib.sh"
		ndd_start_cluster "listen_addresses='127.0.0.1'" 2>/dev/null
		trap ndd_stop_cluster EXIT
		$PSQL -c "CREATE EXTENSION ndd"
		NDD_JDBC_URL="jdbc:postgresql://127.0.0.1:$PGPORT/$PGDATABASE?user=$PGUSER" \
			java -cp "$jar" "$clients/JdbcExample.java" 2>&1 | grep -v '^Note: '
		exit "${PIPESTATUS[0]}"
	)
	status=$?
	if [ "$status" -eq 0 ]; then ran=$((ran + 1)); else echo "FAIL: pgjdbc"; fail=1; fi
else
	echo "skipped: pgjdbc (libpostgresql-jdbc-java and a JDK) not installed"
fi

$PSQL -d postgres -c "DROP DATABASE ndd_clients"
echo "clients run: $ran"
exit $fail
