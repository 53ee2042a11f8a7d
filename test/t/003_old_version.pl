# test/t/003_old_version.pl: an ndd index of another on-disk version (as left by an older library
# on a database that was not upgraded through the extension's script) must not break the table.
# Planning any query on the table still works (the cost estimate makes the index unattractive
# instead of raising an error); an insert, which must use the index, says to REINDEX it
# (ERRCODE_INDEX_CORRUPTED, XX002); after REINDEX the index answers again. The old version is
# made by rewriting the version field of the metapage of a stopped cluster to the version before
# the library's (magic and version are the metapage's first fields in every version; the rest of
# an older metapage is laid out differently, which is why the library must not read it). Run by
# scripts/test.sh.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('old_version');
# the metapage is edited below: no data checksums (on by default from PostgreSQL 18)
$node->init(no_data_checksums => 1);
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION ndd;
	CREATE TABLE t (id int, fp simhash64);
	INSERT INTO t SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 5000) g;
	CREATE INDEX t_fp ON t USING ndd (fp);
	ANALYZE t;
});
my $query = "SELECT count(*) FROM t WHERE fp <~> (SELECT fp FROM t WHERE id = 42) <= 3";
is($node->safe_psql('postgres', $query), '1', 'the index answers before the change');
my $file = $node->data_dir . '/' . $node->safe_psql('postgres', "SELECT pg_relation_filepath('t_fp')");
$node->stop;

# the metapage's contents start after the 24-byte page header: magic (uint32), then version
open(my $fh, '+<:raw', $file) or die "cannot open $file: $!";
seek($fh, 28, 0) or die;
read($fh, my $packed, 4) == 4 or die;
my $version = unpack('V', $packed);
cmp_ok($version, '>', 5, 'the library writes a version above 5 (6: one map that expands in place)');
my $old = $version - 1;
seek($fh, 28, 0) or die;
print $fh pack('V', $old);
close($fh) or die;
$node->start;

is($node->safe_psql('postgres', $query), '1', 'planning the query on the table does not fail');
unlike($node->safe_psql('postgres', "EXPLAIN (COSTS OFF) $query"), qr/t_fp/,
	'the planner does not choose the index of the old version');
# the planner keeps the seq scan even with enable_seqscan = off (the old index costs disable_cost
# plus its heap visits); an insert must use the index, and says to REINDEX it
my ($ret, $out, $err) = $node->psql('postgres',
	"\\set VERBOSITY verbose\nINSERT INTO t VALUES (0, '0123456789abcdef')");
isnt($ret, 0, 'an insert into the table with the old index fails');
like($err, qr/XX002: ndd index "t_fp" has version $old, this library reads version $version/,
	'it names the versions, with SQLSTATE index_corrupted');
like($err, qr/HINT:\s+REINDEX the index/, 'it says to REINDEX');

$node->safe_psql('postgres', "REINDEX INDEX t_fp");
like($node->safe_psql('postgres', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $query"), qr/t_fp/,
	'after REINDEX the index is used');
is($node->safe_psql('postgres', "SET enable_seqscan = off; $query"), '1', 'and answers');

$node->stop;
done_testing();
