#!/usr/bin/env bash
# scripts/postgres_build.sh: builds a PostgreSQL release from its upstream source tarball into a cache
# directory, once, for the tests on a major Debian 12 does not package (PostgreSQL 18).
#
#   bash scripts/postgres_build.sh TARBALL    prints the bin directory of the build (building it if
#                                             it is not cached yet); exit 1 with the reason if it
#                                             cannot be built
#
# The cache is keyed by the tarball's name and the configure options, under NDD_CACHE_DIR (default
# /var/cache/ndd), so a second run, or CI on the same machine, reuses it. The build takes 10 to 20
# minutes on two cores: core, contrib (pg_prewarm, pg_walinspect for the benchmarks) and the TAP
# test modules (PostgreSQL::Test::Cluster).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NDD_CACHE_DIR=${NDD_CACHE_DIR:-/var/cache/ndd}
# flex and bison: the release tarball no longer ships the generated parsers (PostgreSQL 18).
NDD_PG_BUILD_PACKAGES="gcc make flex bison pkg-config libicu-dev zlib1g-dev libreadline-dev perl libipc-run-perl bzip2"
NDD_PG_CONFIGURE="--enable-tap-tests --with-icu --without-llvm"

tarball=${1:?usage: scripts/postgres_build.sh TARBALL}
[ -f "$tarball" ] || { echo "no such tarball: $tarball" >&2; exit 1; }
name=$(basename "$tarball"); name=${name%.tar.*}
key=$(printf '%s %s' "$name" "$NDD_PG_CONFIGURE" | sha256sum | cut -c1-8)
prefix=$NDD_CACHE_DIR/$name-$key
if [ -x "$prefix/bin/pg_config" ] && [ -f "$prefix/.complete" ]; then
	echo "$prefix/bin"
	exit 0
fi

NDD_PACKAGES=$NDD_PG_BUILD_PACKAGES ndd_install_deps >&2
mkdir -p "$NDD_CACHE_DIR"
# one builder at a time: a second caller waits for the first and then finds the cache
exec 9>"$NDD_CACHE_DIR/.$name.lock"
flock 9
if [ -f "$prefix/.complete" ]; then echo "$prefix/bin"; exit 0; fi
rm -rf "$prefix"
build=$(mktemp -d /tmp/ndd-pgbuild.XXXXXX)
trap 'rm -rf "$build"' EXIT
ndd_log "building $name into $prefix (10 to 20 minutes, once; cached for later runs)"
start=$(date +%s)
tar xf "$tarball" -C "$build"
cd "$build"/postgresql-*/
# shellcheck disable=SC2086
./configure -q --prefix="$prefix" $NDD_PG_CONFIGURE >"$build/configure.log" 2>&1 ||
	{ tail -30 "$build/configure.log" >&2; exit 1; }
make -s -j"$(nproc)" >"$build/make.log" 2>&1 || { tail -40 "$build/make.log" >&2; exit 1; }
make -s -j"$(nproc)" -C contrib >>"$build/make.log" 2>&1 || { tail -40 "$build/make.log" >&2; exit 1; }
make -s install >>"$build/make.log" 2>&1 && make -s -C contrib install >>"$build/make.log" 2>&1 ||
	{ tail -40 "$build/make.log" >&2; exit 1; }
# PostgreSQL::Test::Cluster and friends, as Debian's postgresql-server-dev ships them for 15
make -s -C src/test/perl install >>"$build/make.log" 2>&1 || { tail -40 "$build/make.log" >&2; exit 1; }
touch "$prefix/.complete"
ndd_log "built $name in $(($(date +%s) - start)) s"
echo "$prefix/bin"
