#!/usr/bin/env bash
# Script test: the PGXN distribution, as a PGXN user gets it. `make dist` makes ndd-<version>.zip
# from the committed tree at HEAD; to test this checkout as it is, it runs in a clone where the
# working tree (tracked and untracked files git does not ignore) is committed first. The zip has
# everything under ndd-<version>/ and META.json at its top (package_metadata.sh validates META.json
# itself); Debian's PGXN client installs it, `pgxn install ./ndd-<version>.zip
# --pg_config …`, which builds and installs it with that server's PGXS, and ndd-load (loader/) with
# it (NDD_LOADER=required: a missing library of the loader fails the install, where a user's
# install would say so and go on); a fresh cluster of that server then runs
# test/scripts/installed_extension.sql (CREATE EXTENSION ndd, radius and KNN queries through the ndd
# index, equal to a sequential scan), the installed ndd-load (--help, its man page) loads fixtures of
# test/data/loader into a table there (loaded: installed_extension.sql has a docs); `pgxn
# uninstall` takes the files away again.
#
# Where it installs: a copy of the server tree under test (NDD_PGBIN's bin, module, share and include
# directories, placed as in the original: PostgreSQL's programs find their directories relative to
# their own location), with the make-installed ndd files deleted from it first, so that pgxn alone
# provides them. The tree scripts/test.sh installed into and tests with is never written.
# Exit 77 (skipped) when pgxnclient cannot be installed, or the server tree cannot be copied (its
# pg_config does not follow it to the copy). Needs nothing from the suite's cluster.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"

skip() { echo "skipped: $*"; exit 77; }
NDD_PACKAGES="pgxnclient git" ndd_install_deps || skip "pgxnclient (Debian's PGXN client) cannot be installed"

work=$(mktemp -d /tmp/ndd-pgxn.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"    # the cluster's owner runs the copied server programs

# ---- make dist ----
git clone -q "$NDD_ROOT" "$work/clone"
ndd_copy_checkout "$work/clone"
git -C "$work/clone" add -A
git -C "$work/clone" -c user.name=ndd-test -c user.email=ndd-test@localhost commit -q --allow-empty -m "the working tree"
make -s -C "$work/clone" dist PG_CONFIG="$NDD_PGBIN/pg_config"
version=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$work/clone/META.json")
zip=ndd-$version.zip
mv "$work/clone/$zip" "$work/"
# every file under ndd-<version>/, META.json among them (Python's zipfile: what pgxnclient unpacks with)
/usr/bin/python3 - "$work/$zip" "ndd-$version/" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
outside = [n for n in names if not n.startswith(sys.argv[2])]
assert not outside, "files outside %s: %s" % (sys.argv[2], outside[:5])
for f in ("META.json", "Makefile", "ndd.control", "LICENSE", "loader/Makefile", "loader/ndd_load.cpp", "doc/ndd-load.1"):
    assert sys.argv[2] + f in names, "no %s in the distribution" % f
print("%s: %d files under %s" % (sys.argv[1].rsplit("/", 1)[-1], len(names), sys.argv[2]))
PY

# ---- a copy of the server tree, without ndd ----
pgc=$NDD_PGBIN/pg_config
dirs="$("$pgc" --bindir) $("$pgc" --pkglibdir) $("$pgc" --sharedir) $("$pgc" --includedir)"
# the directory all of them are under (/usr for Debian's, the prefix of a source build)
prefix=$(/usr/bin/python3 -c 'import os, sys; print(os.path.commonpath(sys.argv[1:]))' $dirs)
tree=$work/tree
for d in $dirs; do
	mkdir -p "$tree$(dirname "${d#"$prefix"}")"
	cp -a "$d" "$tree$(dirname "${d#"$prefix"}")/"
done
bin=$tree${NDD_PGBIN#"$prefix"}
sharedir=$("$pgc" --sharedir)
[ "$("$bin/pg_config" --sharedir)" = "$tree${sharedir#"$prefix"}" ] ||
	skip "the copied server tree's pg_config does not point into the copy ($("$bin/pg_config" --sharedir))"
# pgxn refuses a server whose library directory (libpq's, not the modules') it cannot write to
mkdir -p "$("$bin/pg_config" --libdir)"
rm -f "$("$bin/pg_config" --pkglibdir)/ndd.so" "$("$bin/pg_config" --sharedir)"/extension/ndd{.control,--*.sql}
rm -rf "$("$bin/pg_config" --pkglibdir)/bitcode/ndd" "$("$bin/pg_config" --pkglibdir)/bitcode/ndd.index.bc"
rm -f "$bin/ndd-load" "$("$bin/pg_config" --mandir)/man1/ndd-load.1"
echo "a copy of the server tree of $NDD_PGBIN without ndd in $tree"

# ---- pgxn install ----
echo "pgxn install ./$zip --pg_config $bin/pg_config"
(cd "$work" && NDD_LOADER=required MAKEFLAGS=-j$(nproc) pgxn install "./$zip" --pg_config "$bin/pg_config" --make make) \
	>"$work/install.log" 2>&1 || { tail -30 "$work/install.log"; echo "FAIL: pgxn install failed"; exit 1; }
grep -E '^INFO' "$work/install.log" || true
installed=("$("$bin/pg_config" --pkglibdir)/ndd.so" "$("$bin/pg_config" --sharedir)/extension/ndd.control"
	"$("$bin/pg_config" --sharedir)/extension/ndd--$version.sql" "$bin/ndd-load" "$("$bin/pg_config" --mandir)/man1/ndd-load.1")
ls -l "${installed[@]}"

NDD_PGBIN=$bin
ndd_start_cluster
trap 'ndd_stop_cluster; rm -rf "$work"' EXIT
ndd_check_installed_extension "$version"
"$bin/ndd-load" --help | grep -q -- '--table' || { echo "FAIL: the installed ndd-load --help"; exit 1; }
"$bin/ndd-load" --table loaded -q "$NDD_ROOT"/test/data/loader/source.{txt,pdf,docx} ||
	{ echo "FAIL: the installed ndd-load did not load test/data/loader's fixtures"; exit 1; }
loaded=$(psql -X -At -d postgres -c "SELECT string_agg(format, ',' ORDER BY format) FROM loaded WHERE error IS NULL AND text ~ '(?i)permuted'")
[ "$loaded" = "docx,pdf,text" ] || { echo "FAIL: the installed ndd-load loaded '$loaded', not docx,pdf,text"; exit 1; }
echo "the installed ndd-load: --help, and three fixtures loaded ($loaded)"
ndd_stop_cluster

echo "pgxn uninstall ./$zip"
(cd "$work" && pgxn uninstall "./$zip" --pg_config "$bin/pg_config" --make make) >"$work/uninstall.log" 2>&1 ||
	{ tail -30 "$work/uninstall.log"; echo "FAIL: pgxn uninstall failed"; exit 1; }
for f in "${installed[@]}"; do
	[ ! -e "$f" ] || { echo "FAIL: $f is still there after pgxn uninstall"; exit 1; }
done
echo "the PGXN distribution $zip: made by make dist, installed by pgxn with ndd-load, CREATE EXTENSION and index queries, ndd-load loads, uninstalled"
