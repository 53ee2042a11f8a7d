# scripts/lib.sh: shared by scripts/test.sh, scripts/demo.sh and bench/*: installing what ndd needs
# on Debian 12, finding or building each PostgreSQL major, and running a throwaway cluster of one.
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
