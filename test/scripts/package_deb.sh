#!/usr/bin/env bash
# Script test: the Debian package, as a Debian user gets it. From a copy of the source tree (the
# tracked and untracked files git does not ignore: this checkout as it is), Debian's own tooling
# builds postgresql-<major>-ndd (`dpkg-buildpackage -us -uc -b`: debian/ with pg_buildext and
# `dh --with pgxs_loop`); lintian must report no tag that debian/lintian-overrides does not justify;
# then `apt-get install ./postgresql-<major>-ndd_<version>_<arch>.deb` into a system without a source
# build, where a fresh cluster of Debian's PostgreSQL runs test/scripts/installed_extension.sql
# (CREATE EXTENSION ndd, radius and KNN queries through the ndd index, equal to a sequential scan)
# and `apt-get remove` takes the files away again.
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

NDD_PACKAGES="dpkg-dev debhelper postgresql-server-dev-all postgresql-server-dev-$major libxxhash-dev liburiparser-dev libidn2-dev lintian" ndd_install_deps ||
	skip "the Debian build tools (dpkg-dev, debhelper, postgresql-server-dev-all, lintian) cannot be installed"
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
[ -f "$work/$deb" ] || { ls "$work"; echo "FAIL: the build made no $deb"; exit 1; }
echo "built $deb: Depends: $(dpkg-deb -f "$work/$deb" Depends)"
# the dependencies come from the tooling (postgresql:Depends, shlibs:Depends), never by hand
dpkg-deb -f "$work/$deb" Depends | grep -q "postgresql-$major\b" ||
	{ echo "FAIL: $deb does not depend on postgresql-$major"; exit 1; }
dpkg-deb -f "$work/$deb" Depends | grep -q "libc6" ||
	{ echo "FAIL: $deb has no shared-library dependencies (dh_shlibdeps)"; exit 1; }

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
# Runs chrooted in the throwaway root: $1 the .deb, $2 the major, $3 the version ndd must report.
set -euo pipefail
deb=$1 major=$2 upstream=$3 stage=$(dirname "$0")
lib=/usr/lib/postgresql/$major/lib ext=/usr/share/postgresql/$major/extension
fail() { echo "FAIL: $*"; exit 1; }
# what scripts/test.sh's make install put here goes first: the package alone must provide ndd
rm -f "$lib/ndd.so" "$ext/ndd.control" "$ext"/ndd--*.sql
rm -rf "$lib/bitcode/ndd" "$lib/bitcode/ndd.index.bc"
! dpkg-query -W "postgresql-$major-ndd" >/dev/null 2>&1 || fail "postgresql-$major-ndd is installed already"
echo "apt-get install ./$deb"
(cd "$stage" && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
	--no-install-recommends "./$deb") || fail "apt-get install ./$deb failed"
for f in "$lib/ndd.so" "$ext/ndd.control" "$ext/ndd--$upstream.sql"; do
	owner=$(dpkg -S "$f" 2>/dev/null) || fail "$f is not installed by a package"
	[ "${owner%%:*}" = "postgresql-$major-ndd" ] || fail "$f belongs to ${owner%%:*}"
done
echo "the package installed ndd.so, ndd.control and ndd--$upstream.sql"

NDD_PGBIN=/usr/lib/postgresql/$major/bin
source "$stage/scripts/lib.sh"
ndd_start_cluster
trap ndd_stop_cluster EXIT
ndd_check_installed_extension "$upstream"
ndd_stop_cluster
trap - EXIT

echo "apt-get remove postgresql-$major-ndd"
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 remove -y -q "postgresql-$major-ndd" >/dev/null
for f in "$lib/ndd.so" "$ext/ndd.control" "$ext/ndd--$upstream.sql"; do
	[ ! -e "$f" ] || fail "$f is still there after apt-get remove"
done
echo "apt-get remove took the extension's files away"
IN_ROOT
cat >"$work/namespace.sh" <<'NAMESPACE'
# Runs in the private mount namespace: mounts the throwaway root, runs in_root.sh chrooted in it.
# Everything mounted here ends with the namespace, when this script and its children are gone.
set -euo pipefail
work=$1 stage=$2 deb=$3 major=$4 upstream=$5 root=$1/root
mount -t tmpfs ndd-package-test "$work/rw"
mkdir "$work/rw/upper" "$work/rw/work"
mount -t overlay ndd-package-test -o "lowerdir=/,upperdir=$work/rw/upper,workdir=$work/rw/work" "$root"
mount --rbind /dev "$root/dev"
mount -t proc proc "$root/proc"
# the files in_root.sh uses, laid out as in the checkout (lib.sh finds NDD_ROOT from its place)
mkdir -p "$root$stage/scripts" "$root$stage/test/scripts"
cp "$work/$deb" "$work/in_root.sh" "$root$stage/"
cp "$NDD_ROOT/scripts/lib.sh" "$root$stage/scripts/"
cp "$NDD_ROOT/test/scripts/installed_extension.sql" "$root$stage/test/scripts/"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
	bash "$stage/in_root.sh" "$deb" "$major" "$upstream"
NAMESPACE
echo "installing into a throwaway root (overlay of / in a private mount namespace)"
NDD_ROOT=$NDD_ROOT unshare -m --propagation private bash "$work/namespace.sh" "$work" "$stage" "$deb" "$major" "${version%-*}"
echo "the Debian package $deb: built, lintian clean, installed, CREATE EXTENSION and index queries, removed"
