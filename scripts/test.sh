#!/usr/bin/env bash
# scripts/test.sh: runs every test of ndd on a Debian 12 machine, as root, from a bare checkout:
# installs what is missing, runs the core's unit tests, then, for each PostgreSQL major it has (15,
# Debian's; 18, installed or built once from its release tarball, see ndd_find_pg in lib.sh):
# builds and installs the extension, starts a throwaway cluster, runs the pg_regress suite and the
# script tests (test/scripts/*.sh), stops the cluster, then runs the TAP tests (test/t/*.pl, each
# starting its own servers). Everything it needs is in the repository; the evaluation corpus
# (NDD_CORPUS_DIR), the PostgreSQL 18 tarball and Citus only add test cases.
# Each test's name is printed when it starts and its time when it ends; a failed test shows its
# reason (gtest's message, the regression diff, the script's output tail, the TAP output and server
# log). The last line reads "N passed, N failed, N skipped" (one count per test case and major: a
# gtest test, a pg_regress test, a script, a .pl file; skipped: an optional part, the evaluation
# corpus, Citus or a whole PostgreSQL major, is missing, and the run said so).
#
#   scripts/test.sh            everything
#   scripts/test.sh unit       only the unit tests
#   NDD_TESTS="index_crash" scripts/test.sh   unit + pg_regress, and only the script and TAP tests
#                                             whose names contain one of the words
#   NDD_PG_MAJORS="18" scripts/test.sh        only these majors (default "15 18")
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$NDD_ROOT"

passed=0 failed=0 skipped=0
failures=()
count() { passed=$((passed + $1)); failed=$((failed + $2)); [ "$2" -eq 0 ] || failures+=("$3"); }
selected() { [ -z "${NDD_TESTS:-}" ] || grep -qE "$(echo "$NDD_TESTS" | tr ' ' '|')" <<<"$1"; }
# Every temporary file of this run lives here (no fixed path: two runs at once never collide).
NDD_RUN_DIR=$(mktemp -d /tmp/ndd-test.XXXXXX)
trap 'rm -rf "$NDD_RUN_DIR"' EXIT

ndd_install_deps || exit 1
corpus=$(ndd_corpus_dir)
if [ -n "$corpus" ]; then
	export NDD_CORPUS_DIR=$corpus
	ndd_log "evaluation corpus: $corpus (its extra test cases run)"
else
	unset NDD_CORPUS_DIR
	ndd_log "no evaluation corpus (set NDD_CORPUS_DIR to add its cases); the tests use the sample in test/data"
fi

# ---- unit tests of the core ----
# gtest prints each failed test twice (when it fails, and in the summary): count the names once,
# and show each failed test's own output (its assertion messages) and each skipped test's reason.
ndd_log "unit tests"
if make -s PG_CONFIG=$NDD_PGBIN/pg_config build/unit_tests >"$NDD_RUN_DIR/unit.build" 2>&1; then
	./build/unit_tests >"$NDD_RUN_DIR/unit.out" 2>&1
	status=$?
	out=$NDD_RUN_DIR/unit.out
	grep -E '^\[==========\]|^\[  PASSED  \]' "$out" >&2
	n_ok=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?\..*/\1/p' "$out")
	bad_names=$(sed -n 's/^\[  FAILED  \] \([A-Za-z0-9_/]*\.[A-Za-z0-9_/]*\).*/\1/p' "$out" | sort -u)
	n_bad=$(grep -c . <<<"$bad_names")
	for name in $bad_names; do
		ndd_log "FAILED unit test $name:"
		awk -v n="$name" '$0 ~ "^\\[ RUN      \\] " n "$" {p = 1} p {print} p && $0 ~ "^\\[  FAILED  \\] " n " " {exit}' "$out" >&2
	done
	for name in $(sed -n 's/^\[  SKIPPED \] \([A-Za-z0-9_/]*\.[A-Za-z0-9_/]*\).*/\1/p' "$out" | sort -u); do
		skipped=$((skipped + 1))
		reason=$(awk -v n="$name" '$0 ~ "^\\[ RUN      \\] " n "$" {p = 1; next} p && /^\[  SKIPPED \]/ {exit} p && /Skipped/ {next} p {print}' "$out" | tr '\n' ' ')
		ndd_log "skipped unit test $name: ${reason:-no reason given}"
	done
	if [ "$status" -ne 0 ] && [ "$n_bad" -eq 0 ]; then
		ndd_log "the unit test binary failed without a failed test (exit $status); its output tail:"
		tail -30 "$out" >&2
		n_bad=1
	fi
	count "${n_ok:-0}" "$n_bad" "unit tests"
else
	ndd_log "the unit tests do not build:"
	tail -40 "$NDD_RUN_DIR/unit.build" >&2
	count 0 1 "unit test build"
fi
if [ "${1:-}" = unit ]; then echo "${passed} passed, ${failed} failed, ${skipped} skipped"; [ "$failed" -eq 0 ]; exit; fi

# ---- everything below needs the installed extension: once per PostgreSQL major ----

# The pg_regress tests one at a time, in order, in one database (as one pg_regress run would do),
# so that each test's name shows when it starts and its time when it ends. The database is made
# the way pg_regress makes it for `make installcheck` (REGRESS_OPTS: --no-locale, --encoding=UTF8, --load-extension).
run_regress() {
	local tag=$1 out=$NDD_RUN_DIR/regress-$1 tests t start status
	mkdir -p "$out"
	tests=$(make -s -f - print-regress <<<'include Makefile
print-regress: ; @echo $(REGRESS)' 2>/dev/null)
	psql -X -q -v ON_ERROR_STOP=1 -d postgres \
		-c "CREATE DATABASE ndd_regression TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'" \
		-c "ALTER DATABASE ndd_regression SET lc_messages TO 'C'" \
		-c "ALTER DATABASE ndd_regression SET lc_monetary TO 'C'" \
		-c "ALTER DATABASE ndd_regression SET lc_numeric TO 'C'" \
		-c "ALTER DATABASE ndd_regression SET lc_time TO 'C'" \
		-c "ALTER DATABASE ndd_regression SET bytea_output TO 'hex'" \
		-c "ALTER DATABASE ndd_regression SET timezone_abbreviations TO 'Default'" &&
		psql -X -q -v ON_ERROR_STOP=1 -d ndd_regression -c "CREATE EXTENSION ndd" ||
		{ count 0 1 "$tag/pg_regress database"; return; }
	for t in $tests; do
		ndd_log "pg_regress $t ($tag)"
		start=$(date +%s)
		# run from the output directory: a test's client-side files (psql's \copy) land there
		(cd "$out" && "$(ndd_pgxs_dir)/src/test/regress/pg_regress" --bindir="$NDD_PGBIN" \
			--inputdir="$NDD_ROOT/test" --outputdir="$out" --dbname=ndd_regression --use-existing "$t") \
			>"$out/$t.summary" 2>&1
		status=$?
		if [ "$status" -eq 0 ]; then
			count 1 0 "$tag/$t"
			ndd_log "ok $t ($(($(date +%s) - start)) s)"
		else
			count 0 1 "$tag/$t"
			ndd_log "FAILED $t ($(($(date +%s) - start)) s):"
			cat "$out/$t.summary" >&2
			head -300 "$out/regression.diffs" >&2 2>/dev/null
			if [ "${NDD_KEEP_RESULTS:-0}" = 1 ]; then
				kept=$(mktemp -d /tmp/ndd-regress.XXXXXX)
				cp -r "$out/." "$kept/" && ndd_log "results kept in $kept"
			fi
		fi
	done
}

# ---- script tests: each gets the cluster in PG* and NDD_* variables; exit status is the verdict ----
run_scripts() {
	local tag=$1 t name start log status
	for t in test/scripts/*.sh; do
		[ -e "$t" ] || continue
		name=$(basename "$t" .sh)
		selected "$name" || continue
		ndd_log "script test $name ($tag)"
		start=$(date +%s)
		log=$NDD_RUN_DIR/$tag-$name.log
		bash "$t" 2>&1 | tee "$log" >&2
		status=${PIPESTATUS[0]}
		if [ "$status" -eq 0 ]; then
			count 1 0 "$tag/$name"
			ndd_log "ok $name ($(($(date +%s) - start)) s)"
		elif [ "$status" -eq 77 ]; then
			# 77 (automake's convention): an optional part is missing; the script said which and why
			skipped=$((skipped + 1))
			ndd_log "skipped $name: $(grep -m1 '^skipped' "$log" || echo 'no reason given')"
		else
			count 0 1 "$tag/$name"
			ndd_log "FAILED $name ($(($(date +%s) - start)) s); the last lines of its output:"
			tail -15 "$log" >&2
			ndd_log "server log tail:"
			tail -20 "$NDD_PGLOG" >&2
		fi
		ndd_restart_cluster || { ndd_log "the cluster does not start again after $name"; count 0 1 "$tag/restart after $name"; break; }
	done
}

# ---- TAP tests: test/t/*.pl with PostgreSQL::Test::Cluster, each file one test case ----
# Run by prove as the cluster owner (initdb refuses root), with the server tree's binaries first in
# PATH, from a copy of test/t in a directory of this run that the owner can write.
run_tap() {
	local tag=$1 t name start tap_dir pgxs l tap_files=()
	for t in test/t/*.pl; do
		[ -e "$t" ] && selected "$(basename "$t" .pl)" && tap_files+=("$t")
	done
	if [ ${#tap_files[@]} -eq 0 ]; then
		ndd_log "no TAP tests (test/t/*.pl)${NDD_TESTS:+ matching \"$NDD_TESTS\"}: skipped"
		return
	fi
	tap_dir=$NDD_RUN_DIR/tap-$tag
	mkdir -p "$tap_dir"
	cp -r test/t "$tap_dir/t"
	chmod 755 "$NDD_RUN_DIR"
	[ "$(id -u)" -eq 0 ] && chown -R postgres: "$tap_dir"
	pgxs=$(ndd_pgxs_dir)
	for t in "${tap_files[@]}"; do
		name=$(basename "$t" .pl)
		ndd_log "TAP test $name ($tag)"
		start=$(date +%s)
		ndd_as_owner env -C "$tap_dir" PATH="$NDD_PGBIN:$PATH" PERL5LIB="$pgxs/src/test/perl:$tap_dir/t" \
			PG_REGRESS="$pgxs/src/test/regress/pg_regress" TESTDIR="$tap_dir" \
			prove -v "t/$name.pl" >"$NDD_RUN_DIR/$tag-$name.tap" 2>&1
		if [ $? -eq 0 ]; then
			count 1 0 "$tag/$name"
			grep -E '^(ok|not ok) ' "$NDD_RUN_DIR/$tag-$name.tap" >&2
			ndd_log "ok $name ($(($(date +%s) - start)) s)"
		else
			count 0 1 "$tag/$name"
			ndd_log "FAILED $name ($(($(date +%s) - start)) s); its output:"
			tail -40 "$NDD_RUN_DIR/$tag-$name.tap" >&2
			for l in "$tap_dir"/tmp_check/log/*"$name"*; do
				[ -e "$l" ] || continue
				ndd_log "tail of $(basename "$l"):"
				tail -15 "$l" >&2
			done
		fi
	done
}

# The whole suite against the PostgreSQL of bin directory $1.
run_suite() {
	local tag start p0=$passed f0=$failed s0=$skipped
	ndd_use_pg "$1"
	tag=pg$NDD_PG_MAJOR
	start=$(date +%s)
	ndd_log "======== PostgreSQL $NDD_PG_MAJOR ($("$NDD_PGBIN/pg_config" --version), $NDD_PGBIN) ========"
	ndd_build_install || { count 0 1 "$tag/build"; return; }
	ndd_start_cluster
	run_regress "$tag"
	run_scripts "$tag"
	ndd_stop_cluster
	run_tap "$tag"
	suite_times+=("PostgreSQL $NDD_PG_MAJOR: $((passed - p0)) passed, $((failed - f0)) failed, $((skipped - s0)) skipped in $(($(date +%s) - start)) s")
	ndd_log "${suite_times[-1]}"
}

trap 'ndd_stop_cluster; rm -rf "$NDD_RUN_DIR"' EXIT
suite_times=()
for major in ${NDD_PG_MAJORS:-15 18}; do
	if bin=$(ndd_find_pg "$major"); then
		run_suite "$bin"
	else
		skipped=$((skipped + 1))
		ndd_log "skipped PostgreSQL $major: $bin"
	fi
done

for line in "${suite_times[@]}"; do ndd_log "$line"; done
[ ${#failures[@]} -eq 0 ] || ndd_log "failed: ${failures[*]}"
echo "${passed} passed, ${failed} failed, ${skipped} skipped"
[ "$failed" -eq 0 ]
