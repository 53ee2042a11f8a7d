# The ndd index's WAL replayed on a streaming standby (wal_consistency_checking = 'generic': the
# standby compares every page a generic WAL record touches with the primary's full image of it):
# inserts into indexes made on empty tables (chains, insert_at, expansions of the map and their
# migrations: moved pages, pages rewritten in place, the free list),
# a built index, many copies of one fingerprint, NULL rows, DELETE + VACUUM. After each step the
# standby's answers through the index must equal a sequential scan on the standby and the
# primary's answers. Run with PATH starting at the server's bin directory and PERL5LIB at its
# pgxs/src/test/perl (see scripts/test.sh).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', "wal_consistency_checking = 'generic'\n");
$primary->start;
# a slot: with every page image logged twice, WAL outruns a slow standby
$primary->safe_psql('postgres', "SELECT pg_create_physical_replication_slot('standby')");
$primary->safe_psql('postgres', q{
	CREATE EXTENSION ndd;
	CREATE TABLE g64 (id int, fp simhash64);
	CREATE INDEX g64_fp ON g64 USING ndd (fp);
	CREATE TABLE g128 (id int, fp fp128);
	CREATE INDEX g128_fp ON g128 USING ndd (fp);
	CREATE TABLE b64 (id int, fp simhash64);
	INSERT INTO b64 SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 20000) g;
	CREATE INDEX b64_fp ON b64 USING ndd (fp);
});

$primary->backup('backup');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'backup', has_streaming => 1);
$standby->append_conf('postgresql.conf', "primary_slot_name = 'standby'\n");
$standby->start;

# The answers of the queries of one table as text, through the index or a sequential scan.
sub answers
{
	my ($node, $tab, $index) = @_;
	my $set = $index
	  ? 'SET enable_seqscan = off;'
	  : 'SET enable_indexscan = off; SET enable_bitmapscan = off;';
	return $node->safe_psql('postgres', qq{
		$set
		SELECT string_agg(a, ';' ORDER BY a) FROM (
			SELECT q.id || ':' || r || ':' || (SELECT string_agg(id::text, ',' ORDER BY id) FROM $tab WHERE fp <~> q.fp <= r) AS a
			FROM (SELECT * FROM $tab WHERE id % 997 = 1 AND fp IS NOT NULL) q, (VALUES (0), (3), (9)) v(r)
			UNION ALL
			SELECT 'knn ' || q.id || ':' || (SELECT string_agg(d::text, ',') FROM
				(SELECT fp <~> q.fp AS d FROM $tab ORDER BY fp <~> q.fp LIMIT 10) s)
			FROM (SELECT * FROM $tab WHERE id % 1999 = 2 AND fp IS NOT NULL) q
			UNION ALL
			SELECT 'nulls:' || count(*) FROM $tab WHERE fp IS NULL) x});
}

# Waits for the standby to replay everything, then compares.
sub check
{
	my ($step) = @_;
	$primary->wait_for_catchup($standby, 'replay', $primary->lsn('insert'));
	foreach my $tab ('g64', 'g128', 'b64')
	{
		my $by_index = answers($standby, $tab, 1);
		ok($by_index ne '', "$step: $tab has answers");
		is($by_index, answers($standby, $tab, 0),
			"$step: $tab on the standby, index = sequential scan");
		is($by_index, answers($primary, $tab, 1),
			"$step: $tab, standby = primary");
	}
}

my $fp64 = q{('x' || md5(g::text))::bit(64)::bigint::simhash64};
my $fp128 = q{('x' || md5(g::text) || md5('b' || g))::bit(128)::fp128};

$primary->safe_psql('postgres', qq{
	INSERT INTO g64 SELECT g, $fp64 FROM generate_series(1, 3000) g;
	INSERT INTO g128 SELECT g, $fp128 FROM generate_series(1, 3000) g;
	INSERT INTO b64 SELECT g, $fp64 FROM generate_series(20001, 22000) g;
});
check('first inserts');

# growth: enough rows for many expansions of the map and their migrations; many copies of one fingerprint (long chains, every
# insert on the last page); NULL rows
$primary->safe_psql('postgres', qq{
	INSERT INTO g64 SELECT g, $fp64 FROM generate_series(3001, 60000) g;
	INSERT INTO g64 SELECT 100000 + g, '0123456789abcdef' FROM generate_series(1, 5000) g;
	INSERT INTO g64 SELECT -g, NULL FROM generate_series(1, 50) g;
	INSERT INTO g128 SELECT g, $fp128 FROM generate_series(3001, 40000) g;
	INSERT INTO g128 SELECT -g, NULL FROM generate_series(1, 50) g;
	INSERT INTO b64 SELECT 200000 + g, '0123456789abcdef' FROM generate_series(1, 3000) g;
});
like($primary->safe_psql('postgres', "SELECT ndd_index_check('g64_fp')"),
	qr/map generation [0-9]+.*: ok$/, 'g64_fp expanded its map');
like($primary->safe_psql('postgres', "SELECT ndd_index_check('g128_fp')"),
	qr/map generation [0-9]+.*: ok$/, 'g128_fp expanded its map');
check('growth, duplicates, NULLs');

# deletes + VACUUM (compaction, insert_at moved back), then inserts refilling the freed space
$primary->safe_psql('postgres', qq{
	DELETE FROM g64 WHERE id % 3 = 0 OR id > 102000;
	DELETE FROM g128 WHERE id % 5 = 0;
	DELETE FROM b64 WHERE id % 2 = 0;
});
$primary->safe_psql('postgres', 'VACUUM g64');
$primary->safe_psql('postgres', 'VACUUM g128');
$primary->safe_psql('postgres', 'VACUUM b64');
$primary->safe_psql('postgres', qq{
	INSERT INTO g64 SELECT 102000 + g, '0123456789abcdef' FROM generate_series(1, 2000) g;
	INSERT INTO g64 SELECT g, $fp64 FROM generate_series(60001, 62000) g;
	INSERT INTO b64 SELECT 300000 + g, $fp64 FROM generate_series(1, 2000) g;
});
foreach my $ix ('g64_fp', 'g128_fp', 'b64_fp')
{
	like($primary->safe_psql('postgres', "SELECT ndd_index_check('$ix')"),
		qr/: ok$/, "$ix checks after VACUUM and inserts");
}
check('deletes, VACUUM, refill');

# the check refuses to run on the standby (it cannot hold off replayed migrations), with a clear
# error rather than false alarms
my ($ret, $out, $err) = $standby->psql('postgres',
	"\\set VERBOSITY verbose\nSELECT ndd_index_check('g64_fp')");
isnt($ret, 0, 'ndd_index_check fails on the standby');
like($err, qr/0A000: ndd_index_check cannot run during recovery/, 'it says why (0A000)');

$standby->stop;
$primary->stop;
done_testing();
