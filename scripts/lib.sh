# scripts/lib.sh: shared by scripts/test.sh, scripts/demo.sh, bench/* and the script tests
# (test/scripts): installing what ndd needs on Debian 12, finding or building each PostgreSQL major,
# running a throwaway cluster of one, and (at the end) the script tests' own helpers.
# Source it; it defines functions only.
#
# The PostgreSQL everything works on is its bin directory, NDD_PGBIN (ndd_use_pg switches it). The
# default is Debian 12's own major, NDD_PG_VERSION; a private copy of that server tree (relocated,
# with ndd installed by make install) can stand in for it: set NDD_PGBIN to its bin directory.

NDD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NDD_PG_VERSION=15
NDD_PGBIN=${NDD_PGBIN:-/usr/lib/postgresql/$NDD_PG_VERSION/bin}
# the default major's bin directory, kept when ndd_use_pg switches NDD_PGBIN to another major
NDD_PG_DEFAULT_BIN=${NDD_PG_DEFAULT_BIN:-$NDD_PGBIN}

# The Debian packages a build, the tests and the demo need (perl and libipc-run-perl: the TAP tests,
# through PostgreSQL::Test::Cluster of postgresql-server-dev; python3-psycopg: the fuzz suite;
# rapidjson-dev: the JSON-LD of web pages, src/core/html_jsonld.cpp (headers only);
# liburiparser-dev, libidn2-dev: URL parsing and IDNA host names, src/core/url.cpp; the loader
# ndd-load, loader/Makefile and doc/loader.md: libpq-dev, libarchive-dev, libmagic-dev,
# libuchardet-dev, libpoppler-cpp-dev, libgmime-3.0-dev, pkg-config, zlib1g-dev; wget: its test's crawl).
NDD_PACKAGES="postgresql-$NDD_PG_VERSION postgresql-server-dev-$NDD_PG_VERSION postgresql-client-$NDD_PG_VERSION
  libxxhash-dev libicu-dev libgtest-dev g++ make python3 gzip util-linux procps iproute2 perl libipc-run-perl
  python3-psycopg
  libxml2-dev rapidjson-dev
  liburiparser-dev libidn2-dev
  libpq-dev libarchive-dev libmagic-dev libuchardet-dev libpoppler-cpp-dev libgmime-3.0-dev pkg-config zlib1g-dev wget"

ndd_log() { printf '==> %s\n' "$*" >&2; }

# Installs the missing packages (apt-get update only when something is missing). Needs root.
ndd_install_deps() {
	local missing=() p
	for p in $NDD_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		if [ "$(id -u)" -ne 0 ]; then
			echo "missing packages: ${missing[*]} (run as root, or install them)" >&2
			return 1
		fi
		ndd_log "installing ${missing[*]}"
		# wait for another installer (a second test run, unattended upgrades) instead of failing
		apt-get -o DPkg::Lock::Timeout=600 update -qq
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
			"${missing[@]}" >/dev/null
	fi
}

# The major version of the PostgreSQL in bin directory $1 (default NDD_PGBIN), e.g. 18.
ndd_pg_major() {
	"${1:-$NDD_PGBIN}/pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/'
}

# The PGXS directory of the PostgreSQL in NDD_PGBIN, which holds pg_regress and the TAP modules:
# <pkglibdir>/pgxs, as its pg_config says (`--pgxs` names src/makefiles/pgxs.mk in it): Debian's
# is bin/../lib/pgxs, a source build's with a prefix such as /usr/local bin/../lib/postgresql/pgxs.
ndd_pgxs_dir() {
	local mk
	mk=$("$NDD_PGBIN/pg_config" --pgxs) || return 1
	echo "${mk%/src/makefiles/pgxs.mk}"
}

# Makes the PostgreSQL of bin directory $1 the one of everything that follows: NDD_PGBIN,
# NDD_PG_MAJOR, and its client programs (psql, pg_dump, ...) first in PATH, so that a test's psql or
# pg_dump is the server's own major.
ndd_use_pg() {
	NDD_BASE_PATH=${NDD_BASE_PATH:-$PATH}
	NDD_PGBIN=$1
	NDD_PG_MAJOR=$(ndd_pg_major "$1")
	PATH=$1:$NDD_BASE_PATH
	export NDD_PGBIN NDD_PG_MAJOR NDD_BASE_PATH PATH NDD_PG_DEFAULT_BIN
}

# Prints the bin directory of PostgreSQL major $1: NDD_PG<major>_BIN when set; else Debian's
# (/usr/lib/postgresql/<major>; for 15 the NDD_PGBIN this started with); else, for a major Debian 12 does not package, a
# build of the release tarball NDD_PG<major>_TARBALL (default: the newest postgresql-<major>.*
# tarball in ../shared/vendor beside the repository) by scripts/postgres_build.sh, cached in
# /var/cache/ndd after the first run. Returns 1 and prints the reason instead when there is none.
ndd_find_pg() {
	local major=$1 var tarball bin
	var=NDD_PG${major}_BIN
	if [ -n "${!var:-}" ]; then
		[ -x "${!var}/pg_config" ] && { echo "${!var}"; return 0; }
		echo "$var=${!var} has no pg_config"; return 1
	fi
	if [ "$major" = "$NDD_PG_VERSION" ]; then echo "$NDD_PG_DEFAULT_BIN"; return 0; fi
	if [ -x "/usr/lib/postgresql/$major/bin/pg_config" ] &&
		[ -d "$(/usr/lib/postgresql/$major/bin/pg_config --pkglibdir)/pgxs" ]; then
		echo "/usr/lib/postgresql/$major/bin"; return 0
	fi
	var=NDD_PG${major}_TARBALL
	tarball=${!var:-}
	if [ -z "$tarball" ]; then
		tarball=$(ls -1 "$NDD_ROOT"/../shared/vendor/postgresql-"$major".*.tar.* 2>/dev/null | grep -v '\.sha256$' | sort -V | tail -1)
	fi
	if [ -z "$tarball" ]; then
		echo "not installed (with its server headers) and no release tarball (set $var, or NDD_PG${major}_BIN)"
		return 1
	fi
	[ -f "$tarball" ] || { echo "not installed, and $var=$tarball does not exist"; return 1; }
	if ! bin=$(bash "$NDD_ROOT/scripts/postgres_build.sh" "$tarball"); then
		echo "the build of $tarball failed (see above)"; return 1
	fi
	echo "$bin"
}

# Where ndd is built for the PostgreSQL of bin directory $1: the checkout itself for Debian's major,
# else build/pg<major>/, a fresh copy of the sources (object files of two majors must not mix, and
# the checkout stays built for the default one).
ndd_build_dir() {
	local major dir
	major=$(ndd_pg_major "$1")
	if [ "$major" = "$NDD_PG_VERSION" ]; then echo "$NDD_ROOT"; return 0; fi
	dir=$NDD_ROOT/build/pg$major
	rm -rf "$dir" && mkdir -p "$dir" && cp -a "$NDD_ROOT/Makefile" "$NDD_ROOT/ndd.control" "$NDD_ROOT/src" "$NDD_ROOT/sql" "$dir/" &&
		make -C "$dir" -s clean PG_CONFIG="$1/pg_config" >/dev/null && echo "$dir"
}

# Builds the extension and installs it into the PostgreSQL of bin directory $1 (default NDD_PGBIN).
ndd_build_install() {
	local bin=${1:-$NDD_PGBIN} dir
	dir=$(ndd_build_dir "$bin") || return 1
	ndd_log "building and installing the extension into PostgreSQL $(ndd_pg_major "$bin") ($bin)"
	make -C "$dir" -s -j"$(nproc)" PG_CONFIG="$bin/pg_config" &&
		make -C "$dir" -s install PG_CONFIG="$bin/pg_config" >/dev/null
}

# For the benchmarks: installs what is missing and builds and installs the extension (one
# installer at a time, across processes), unless NDD_NO_INSTALL=1 asks to use it as installed.
ndd_bench_install() {
	[ "${NDD_NO_INSTALL:-0}" = 1 ] && return 0
	ndd_install_deps
	flock /tmp/ndd-install.lock bash -c "source '$NDD_ROOT/scripts/lib.sh'; ndd_build_install"
}

# Runs a command as the cluster's owner (initdb and postgres refuse to run as root), from a
# directory the owner can enter (else initdb and pg_ctl complain "could not change directory");
# every path handed to it must be absolute.
ndd_as_owner() {
	if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

# Starts a private cluster in a new temporary directory and exports PGHOST, PGPORT, PGUSER,
# PGDATABASE for the clients, and NDD_PGDATA, NDD_PGBIN, NDD_PGOPTS, NDD_PGLOG for tests that stop
# and restart the server (ndd_restart_cluster). Extra server settings: "$@" as -c options.
ndd_start_cluster() {
	NDD_CLUSTER_DIR=$(mktemp -d /tmp/ndd-cluster.XXXXXX)
	chmod 755 "$NDD_CLUSTER_DIR"
	[ "$(id -u)" -eq 0 ] && chown postgres: "$NDD_CLUSTER_DIR"
	export NDD_PGDATA=$NDD_CLUSTER_DIR/data NDD_PGBIN
	# NDD_INITDB_OPTS: more initdb options (bench/pg18_vs_15.sh: --no-data-checksums on 18, whose
	# initdb turns them on, so that both majors run the same configuration)
	# shellcheck disable=SC2086
	ndd_as_owner "$NDD_PGBIN/initdb" -D "$NDD_PGDATA" -A trust -U postgres -E UTF8 --no-locale ${NDD_INITDB_OPTS:-} >/dev/null
	# a free port: the first one nobody listens on, from a per-process offset
	local port=$((50000 + $$ % 10000))
	while ss -ltn 2>/dev/null | grep -q ":$port\b"; do port=$((port + 1)); done
	local opts="-p $port -k $NDD_CLUSTER_DIR -c listen_addresses='' -c shared_buffers=512MB"
	local o
	for o in "$@"; do opts+=" -c $o"; done
	export NDD_PGOPTS=$opts NDD_PGLOG=$NDD_CLUSTER_DIR/server.log
	export PGHOST=$NDD_CLUSTER_DIR PGPORT=$port PGUSER=postgres PGDATABASE=postgres
	ndd_restart_cluster
	ndd_log "throwaway cluster on port $port in $NDD_CLUSTER_DIR"
}

# (Re)starts the cluster of ndd_start_cluster if it is not running, e.g. after a test stopped it
# (after a crash, whose postmaster may not have exited yet, ndd_crash_restart).
ndd_restart_cluster() {
	ndd_as_owner "$NDD_PGBIN/pg_ctl" -D "$NDD_PGDATA" status >/dev/null 2>&1 && return 0
	ndd_pg_ctl_start 300
}

# Starts the server of the cluster of ndd_start_cluster (NDD_PGDATA, with NDD_PGOPTS, logging to
# NDD_PGLOG) and waits up to $1 seconds until it accepts connections. Returns pg_ctl's status.
ndd_pg_ctl_start() {
	# The server must not inherit our open files: a caller's lock (flock) would live as long as it.
	(
		for fd in /proc/$BASHPID/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		ndd_as_owner "$NDD_PGBIN/pg_ctl" -D "$NDD_PGDATA" -o "$NDD_PGOPTS" -l "$NDD_PGLOG" -w -t "$1" start >/dev/null
	)
}

# Stops the cluster and removes its directory; keeps it (and says where) when NDD_KEEP_CLUSTER=1.
ndd_stop_cluster() {
	[ -n "${NDD_CLUSTER_DIR:-}" ] || return 0
	ndd_as_owner "$NDD_PGBIN/pg_ctl" -D "$NDD_PGDATA" -m fast -w stop >/dev/null 2>&1 || true
	if [ "${NDD_KEEP_CLUSTER:-0}" = 1 ]; then
		ndd_log "kept $NDD_CLUSTER_DIR"
	else
		rm -rf "$NDD_CLUSTER_DIR"
	fi
	NDD_CLUSTER_DIR=
}

# Where the optional evaluation corpus is: NDD_CORPUS_DIR, else shared/corpus beside the repository
# when it exists (the developers' layout), else nothing (the tests then use test/data alone).
ndd_corpus_dir() {
	if [ -n "${NDD_CORPUS_DIR:-}" ]; then
		echo "$NDD_CORPUS_DIR"
	elif [ -d "$NDD_ROOT/../shared/corpus" ]; then
		(cd "$NDD_ROOT/../shared/corpus" && pwd)
	fi
}

# For the benchmarks: the shape of an ndd index, "map generation G, SIZE" (the map's expansions
# since the build, README.index.md "Growth"), read from ndd_index_check's report.
ndd_index_shape() {
	psql -X -q -At -v ON_ERROR_STOP=1 -c "SELECT 'map generation ' || coalesce(substring(ndd_index_check('$1') from 'map generation ([0-9]+)'), '1')
		|| ', ' || pg_size_pretty(pg_relation_size('$1'))"
}

# Waits for a server started in the background to write its port into its log $1 ("port N": Python's
# http.server says "Serving HTTP on ... port N", the tests' own servers "port N"), and prints N;
# returns 1 when none came within $2 seconds (default 60).
ndd_wait_port() {
	local log=$1 tenths=$((${2:-60} * 10)) port
	for ((; tenths > 0; tenths--)); do
		port=$(grep -m1 -oE '(^| )port [0-9]+' "$log" 2>/dev/null | grep -oE '[0-9]+$')
		[ -n "$port" ] && { echo "$port"; return 0; }
		sleep 0.1
	done
	return 1
}

# Copies this checkout as it is, the tracked files and the untracked ones git does not ignore (not
# build products), into directory $1: what the package tests build from.
ndd_copy_checkout() {
	git -C "$NDD_ROOT" ls-files -z --cached --others --exclude-standard |
		tar -C "$NDD_ROOT" --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -C "$1" -xf -
}

# For the package tests: runs test/scripts/installed_extension.sql (CREATE EXTENSION ndd and queries
# through an ndd index, equal to a sequential scan) in the cluster of PG*, and checks that the
# extension reports version $1. Prints what it did; returns 1 on any failure.
ndd_check_installed_extension() {
	local out
	if ! out=$(psql -X -At -d postgres -f "$NDD_ROOT/test/scripts/installed_extension.sql" 2>&1); then
		echo "$out"
		echo "FAIL: the installed extension does not work"
		return 1
	fi
	echo "$out"
	[ "$(tail -1 <<<"$out")" = "installed version $1" ] || { echo "FAIL: CREATE EXTENSION ndd did not install version $1"; return 1; }
}

# pgvector (optional: bench/vectors.sh and test/scripts/pgvector_interop.sh compare and combine ndd
# with it) installed into the PostgreSQL of NDD_PGBIN when it is missing, built from its source
# tarball NDD_PGVECTOR_TARBALL (default: ../shared/vendor/pgvector-0.8.6.tar.gz beside the
# repository). Nothing of pgvector is kept in this repository. Returns 1 with the reason on stdout
# when it is neither installed nor buildable.
ndd_pgvector_install() {
	local tarball=${NDD_PGVECTOR_TARBALL:-$NDD_ROOT/../shared/vendor/pgvector-0.8.6.tar.gz} src
	[ -f "$("$NDD_PGBIN/pg_config" --sharedir)/extension/vector.control" ] && return 0
	if [ ! -f "$tarball" ]; then
		echo "pgvector is not installed in $NDD_PGBIN and its source $tarball is missing (set NDD_PGVECTOR_TARBALL)"
		return 1
	fi
	ndd_log "building pgvector from $tarball into $("$NDD_PGBIN/pg_config" --pkglibdir)"
	src=$(mktemp -d /tmp/ndd-pgvector.XXXXXX)
	tar -C "$src" -xzf "$tarball" &&
		make -C "$src"/pgvector-* -s -j"$(nproc)" PG_CONFIG="$NDD_PGBIN/pg_config" >/dev/null &&
		make -C "$src"/pgvector-* -s install PG_CONFIG="$NDD_PGBIN/pg_config" >/dev/null
	local rc=$?
	rm -rf "$src"
	[ $rc -eq 0 ] || echo "the build of pgvector from $tarball failed"
	return $rc
}

# ---- for the script tests (test/scripts): crashes, and the index's answers against a scan's ----

# Crashes the server of the cluster of ndd_start_cluster: SIGKILL to its postmaster (no shutdown
# checkpoint; what sat in shared buffers is lost, postmaster.pid stays behind). Waits until the
# postmaster has exited and been reaped and the processes it had started (orphaned backends, which
# exit when they notice its death) are gone, so that what follows (deleting files, ndd_crash_restart)
# meets no server process. Prints the pid it killed; returns 1 with the reason after 120 s.
ndd_crash_kill() {
	local pid children p deadline=$((SECONDS + 120))
	pid=$(head -1 "$NDD_PGDATA/postmaster.pid" 2>/dev/null || true)
	if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
		echo "ndd_crash_kill: no postmaster runs in $NDD_PGDATA" >&2
		return 1
	fi
	children=$(pgrep -P "$pid" || true)
	kill -9 "$pid"
	echo "killed the postmaster ($pid) with SIGKILL"
	# kill -0 also finds a zombie: the postmaster is gone once its parent (init) has reaped it
	for p in "$pid" $children; do
		while kill -0 "$p" 2>/dev/null; do
			if [ $SECONDS -ge $deadline ]; then
				echo "ndd_crash_kill: process $p of the killed postmaster $pid still exists after 120 s ($(ps -o stat=,args= -p "$p"))" >&2
				return 1
			fi
			sleep 0.1
		done
	done
}

# Starts the cluster again after ndd_crash_kill, with its settings (NDD_PGOPTS, NDD_PGLOG), and waits
# until crash recovery has ended and the server accepts connections (at most 300 s). A backend
# forked just before the crash, which ndd_crash_kill did not see, may still hold the old shared
# memory, which a new postmaster refuses to share: the start is retried while that is the reason it
# failed. Returns 1 with the reason and the server log's tail when the server does not come back,
# or comes back still in recovery.
ndd_crash_restart() {
	local pid deadline=$((SECONDS + 300)) log_size recovery
	pid=$(head -1 "$NDD_PGDATA/postmaster.pid" 2>/dev/null || true)
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		echo "ndd_crash_restart: the postmaster $pid of $NDD_PGDATA still runs (crash it with ndd_crash_kill first)" >&2
		return 1
	fi
	while log_size=$(stat -c %s "$NDD_PGLOG" 2>/dev/null || echo 0); ! ndd_pg_ctl_start $((deadline - SECONDS)) 2>/dev/null; do
		sleep 1
		if [ $SECONDS -ge $deadline ] ||
			! tail -c +$((log_size + 1)) "$NDD_PGLOG" | grep -q 'pre-existing shared memory block .* is still in use'; then
			echo "ndd_crash_restart: the server does not start again after the crash; the tail of $NDD_PGLOG:" >&2
			tail -20 "$NDD_PGLOG" >&2
			return 1
		fi
	done
	# pg_ctl -w returns when the server accepts connections, which (not being a standby) is once
	# recovery has ended: say so if that is not what the server answers
	recovery=$(psql -X -At -d postgres -c "SELECT pg_is_in_recovery()" 2>&1)
	if [ "$recovery" != f ]; then
		echo "ndd_crash_restart: the server restarted, but pg_is_in_recovery() answers '$recovery'; the tail of $NDD_PGLOG:" >&2
		tail -20 "$NDD_PGLOG" >&2
		return 1
	fi
}

# For the index tests: runs the SELECT $3 twice, once with sequential scans off (the index $2 must
# answer: its plan must show it, else this would compare a scan with itself), once with index and
# bitmap scans off (a sequential scan, and a sort for ORDER BY), and compares the two answers as
# multisets (EXCEPT ALL both ways). Prints "ok   $1: N answers identical to a sequential scan", or a
# FAIL line naming the query, the count of each side's extra rows and a few of them, and returns 1.
# An empty answer fails too: a test must compare something.
ndd_index_equals_seqscan() {
	local label=$1 index=$2 query=$3 plan out counts rows only_index only_scan
	if ! plan=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "SET enable_seqscan = off" -c "EXPLAIN (COSTS OFF) $query" 2>&1); then
		printf 'FAIL %s: the query fails: %s\n  query: %s\n' "$label" "$plan" "$query"
		return 1
	fi
	if ! grep -qE "(Index Scan using|Bitmap Index Scan on) $index( |\$)" <<<"$plan"; then
		printf 'FAIL %s: the plan does not use %s, so the comparison would compare two scans\n  query: %s\n%s\n' \
			"$label" "$index" "$query" "$plan"
		return 1
	fi
	if ! out=$(psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 2>&1 <<SQL
SET enable_seqscan = off;
CREATE TEMP TABLE ndd_by_index AS $query;
SET enable_seqscan = on; SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TEMP TABLE ndd_by_scan AS $query;
CREATE TEMP TABLE ndd_only_index AS SELECT * FROM ndd_by_index EXCEPT ALL SELECT * FROM ndd_by_scan;
CREATE TEMP TABLE ndd_only_scan AS SELECT * FROM ndd_by_scan EXCEPT ALL SELECT * FROM ndd_by_index;
SELECT (SELECT count(*) FROM ndd_by_scan), (SELECT count(*) FROM ndd_only_index), (SELECT count(*) FROM ndd_only_scan);
SELECT 'only from the index: ' || x::text FROM (SELECT * FROM ndd_only_index LIMIT 5) x;
SELECT 'only from the scan:  ' || x::text FROM (SELECT * FROM ndd_only_scan LIMIT 5) x;
SQL
	); then
		printf 'FAIL %s: the query fails: %s\n  query: %s\n' "$label" "$out" "$query"
		return 1
	fi
	counts=$(head -1 <<<"$out")
	read -r rows only_index only_scan <<<"$counts"
	if [ "$only_index" = 0 ] && [ "$only_scan" = 0 ] && [ "$rows" -gt 0 ]; then
		echo "ok   $label: $rows answers identical to a sequential scan"
		return 0
	fi
	printf 'FAIL %s: %s answers only from %s, %s only from a sequential scan (of %s)\n  query: %s\n' \
		"$label" "$only_index" "$index" "$only_scan" "$rows" "$query"
	tail -n +2 <<<"$out" | sed 's/^/  /'
	return 1
}
