#!/usr/bin/env bash
# Script test: the Debian packages, as a Debian user gets them. From a copy of the source tree (the
# tracked and untracked files git does not ignore: this checkout as it is), Debian's own tooling
# builds postgresql-<major>-ndd and ndd-load (`dpkg-buildpackage -us -uc -b`: debian/ with
# pg_buildext and `dh --with pgxs_loop`); lintian must report no tag that debian/lintian-overrides
# and debian/ndd-load.lintian-overrides do not justify; then `apt-get install` of both .deb files
# into a system without a source build, where a fresh cluster of Debian's PostgreSQL runs
# test/scripts/installed_extension.sql (CREATE EXTENSION ndd, radius and KNN queries through the ndd
# index, equal to a sequential scan), the installed ndd-load (its --help, its man page) loads the
# same document in every format (test/data/loader) into a table there and doc/loader.md's next step
# finds them as one group, and `apt-get remove` takes the files away again.
#
# Where it installs: a throwaway root, so that nothing on this machine changes. scripts/test.sh has
# already put ndd into the system PostgreSQL with `make install`; installing the package over those
# files and removing it afterwards would delete them (dpkg removes what the package shipped), and
# dpkg's database would keep the package. Instead, in a private mount namespace (unshare -m), an
# overlay of / with its writes in a tmpfs is the root of a chroot: there the make-installed files are
# deleted first (so the package alone provides the extension, checked with dpkg -S), the package is
# installed, tested and removed, and when the namespace ends the tmpfs and all of it are gone. The
# real /usr/lib/postgresql, /usr/share/postgresql and /var/lib/dpkg are never written.
#
# The build skips the package's own build-time regression run (DEB_BUILD_OPTIONS=nocheck, profile
# nocheck: dh_pgxs_test would run the pg_regress suite that scripts/test.sh has just run, 1.5 more
# minutes, and need postgresql-all).
# Exit 77 (skipped) when: not root; the PostgreSQL under test (NDD_PGBIN) is not a Debian package of
# this system (e.g. a major built from source); the build tools (dpkg-dev, debhelper,
# postgresql-server-dev-all, lintian) cannot be installed; no mount namespace or overlayfs.
# Needs nothing from the suite's cluster.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"

skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (apt-get, a mount namespace and chroot for the throwaway root)"
major=$("$NDD_PGBIN/pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
dpkg-query -W -f='${Status}' "postgresql-$major" 2>/dev/null | grep -q "install ok installed" ||
	skip "PostgreSQL $major ($NDD_PGBIN) is not Debian's package postgresql-$major: there is no postgresql-$major-ndd to build for it"
grep -qx "$major" <(/usr/share/postgresql-common/supported-versions) ||
	skip "PostgreSQL $major is not a supported version of this system's postgresql-common (pg_buildext builds for those)"

# the build tools and debian/control's Build-Depends but postgresql-all (the nocheck profile)
build_deps=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/p' "$NDD_ROOT/debian/control" | grep -oE '^ [a-z0-9][a-z0-9+.-]*' |
	grep -v -e '^ debhelper-compat$' -e '^ postgresql-all$')
NDD_PACKAGES="dpkg-dev debhelper postgresql-server-dev-$major lintian $build_deps" ndd_install_deps ||
	skip "the Debian build tools (dpkg-dev, debhelper, lintian) and debian/control's Build-Depends cannot be installed"
# the throwaway root needs both; probe them before the build
unshare -m true 2>/dev/null || skip "no mount namespace (unshare -m) for the throwaway root"
grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null || skip "no overlayfs for the throwaway root"

work=$(mktemp -d /tmp/ndd-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
version=$(dpkg-parsechangelog -l "$NDD_ROOT/debian/changelog" -S Version)
src=$work/ndd-${version%-*}
mkdir "$src"
ndd_copy_checkout "$src"

files() { (cd "$src" && find . \( -type f -o -type l \) -printf '%P\n' | sort); }
files >"$work/files.before"
echo "building the package (dpkg-buildpackage -us -uc -b) in $src"
if ! (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b -Pnocheck) \
	>"$work/build.log" 2>&1; then
	tail -40 "$work/build.log"
	echo "FAIL: dpkg-buildpackage failed"
	exit 1
fi
# what the build leaves in the tree must be ignored by git (.gitignore), for a build in a checkout
comm -13 "$work/files.before" <(files) >"$work/files.new"
seen=$(comm -23 "$work/files.new" <(git -C "$NDD_ROOT" check-ignore --no-index --stdin <"$work/files.new" | sort) | head)
[ -z "$seen" ] || { echo "FAIL: the build leaves files that git sees (add them to .gitignore):"; echo "$seen"; exit 1; }
echo "the build left $(wc -l <"$work/files.new") files in the tree, all ignored by git"
arch=$(dpkg --print-architecture)
deb=postgresql-$major-ndd_${version}_$arch.deb
loader_deb=ndd-load_${version}_$arch.deb
for d in "$deb" "$loader_deb"; do
	[ -f "$work/$d" ] || { ls "$work"; echo "FAIL: the build made no $d"; exit 1; }
	echo "built $d: Depends: $(dpkg-deb -f "$work/$d" Depends)"
	# the dependencies come from the tooling (postgresql:Depends, shlibs:Depends), never by hand
	dpkg-deb -f "$work/$d" Depends | grep -q "libc6" ||
		{ echo "FAIL: $d has no shared-library dependencies (dh_shlibdeps)"; exit 1; }
done
dpkg-deb -f "$work/$deb" Depends | grep -q "postgresql-$major\b" ||
	{ echo "FAIL: $deb does not depend on postgresql-$major"; exit 1; }
# ndd-load is a client: the libraries of its formats, libpq, and no server major
dpkg-deb -f "$work/$loader_deb" Depends | grep -q "libpq5" && dpkg-deb -f "$work/$loader_deb" Depends | grep -q "libpoppler-cpp" ||
	{ echo "FAIL: $loader_deb does not depend on libpq5 and poppler"; exit 1; }
! dpkg-deb -f "$work/$loader_deb" Depends | grep -q "postgresql-[0-9]" ||
	{ echo "FAIL: $loader_deb depends on a server major"; exit 1; }
[ "$(dpkg-deb -c "$work/$loader_deb" | awk '$1 !~ /^d/ { print $6 }' | grep -c -e '^./usr/bin/ndd-load$' -e '^./usr/share/man/man1/ndd-load.1.gz$')" = 2 ] ||
	{ dpkg-deb -c "$work/$loader_deb"; echo "FAIL: $loader_deb lacks /usr/bin/ndd-load or its man page"; exit 1; }
! dpkg-deb -c "$work/$deb" | grep -q 'ndd-load' || { echo "FAIL: $deb contains ndd-load"; exit 1; }

echo "lintian (every tag, pedantic included; overridden ones are justified in debian/lintian-overrides)"
changes=$(ls "$work"/*.changes)
if ! lintian --pedantic -I -E --fail-on error,warning,info,pedantic,experimental "$changes" \
	>"$work/lintian.log" 2>&1 || grep -qE '^[EWIPX]: ' "$work/lintian.log"; then
	cat "$work/lintian.log"
	echo "FAIL: lintian reports tags (fix them, or override with a comment saying why)"
	exit 1
fi
echo "lintian: no tag"

# ---- the throwaway root: an overlay of / in a private mount namespace ----
stage=/ndd-package-test    # in the root: the package, in_root.sh and what it uses
mkdir "$work/root" "$work/rw"
cat >"$work/in_root.sh" <<'IN_ROOT'
# Runs chrooted in the throwaway root: $1 the extension's .deb, $2 the major, $3 the version ndd must
# report, $4 ndd-load's .deb.
set -euo pipefail
deb=$1 major=$2 upstream=$3 loader_deb=$4 stage=$(dirname "$0")
lib=/usr/lib/postgresql/$major/lib ext=/usr/share/postgresql/$major/extension
fail() { echo "FAIL: $*"; exit 1; }
# what scripts/test.sh's make install put here goes first: the packages alone must provide ndd and
# ndd-load (which make install puts beside psql)
rm -f "$lib/ndd.so" "$ext/ndd.control" "$ext"/ndd--*.sql "/usr/lib/postgresql/$major/bin/ndd-load"
rm -rf "$lib/bitcode/ndd" "$lib/bitcode/ndd.index.bc"
! dpkg-query -W "postgresql-$major-ndd" >/dev/null 2>&1 || fail "postgresql-$major-ndd is installed already"
! dpkg-query -W ndd-load >/dev/null 2>&1 || fail "ndd-load is installed already"
! command -v ndd-load >/dev/null || fail "an ndd-load is on PATH before the package: $(command -v ndd-load)"
echo "apt-get install ./$deb ./$loader_deb"
(cd "$stage" && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
	--no-install-recommends "./$deb" "./$loader_deb") || fail "apt-get install ./$deb ./$loader_deb failed"
for f in "$lib/ndd.so" "$ext/ndd.control" "$ext/ndd--$upstream.sql"; do
	owner=$(dpkg -S "$f" 2>/dev/null) || fail "$f is not installed by a package"
	[ "${owner%%:*}" = "postgresql-$major-ndd" ] || fail "$f belongs to ${owner%%:*}"
done
echo "the package installed ndd.so, ndd.control and ndd--$upstream.sql"
owner=$(dpkg -S /usr/bin/ndd-load 2>/dev/null) || fail "/usr/bin/ndd-load is not installed by a package"
[ "${owner%%:*}" = ndd-load ] || fail "/usr/bin/ndd-load belongs to ${owner%%:*}"
[ "$(command -v ndd-load)" = /usr/bin/ndd-load ] || fail "ndd-load on PATH is $(command -v ndd-load), not /usr/bin/ndd-load"
help=$(ndd-load --help) || fail "ndd-load --help failed"
grep -q -- '--table' <<<"$help" || fail "ndd-load --help does not describe --table: $help"
zcat /usr/share/man/man1/ndd-load.1.gz | grep -q '^\.TH NDD-LOAD 1' || fail "no man page ndd-load(1)"
echo "the package ndd-load installed /usr/bin/ndd-load (--help runs) and its man page"

NDD_PGBIN=/usr/lib/postgresql/$major/bin
source "$stage/scripts/lib.sh"
ndd_start_cluster
trap ndd_stop_cluster EXIT
ndd_check_installed_extension "$upstream"
# the installed ndd-load: the same document in every format into a table, then doc/loader.md's
# next step (fingerprints, the ndd index, ndd_jaccard_pairs, ndd_clusters) finds them as one group
mkdir /tmp/ndd-load-input
cp "$stage"/test/data/loader/source.* /tmp/ndd-load-input/
rm /tmp/ndd-load-input/source.md   # markdown is plain text: the same format twice
# a database of its own: installed_extension.sql made a docs table in postgres
psql -X -q -d postgres -c "CREATE DATABASE loader" || fail "cannot create the database loader"
ndd-load --table docs -d loader /tmp/ndd-load-input || fail "ndd-load into the cluster failed (exit $?)"
rows=$(psql -X -At -d loader -c "SELECT count(*) FILTER (WHERE error IS NULL) || '/' || count(*) FROM docs")
[ "$rows" = "8/8" ] || fail "ndd-load loaded $rows rows without error, not 8/8"
awk -v mode=plain -f "$stage/scripts/readme_blocks.awk" "$stage/doc/loader.md" >/tmp/ndd-load-next.sql
groups=$(PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 -d loader -f /tmp/ndd-load-next.sql | sed -n 2p | cut -d'|' -f2) ||
	fail "doc/loader.md's next step failed"
[ "$groups" = "docx, epub, html, odp, odt, pdf, pptx, text" ] || fail "doc/loader.md's next step: one group expected, got '$groups'"
echo "ndd-load loaded the document in 8 formats; doc/loader.md's next step found one group ($groups)"
ndd_stop_cluster
trap - EXIT

echo "apt-get remove postgresql-$major-ndd ndd-load"
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 remove -y -q "postgresql-$major-ndd" ndd-load >/dev/null
for f in "$lib/ndd.so" "$ext/ndd.control" "$ext/ndd--$upstream.sql" /usr/bin/ndd-load /usr/share/man/man1/ndd-load.1.gz; do
	[ ! -e "$f" ] || fail "$f is still there after apt-get remove"
done
echo "apt-get remove took the extension's and ndd-load's files away"
IN_ROOT
cat >"$work/namespace.sh" <<'NAMESPACE'
# Runs in the private mount namespace: mounts the throwaway root, runs in_root.sh chrooted in it.
# Everything mounted here ends with the namespace, when this script and its children are gone.
set -euo pipefail
work=$1 stage=$2 deb=$3 major=$4 upstream=$5 loader_deb=$6 root=$1/root
mount -t tmpfs ndd-package-test "$work/rw"
mkdir "$work/rw/upper" "$work/rw/work"
mount -t overlay ndd-package-test -o "lowerdir=/,upperdir=$work/rw/upper,workdir=$work/rw/work" "$root"
mount --rbind /dev "$root/dev"
mount -t proc proc "$root/proc"
# the files in_root.sh uses, laid out as in the checkout (lib.sh finds NDD_ROOT from its place)
mkdir -p "$root$stage/scripts" "$root$stage/test/scripts" "$root$stage/test/data" "$root$stage/doc"
cp "$work/$deb" "$work/$loader_deb" "$work/in_root.sh" "$root$stage/"
cp "$NDD_ROOT/scripts/lib.sh" "$NDD_ROOT/scripts/readme_blocks.awk" "$root$stage/scripts/"
cp "$NDD_ROOT/test/scripts/installed_extension.sql" "$root$stage/test/scripts/"
cp -r "$NDD_ROOT/test/data/loader" "$root$stage/test/data/"
cp "$NDD_ROOT/doc/loader.md" "$root$stage/doc/"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
	bash "$stage/in_root.sh" "$deb" "$major" "$upstream" "$loader_deb"
NAMESPACE
echo "installing into a throwaway root (overlay of / in a private mount namespace)"
NDD_ROOT=$NDD_ROOT unshare -m --propagation private bash "$work/namespace.sh" "$work" "$stage" "$deb" "$major" "${version%-*}" "$loader_deb"
echo "the Debian packages $deb and $loader_deb: built, lintian clean, installed, CREATE EXTENSION and index queries, ndd-load loads and the next step groups, removed"
