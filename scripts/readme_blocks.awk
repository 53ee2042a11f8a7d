# scripts/readme_blocks.awk: the ```sql blocks of a Markdown file as one psql script, each preceded
# by an \echo naming the file and the block's first line. The line right above a block may mark it:
#   <!-- readme-sql: citus -->            needs Citus: only with -v mode=citus, and then only these
#   <!-- readme-sql: skip: <reason> -->   never run; listed as "-- skipped: ..." with the reason
#   <!-- readme-sh: bare-root -->         (above a ```sh block) a command a newcomer runs as root on
#                                         a fresh Debian 12: with -v mode=bare-root, these blocks
#                                         alone, as one shell script, each preceded by a comment
# Used by test/scripts/readme_sql.sh (mode=plain), test/scripts/citus_distributed.sh (mode=citus)
# and test/scripts/package_bare_root.sh (mode=bare-root).
/^<!-- readme-sql: citus -->$/ { mark = "citus"; next }
/^<!-- readme-sh: bare-root -->$/ { mark = "bare-root"; next }
/^```sh[ \t]*$/ && !inside {
	inside = 1; nsh++
	take = (mode == "bare-root" && mark == "bare-root")
	if (take) printf "# %s sh block %d (line %d)\n", FILENAME, nsh, NR + 1
	mark = ""; next
}
/^<!-- readme-sql: skip: .* -->$/ { mark = $0; sub(/^<!-- readme-sql: skip: /, "", mark); sub(/ -->$/, "", mark); next }
/^```sql[ \t]*$/ && !inside {
	inside = 1; n++; start = NR + 1
	if (mode == "bare-root") take = 0
	else if (mark == "citus") take = (mode == "citus")
	else if (mark != "") { take = 0; printf "-- skipped: %s block %d (line %d): %s\n", FILENAME, n, start, mark }
	else take = (mode != "citus")
	if (mark == "citus" && mode != "citus") printf "-- skipped: %s block %d (line %d): needs Citus (run by test/scripts/citus_distributed.sh)\n", FILENAME, n, start
	if (take) printf "\\echo %s block %d (line %d)\n", FILENAME, n, start
	mark = ""; next
}
/^```/ && inside { inside = 0; take = 0; next }
inside && take { print }
!inside && !/^[ \t]*$/ { mark = "" }
