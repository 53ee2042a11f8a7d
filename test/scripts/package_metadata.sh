#!/usr/bin/env bash
# Script test: ndd's version is the same in every place that states it (META.json, ndd.control,
# the Makefile, debian/changelog, CHANGELOG.md), META.json is valid PGXN metadata, and
# debian/copyright carries
# LICENSE (test/scripts/package_metadata.py says how each is read). ndd.control is read by
# PostgreSQL itself, from the copy that scripts/test.sh installed into the suite's cluster.
# Exit 77 when the parsers (Debian's python3-jsonschema, python3-debian, pgxnclient) cannot be
# installed. Needs PGHOST/PGPORT/PGUSER of the suite's cluster with ndd installed.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"

NDD_PACKAGES="python3-jsonschema python3-debian pgxnclient" ndd_install_deps ||
	{ echo "skipped: python3-jsonschema, python3-debian and pgxnclient cannot be installed"; exit 77; }
control_version=$(psql -X -At -v ON_ERROR_STOP=1 -d postgres \
	-c "SELECT default_version FROM pg_available_extensions WHERE name = 'ndd'")
make_version=$(make -s --no-print-directory -C "$NDD_ROOT" -f Makefile -f - print-extversion \
	PG_CONFIG="$NDD_PGBIN/pg_config" <<<'print-extversion: ; @echo $(EXTVERSION)')
# Debian's python3: the one whose dist-packages hold the packages just installed
/usr/bin/python3 "$NDD_ROOT/test/scripts/package_metadata.py" "$NDD_ROOT" "$control_version" "$make_version"
