#!/usr/bin/env bash
# scripts/citus.sh: a local Citus cluster for ndd's distributed tests and benchmarks.
#
#   bash scripts/citus.sh install   install Citus into the PostgreSQL of NDD_PGBIN if it is missing,
#                                   building it from NDD_CITUS_TARBALL (default: the upstream tarball
#                                   of the major's Citus line in ../shared/vendor/ beside the
#                                   repository, when there is one: 13.2.2 for 15, 14.0.1 for 16-18)
#   source scripts/citus.sh         defines ndd_citus_* functions (used by test/scripts/citus_*.sh
#                                   and bench/citus_*.sh): install, start, stop
#
# Citus is not packaged in Debian 12; users install it from Citus' own packages. Nothing of Citus is
# kept in this repository: the tests build it from the upstream source tarball when it is not installed.
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The Citus line of the server's major: Citus 13 is the last for PostgreSQL 15; Citus 14 supports
# 16 to 18.
if [ "$(ndd_pg_major)" -le 15 ]; then
	NDD_CITUS_TARBALL=${NDD_CITUS_TARBALL:-$NDD_ROOT/../shared/vendor/citus-13.2.2.tar.gz}
else
	NDD_CITUS_TARBALL=${NDD_CITUS_TARBALL:-$NDD_ROOT/../shared/vendor/citus-14.0.1.tar.gz}
fi
NDD_CITUS_PACKAGES="liblz4-dev libzstd-dev libkrb5-dev libcurl4-openssl-dev libssl-dev libselinux1-dev
  libxslt1-dev libpam0g-dev libreadline-dev autoconf flex bison"

ndd_citus_installed() {
	[ -f "$("$NDD_PGBIN/pg_config" --sharedir)/extension/citus.control" ]
}

# Installs Citus if it is missing and can be built. Returns 1, with the reason on stderr, if Citus
# is neither installed nor buildable here (callers skip the distributed tests then).
ndd_citus_install() {
	ndd_citus_installed && return 0
	if [ ! -f "$NDD_CITUS_TARBALL" ]; then
		echo "Citus is not installed and no source tarball was found (NDD_CITUS_TARBALL=$NDD_CITUS_TARBALL)" >&2
		return 1
	fi
	ndd_log "building Citus from $NDD_CITUS_TARBALL (a few minutes)"
	local p missing=()
	for p in $NDD_CITUS_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			"${missing[@]}" >/dev/null || { echo "could not install ${missing[*]}" >&2; return 1; }
	fi
	local build
	build=$(mktemp -d /tmp/ndd-citus-build.XXXXXX)
	(
		set -e
		cd "$build"
		tar xzf "$NDD_CITUS_TARBALL"
		cd citus-*/
		# PostgreSQL 15.20 declares have_createdb_privilege() itself; Citus 13.2.2's compatibility
		# header defines a static copy for PostgreSQL 15 that then no longer compiles. Drop the copy
		# only where the server headers have the declaration (Citus 14 has no copy).
		if grep -q 'have_createdb_privilege' "$("$NDD_PGBIN/pg_config" --includedir-server)/commands/dbcommands.h" &&
			grep -q 'have_createdb_privilege' src/include/pg_version_compat.h; then
			python3 - src/include/pg_version_compat.h <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
text, n = re.subn(r"static inline bool\s*\nhave_createdb_privilege\(void\)\n\{.*?\n\}\n", "", text, count=1, flags=re.S)
if n != 1:
    sys.exit("pg_version_compat.h: have_createdb_privilege definition not found")
open(path, "w").write(text)
PY
		fi
		./configure -q --without-libcurl PG_CONFIG="$NDD_PGBIN/pg_config" >/dev/null
		# no LLVM bitcode: it doubles the build and is only for JIT inlining
		make -s -j"$(nproc)" with_llvm=no >/dev/null 2>build.err || { tail -20 build.err >&2; exit 1; }
		make -s install with_llvm=no >/dev/null
	)
	local status=$?
	rm -rf "$build"
	[ $status -eq 0 ] && ndd_citus_installed
}

# Starts a coordinator and two workers, each a throwaway cluster in one new directory under /tmp,
# listening on 127.0.0.1 only, with Citus preloaded and the ndd extension created everywhere.
# Exports NDD_CITUS_DIR, NDD_CITUS_COORD (the coordinator's port) and NDD_CITUS_WORKERS (the
# workers' ports, space-separated). psql -h 127.0.0.1 -p "$NDD_CITUS_COORD" reaches the coordinator.
# Extra server settings for every node: "$@" as -c options.
ndd_citus_start() {
	NDD_CITUS_DIR=$(mktemp -d /tmp/ndd-citus.XXXXXX)
	chmod 755 "$NDD_CITUS_DIR"
	[ "$(id -u)" -eq 0 ] && chown postgres: "$NDD_CITUS_DIR"
	local node port=$((40000 + $$ % 10000)) ports=() extra="" o
	for o in "$@"; do extra+=" -c $o"; done
	for node in coordinator worker1 worker2; do
		while ss -ltn 2>/dev/null | grep -q ":$port\b"; do port=$((port + 1)); done
		(cd / && ndd_as_owner "$NDD_PGBIN/initdb" -D "$NDD_CITUS_DIR/$node" -A trust -U postgres -E UTF8 --no-locale >/dev/null) || return 1
		(
			for fd in /proc/$BASHPID/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
			cd / && ndd_as_owner "$NDD_PGBIN/pg_ctl" -D "$NDD_CITUS_DIR/$node" -l "$NDD_CITUS_DIR/$node.log" -w -t 120 \
				-o "-p $port -k $NDD_CITUS_DIR -c listen_addresses=127.0.0.1 -c shared_preload_libraries=citus -c shared_buffers=256MB -c max_connections=200 -c max_worker_processes=32$extra" start >/dev/null
		) || { tail -20 "$NDD_CITUS_DIR/$node.log" >&2; return 1; }
		ports+=("$port")
		port=$((port + 1))
	done
	export NDD_CITUS_DIR NDD_CITUS_COORD=${ports[0]} NDD_CITUS_WORKERS="${ports[*]:1}"
	local p
	for p in "${ports[@]}"; do
		psql -X -q -h 127.0.0.1 -p "$p" -U postgres -d postgres -v ON_ERROR_STOP=1 \
			-c "CREATE EXTENSION citus" -c "CREATE EXTENSION ndd" >/dev/null || return 1
	done
	psql -X -q -h 127.0.0.1 -p "$NDD_CITUS_COORD" -U postgres -d postgres -v ON_ERROR_STOP=1 \
		-c "SELECT citus_set_coordinator_host('127.0.0.1', $NDD_CITUS_COORD)" >/dev/null || return 1
	for p in $NDD_CITUS_WORKERS; do
		psql -X -q -h 127.0.0.1 -p "$NDD_CITUS_COORD" -U postgres -d postgres -v ON_ERROR_STOP=1 \
			-c "SELECT citus_add_node('127.0.0.1', $p)" >/dev/null || return 1
	done
	ndd_log "Citus: coordinator on port $NDD_CITUS_COORD, workers on $NDD_CITUS_WORKERS ($NDD_CITUS_DIR)"
}

# Stops the nodes of ndd_citus_start and removes their directory (kept when NDD_KEEP_CLUSTER=1).
ndd_citus_stop() {
	[ -n "${NDD_CITUS_DIR:-}" ] || return 0
	local node
	for node in coordinator worker1 worker2; do
		ndd_as_owner "$NDD_PGBIN/pg_ctl" -D "$NDD_CITUS_DIR/$node" -m fast -w stop >/dev/null 2>&1 || true
	done
	if [ "${NDD_KEEP_CLUSTER:-0}" = 1 ]; then ndd_log "kept $NDD_CITUS_DIR"; else rm -rf "$NDD_CITUS_DIR"; fi
	NDD_CITUS_DIR=
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	case "${1:-}" in
	install) ndd_install_deps && ndd_citus_install ;;
	*) echo "usage: bash scripts/citus.sh install   (or source it for ndd_citus_start / ndd_citus_stop)" >&2; exit 2 ;;
	esac
fi
