#!/usr/bin/env bash
# Script test: ndd's version is the same in every place that states it (META.json, ndd.control,
# the Makefile, debian/changelog, CHANGELOG.md), META.json is valid PGXN metadata, and
# debian/copyright carries
# LICENSE (test/scripts/package_metadata.py says how each is read); and the package lists of the
# documentation are complete: every `apt-get install` line that builds ndd (it names libxxhash-dev)
# names each library of debian/control's Build-Depends, a compiler and make (g++ and make, or
# build-essential) and git (each way starts from a clone; make dist packs with git archive). ndd.control is read by
# PostgreSQL itself, from the copy that scripts/test.sh installed into the suite's cluster.
# Exit 77 when the parsers (Debian's python3-jsonschema, python3-debian, pgxnclient) cannot be
# installed. Needs PGHOST/PGPORT/PGUSER of the suite's cluster with ndd installed.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"

# the -dev packages of Build-Depends (each on a line of its own, "name," or "name (version),")
libs=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/p' "$NDD_ROOT/debian/control" | grep -oE '^ [a-z0-9][a-z0-9+.-]*-dev[, ]' | tr -d ' ,' | sort -u)
[ -n "$libs" ] || { echo "FAIL: no libraries in debian/control's Build-Depends"; exit 1; }
lists=0
while IFS= read -r line; do
	where=$(cut -d: -f1-2 <<<"$line") words=" ${line#*apt-get install} "
	for p in $libs git; do
		[[ $words == *" $p "* ]] || { echo "FAIL: $where: the package list lacks $p"; exit 1; }
	done
	[[ $words == *" build-essential "* ]] || [[ $words == *" g++ "* && $words == *" make "* ]] ||
		{ echo "FAIL: $where: the package list has no compiler and make (g++ make, or build-essential)"; exit 1; }
	lists=$((lists + 1))
done < <(cd "$NDD_ROOT" && grep -n 'apt-get install .*libxxhash-dev' README.md doc/*.md)
[ "$lists" -ge 4 ] || { echo "FAIL: only $lists build package lists in README.md and doc/*.md"; exit 1; }
echo "the $lists build package lists of README.md and doc/*.md name git, a compiler, make and $(echo $libs)"

NDD_PACKAGES="python3-jsonschema python3-debian pgxnclient" ndd_install_deps ||
	{ echo "skipped: python3-jsonschema, python3-debian and pgxnclient cannot be installed"; exit 77; }
control_version=$(psql -X -At -v ON_ERROR_STOP=1 -d postgres \
	-c "SELECT default_version FROM pg_available_extensions WHERE name = 'ndd'")
make_version=$(make -s --no-print-directory -C "$NDD_ROOT" -f Makefile -f - print-extversion \
	PG_CONFIG="$NDD_PGBIN/pg_config" <<<'print-extversion: ; @echo $(EXTVERSION)')
# Debian's python3: the one whose dist-packages hold the packages just installed
/usr/bin/python3 "$NDD_ROOT/test/scripts/package_metadata.py" "$NDD_ROOT" "$control_version" "$make_version"
