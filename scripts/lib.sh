# scripts/lib.sh: shared by scripts/test.sh, scripts/demo.sh and bench/*: installing what ndd needs
# on Debian 12 and running a throwaway PostgreSQL 15 cluster. Source it; it defines functions only.

NDD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NDD_PG_VERSION=15
# A private copy of the server tree (relocated, with ndd installed by make install DESTDIR=...) can
# stand in for the system one: set NDD_PGBIN to its bin directory.
NDD_PGBIN=${NDD_PGBIN:-/usr/lib/postgresql/$NDD_PG_VERSION/bin}

# The Debian packages a build, the tests and the demo need (perl and libipc-run-perl: the TAP tests,
# through PostgreSQL::Test::Cluster of postgresql-server-dev; python3-psycopg: the fuzz suite;
# liburiparser-dev, libidn2-dev: URL parsing and IDNA host names, src/core/url.cpp).
NDD_PACKAGES="postgresql-$NDD_PG_VERSION postgresql-server-dev-$NDD_PG_VERSION postgresql-client-$NDD_PG_VERSION
  libxxhash-dev libicu-dev libgtest-dev g++ make python3 gzip util-linux procps iproute2 perl libipc-run-perl
  python3-psycopg
  libxml2-dev
  liburiparser-dev libidn2-dev"

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

# Builds the extension and installs it into the system PostgreSQL.
ndd_build_install() {
	ndd_log "building and installing the extension"
	make -C "$NDD_ROOT" -s -j"$(nproc)" PG_CONFIG=$NDD_PGBIN/pg_config
	make -C "$NDD_ROOT" -s install PG_CONFIG=$NDD_PGBIN/pg_config >/dev/null
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
	ndd_as_owner "$NDD_PGBIN/initdb" -D "$NDD_PGDATA" -A trust -U postgres -E UTF8 --no-locale >/dev/null
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

# (Re)starts the cluster of ndd_start_cluster if it is not running, e.g. after a crash test.
ndd_restart_cluster() {
	ndd_as_owner "$NDD_PGBIN/pg_ctl" -D "$NDD_PGDATA" status >/dev/null 2>&1 && return 0
	# The server must not inherit our open files: a caller's lock (flock) would live as long as it.
	(
		for fd in /proc/$BASHPID/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		ndd_as_owner "$NDD_PGBIN/pg_ctl" -D "$NDD_PGDATA" -o "$NDD_PGOPTS" -l "$NDD_PGLOG" -w -t 300 start >/dev/null
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
