#!/usr/bin/env bash
# Script test: the package path of the documentation, as a newcomer runs it on a bare machine. In a
# fresh Debian 12 minbase root (`debootstrap --variant=minbase bookworm`, from the mirror this
# machine's apt uses), as root, with no LANG and nothing else in the environment (`env -i`), it runs
# the shell blocks of doc/install.md and README.md marked `<!-- readme-sh: bare-root -->`
# (scripts/readme_blocks.awk), literally and in order, as one script that stops at the first failing
# command: apt-get update and install, `git clone` of this checkout, dpkg-buildpackage (with the
# package's own build-time regression run, which must pass), apt-get install of the two .deb files, starting
# Debian's cluster 15/main, createdb and CREATE EXTENSION, `make installcheck` on that cluster and
# its cleanup; then the README's connect command with the README's first SQL block on its standard
# input (psql with ON_ERROR_STOP). Afterwards it checks what the commands promise: the package
# provides the extension, the first session's table and index are there, the build-time tests ran
# and passed, and nothing is left behind (no contrib_regression database, no copy of the checkout);
# ndd-load's package provides /usr/bin/ndd-load, which loads test/data/loader's fixtures into mydb.
#
# Two substitutions only, both in the commands' arguments: `<this repository>` is a git repository
# made of this checkout as it is (its tracked and untracked not-ignored files, committed), so the
# clone is what `git clone` gives; and the `amd64` of the .deb's name is this machine's architecture.
#
# The host is never touched: the root is a directory under /var/tmp, used in private mount, PID and
# IPC namespaces (unshare -mpif) and, where slirp4netns is available (Debian's, installed if
# missing), a network namespace of its own whose traffic slirp4netns carries out by user-mode NAT
# (no change to the host's network; the root's servers listen on its own loopback). Its /proc, a
# tmpfs /dev with bind mounts of the few device nodes it needs, and the apt cache exist only in
# that mount namespace and end with it; the PID namespace ends every process started in the root
# (the cluster's server) when the test's shell in it exits, or when the test is interrupted. The
# root is removed with `rm --one-file-system` (which never descends into a mount).
#
# Cached under /var/cache/ndd (shared by later runs; delete to refresh): the debootstrap root as a
# tarball (debootstrap takes about a minute) and the .deb files apt downloads into the root.
# Time, with both caches, on 2 cores at load 7-12 (shared with other test runs): 705 s for the
# commands, of which apt-get install 166 s, dpkg-buildpackage (build and its regression run) 303 s,
# make installcheck 209 s; 13m43s in all with unpacking and removing the root;
# the first run adds debootstrap (46-160 s) and the downloads (283 MB).
#
# Runs once per suite, in the pass of Debian 12's PostgreSQL 15 (the root has its own PostgreSQL).
# Exit 77 (skipped) when: not root; the pass is another major's; debootstrap cannot be installed; no
# Debian bookworm mirror in /etc/apt/sources.list*; no mount/PID/IPC namespaces (unshare -mpif).
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"

skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, chroot, private namespaces)"
major=$(ndd_pg_major)
[ "$major" = "$NDD_PG_VERSION" ] ||
	skip "the package path runs once, in the pass of Debian 12's PostgreSQL $NDD_PG_VERSION (the root brings its own)"
command -v debootstrap >/dev/null || NDD_PACKAGES="debootstrap" ndd_install_deps ||
	skip "debootstrap cannot be installed"
unshare -m -p -i -f --propagation private true 2>/dev/null ||
	skip "no private mount, PID and IPC namespaces (unshare -mpif) to keep the root's mounts and processes off the host"
# The root's own network: a network namespace whose traffic slirp4netns (user-mode NAT, nothing
# changed on the host) carries out, so that its servers (cluster 15/main, the build's throwaway
# cluster) take port 5432 on a loopback of their own. Without it the root shares this machine's
# network, which needs port 5432 free.
net=
if unshare -n true 2>/dev/null && [ -c /dev/net/tun ] && { command -v slirp4netns >/dev/null || NDD_PACKAGES=slirp4netns ndd_install_deps; }; then
	net=slirp4netns
elif ss -ltn | grep -q ':5432\b'; then
	skip "no slirp4netns for a network of the root's own, and port 5432, which its clusters take, is in use here"
fi

# The mirror this machine's apt uses for bookworm: the first URI of a deb822 stanza (.sources) or
# a one-line `deb` entry (.list) whose suites include bookworm itself.
apt_mirror() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		case $f in
		*.sources) awk 'BEGIN { RS = ""; FS = "\n" }
			{ types = uris = suites = ""
			  for (i = 1; i <= NF; i++) {
				if ($i ~ /^Types:/) types = $i
				if ($i ~ /^URIs:/) uris = $i
				if ($i ~ /^Suites:/) suites = $i
			  }
			  if (types ~ /[ \t]deb([ \t]|$)/ && suites ~ /[ \t]bookworm([ \t]|$)/) {
				split(uris, u, /[ \t]+/); print u[2]; exit
			  } }' "$f" ;;
		*) awk '$1 == "deb" { sub(/^deb[ \t]+(\[[^]]*\][ \t]+)?/, "")
			if ($2 == "bookworm") { print $1; exit } }' "$f" ;;
		esac
	done | head -1 | grep .
}
mirror=$(apt_mirror) || skip "no Debian bookworm mirror in /etc/apt/sources.list*"

arch=$(dpkg --print-architecture)
cache=/var/cache/ndd/debian12-minbase-$arch.tar
apt_cache=/var/cache/ndd/debian12-minbase-$arch-apt
mkdir -p /var/cache/ndd "$apt_cache/partial"
work=$(mktemp -d /var/tmp/ndd-bare-root.XXXXXX)
cleanup() {
	# interrupted: end the namespace (its first process: the kernel ends the rest) and slirp4netns
	[ -z "${ns:-}" ] || { pkill -KILL -P "$ns" 2>/dev/null || true; wait "$ns" 2>/dev/null || true; }
	[ -z "${slirp:-}" ] || kill "$slirp" 2>/dev/null || true
	# the mounts live in the namespace only; should one be visible here, leave the tree alone
	if findmnt -rn -o TARGET | grep -q "^$work"; then
		echo "FAIL: mounts under $work outlived the namespace; not removing it" >&2
		return
	fi
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT
t0=$(date +%s)

# ---- the root: debootstrap once, then from the tarball ----
exec 9>"$cache.lock"
flock 9
if [ ! -s "$cache" ]; then
	echo "debootstrap --variant=minbase bookworm ($mirror), cached as $cache"
	start=$(date +%s)
	if ! debootstrap --variant=minbase bookworm "$work/boot" "$mirror" >"$work/debootstrap.log" 2>&1; then
		tail -20 "$work/debootstrap.log"
		echo "FAIL: debootstrap from $mirror failed"
		exit 1
	fi
	tar --numeric-owner -C "$work/boot" -cf "$cache.tmp" . && mv "$cache.tmp" "$cache"
	rm -rf --one-file-system "$work/boot"
	echo "debootstrap took $(($(date +%s) - start)) s"
fi
flock -u 9
mkdir "$work/root"
tar --numeric-owner -C "$work/root" -xf "$cache"
# dpkg without fsync (as container images configure it): the root is thrown away, and unpacking
# ~300 packages with fsync was a third of the run on a busy machine
echo force-unsafe-io >"$work/root/etc/dpkg/dpkg.cfg.d/ndd-test-unsafe-io"
# name resolution for apt: slirp4netns's forwarder, or the machine's own
if [ -n "$net" ]; then echo "nameserver 10.0.2.3" >"$work/root/etc/resolv.conf"; else cp /etc/resolv.conf "$work/root/etc/resolv.conf"; fi

# ---- what runs in the root ----
stage=/ndd-bare-root
mkdir -p "$work/root$stage"
# <this repository>: this checkout as it is, committed into a repository of its own
src=$work/root$stage/ndd.git
mkdir "$src"
ndd_copy_checkout "$src"
git -C "$src" init -q
git -C "$src" add -A
git -C "$src" -c user.name=ndd -c user.email=ndd@localhost commit -q -m "the checkout under test"

version=$(dpkg-parsechangelog -l "$NDD_ROOT/debian/changelog" -S Version)
{
	echo "set -ex"
	echo "PS4='+ [\${SECONDS} s] '"   # each command traced with the time it starts at
	echo "cd /root"
	(cd "$NDD_ROOT" && awk -v mode=bare-root -f scripts/readme_blocks.awk doc/install.md) |
		sed -e "s|<this repository>|$stage/ndd.git|g" -e "s|_amd64\.deb|_$arch.deb|g"
} >"$work/root$stage/commands.sh"
# README: the connect command, fed the first session (the README's first SQL block)
connect=$(awk -v mode=bare-root -f "$NDD_ROOT/scripts/readme_blocks.awk" "$NDD_ROOT/README.md" | grep -v '^#')
[ "$(wc -l <<<"$connect")" -eq 1 ] || { echo "FAIL: README.md should mark one connect command, found: $connect"; exit 1; }
{
	echo '\set ON_ERROR_STOP on'
	awk -v mode=plain -f "$NDD_ROOT/scripts/readme_blocks.awk" "$NDD_ROOT/README.md" | awk '/^\\echo / { n++ } n == 1'
} >"$work/root$stage/first_session.sql"
grep -q 'CREATE INDEX' "$work/root$stage/first_session.sql" || { echo "FAIL: no first session in README.md"; exit 1; }
echo "$connect <$stage/first_session.sql" >>"$work/root$stage/commands.sh"
echo "the commands, as doc/install.md and README.md give them (run in a fresh Debian 12 minbase root):"
grep -v "^set -ex$\|^PS4=" "$work/root$stage/commands.sh" | sed 's/^/    /'
[ "$(grep -c 'dpkg-buildpackage' "$work/root$stage/commands.sh")" -eq 1 ] ||
	{ echo "FAIL: doc/install.md should mark the Debian package block"; exit 1; }

cat >"$work/root$stage/check.sh" <<CHECK
# After the commands, in the root: what they promise, and nothing left behind.
set -euo pipefail
fail() { echo "FAIL: \$*"; exit 1; }
owner=\$(dpkg -S /usr/lib/postgresql/$major/lib/ndd.so) || fail "ndd.so is not installed by a package"
[ "\${owner%%:*}" = "postgresql-$major-ndd" ] || fail "ndd.so belongs to \${owner%%:*}"
grep -Eq '(All [0-9]+ tests passed|# All [0-9]+ tests passed)' $stage/commands.log ||
	fail "the package build's regression tests did not run and pass"
echo "the build's own regression run: \$(grep -Eo 'All [0-9]+ tests passed' $stage/commands.log | head -1)"
q() { runuser -u postgres -- psql -X -At -d "\$1" -c "\$2"; }
[ -z "\$(q postgres "SELECT datname FROM pg_database WHERE datname = 'contrib_regression'")" ] ||
	fail "make installcheck left its database contrib_regression behind"
[ ! -e /tmp/ndd-check ] || fail "the copy of the checkout for installcheck, /tmp/ndd-check, is still there"
[ "\$(q mydb "SELECT extversion FROM pg_extension WHERE extname = 'ndd'")" = "${version%-*}" ] ||
	fail "mydb has no ndd ${version%-*}"
[ "\$(q mydb "SELECT count(*) FROM docs WHERE fp IS NOT NULL")" = 8 ] || fail "the first session's table is not there"
[ "\$(q mydb "SELECT string_agg(id::text, ',' ORDER BY id) FROM docs WHERE fp <~> (SELECT fp FROM docs WHERE id = 1) <= 3")" = "1,3" ] ||
	fail "the first session's radius query does not give documents 1 and 3"
q mydb "SELECT 'docs_fp_idx'::regclass" >/dev/null || fail "the first session's index is not there"
echo "postgresql-$major-ndd provides ndd.so; mydb has ndd ${version%-*} and the first session's table and index;"
echo "no contrib_regression database and no /tmp/ndd-check left"
# the loader's package: on PATH, and loading into mydb (as the postgres account, from a directory
# it may read: the clone is in root's home)
owner=\$(dpkg -S /usr/bin/ndd-load) || fail "/usr/bin/ndd-load is not installed by a package"
[ "\${owner%%:*}" = ndd-load ] || fail "/usr/bin/ndd-load belongs to \${owner%%:*}"
ndd-load --help | grep -q -- '--table' || fail "ndd-load --help"
mkdir /tmp/ndd-load-check && cp /root/ndd/test/data/loader/source.* /tmp/ndd-load-check/ && chmod -R a+rX /tmp/ndd-load-check
runuser -u postgres -- ndd-load -q -d mydb --table loaded /tmp/ndd-load-check || fail "ndd-load into mydb failed"
[ "\$(q mydb "SELECT count(*) FILTER (WHERE error IS NULL) FROM loaded")" = "\$(ls /tmp/ndd-load-check | wc -l)" ] ||
	fail "ndd-load did not load every fixture without error"
rm -rf /tmp/ndd-load-check
echo "the package ndd-load provides /usr/bin/ndd-load, which loaded the fixtures of test/data/loader into mydb"
CHECK

cat >"$work/namespace.sh" <<'NAMESPACE'
# PID 1 of private mount, PID and IPC namespaces: mounts what the root needs, runs the commands and
# the checks in it; when this shell exits, every process of the namespace ends and its mounts go.
set -euo pipefail
root=$1 stage=$2 apt_cache=$3 net=$4
if [ -n "$net" ]; then   # slirp4netns, started from outside, adds tap0
	for _ in $(seq 300); do ip link show tap0 >/dev/null 2>&1 && break; sleep 0.1; done
	ip link show tap0 >/dev/null 2>&1 || { echo "FAIL: slirp4netns gave the namespace no network"; exit 1; }
	ip link set lo up
fi
mount -t proc proc "$root/proc"
mount -t tmpfs -o mode=755 ndd-dev "$root/dev"
for d in null zero full random urandom tty; do
	touch "$root/dev/$d"
	mount --bind "/dev/$d" "$root/dev/$d"
done
mkdir "$root/dev/shm" "$root/dev/pts"
mount -t tmpfs -o mode=1777 ndd-shm "$root/dev/shm"
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"
mount --bind "$apt_cache" "$root/var/cache/apt/archives"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
status=0
start=$(date +%s)
in_root bash "$stage/commands.sh" </dev/null >"$root$stage/commands.log" 2>&1 || status=$?
echo "the commands took $(($(date +%s) - start)) s; each started at:"
grep -a '^+ \[[0-9]* s\] ' "$root$stage/commands.log" | cut -c1-150 | sed 's/^+ /    /'
if [ "$status" -ne 0 ]; then
	grep -v '^Get:\|^Selecting\|^Preparing\|^Unpacking\|^Setting up\|^gcc \|^g++ ' "$root$stage/commands.log" | tail -60 | cut -c1-400
	echo "FAIL: a command of the documentation failed (exit $status); its output above"
else
	in_root bash "$stage/check.sh" || status=$?
fi
in_root pg_ctlcluster 15 main stop 2>/dev/null || true
exit "$status"
NAMESPACE
echo "running them in the root (private mount, PID, IPC${net:+ and network} namespaces; env -i, no LANG)"
status=0
unshare -m -p -i ${net:+-n} -f --propagation private bash "$work/namespace.sh" "$work/root" "$stage" "$apt_cache" "$net" &
ns=$!
if [ -n "$net" ]; then
	# slirp4netns attaches to the namespace of unshare's child, the namespace's first process
	for _ in $(seq 100); do child=$(pgrep -P "$ns" || true); [ -n "$child" ] && break; sleep 0.1; done
	loopback=--disable-host-loopback   # unless the machine's resolver is on its loopback
	grep -qE '^nameserver[[:space:]]+(127\.|::1)' /etc/resolv.conf && loopback=
	slirp4netns --configure --mtu=65520 $loopback "$child" tap0 >"$work/slirp.log" 2>&1 &
	slirp=$!
fi
wait "$ns" || status=$?
ns=
[ -z "$net" ] || { kill "$slirp" 2>/dev/null || true; wait "$slirp" 2>/dev/null || true; }
slirp=
[ "$status" -eq 0 ] || exit "$status"
echo "the package path of doc/install.md and README.md runs as written on a bare Debian 12 root ($(($(date +%s) - t0)) s in all)"
