# scripts/readme_blocks.awk: the ```sql blocks of a Markdown file as one psql script, each preceded
# by an \echo naming the file and the block's first line. The line right above a block may mark it:
#   <!-- readme-sql: citus -->            needs Citus: only with -v mode=citus, and then only these
#   <!-- readme-sql: skip: <reason> -->   never run; listed as "-- skipped: ..." with the reason
# Used by test/scripts/readme_sql.sh (mode=plain) and test/scripts/citus_distributed.sh (mode=citus).
/^<!-- readme-sql: citus -->$/ { mark = "citus"; next }
/^<!-- readme-sql: skip: .* -->$/ { mark = $0; sub(/^<!-- readme-sql: skip: /, "", mark); sub(/ -->$/, "", mark); next }
/^```sql[ \t]*$/ && !inside {
	inside = 1; n++; start = NR + 1
	if (mark == "citus") take = (mode == "citus")
	else if (mark != "") { take = 0; printf "-- skipped: %s block %d (line %d): %s\n", FILENAME, n, start, mark }
	else take = (mode != "citus")
	if (mark == "citus" && mode != "citus") printf "-- skipped: %s block %d (line %d): needs Citus (run by test/scripts/citus_distributed.sh)\n", FILENAME, n, start
	if (take) printf "\\echo %s block %d (line %d)\n", FILENAME, n, start
	mark = ""; next
}
/^```/ && inside { inside = 0; take = 0; next }
inside && take { print }
!inside && !/^[ \t]*$/ { mark = "" }
