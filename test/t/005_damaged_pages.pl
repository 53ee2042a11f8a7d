# test/t/005_damaged_pages.pl: a damaged ndd index gives errors, never a crash or a hang.
#
# Index scans, bitmap scans, KNN, inserts, VACUUM and ndd_index_check all walk chains through one
# iterator (NddChain in src/nddam.h), which checks every page it reads and every link before it
# follows it, and every metapage read checks the metapage (ndd_meta_problem). This test damages
# the index file of a stopped cluster and runs every kind of statement against it:
#  - targeted damage: a chain linking to its own first page, to itself, back to an earlier page,
#    to another bucket's primary page or to the metapage; an entry area or entry format that
#    would make the decoder read outside the page or shift past the word; a page of the wrong
#    kind or never initialized; the NULL chain's entry size. Each must give ERRCODE_INDEX_CORRUPTED
#    (XX002) naming the damage from the scans that read it and from VACUUM. Before the iterator
#    checked links, an insert or VACUUM following a link to its own first page waited forever
#    on its own buffer lock, which no cancel or shutdown short of SIGQUIT ends.
#  - a sorted page whose prefix is out of order or longer than the page: the statements end, and
#    ndd_index_check names the damage (the scans do not check the order).
#  - fuzzing: random bytes of random pages (and of the metapage) overwritten, a fixed seed per
#    round; every statement must end (with or without an error) within a time limit, and the
#    server must never lose a backend to a signal.
# Data checksums are off (15's default; from 18 on initdb turns them on unless told not to), so
# the damage reaches the index's own code instead of being caught when the page is read. Between
# cases the heap's and the index's files are put back as they were, with the cluster stopped
# cleanly. Page offsets: the 24-byte page header, the 16-byte special space NddPageOpaqueData
# {next, insert_at, kind, entry_bytes, block_bits, offset_bits, generation, sorted} at the end of
# the page
# (src/nddam.h). Run by scripts/test.sh.
use strict;
use warnings;
use File::Copy;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $BLCKSZ      = 8192;
my $OPAQUE      = $BLCKSZ - 16;
my $KIND_PRIMARY  = 2;
my $KIND_OVERFLOW = 3;
my $KIND_NULLS    = 4;
my $INVALID     = 0xFFFFFFFF;
my $STATEMENT_LIMIT = 60;    # seconds; every statement here takes milliseconds when it works

my $node = PostgreSQL::Test::Cluster->new('damaged');
$node->init(no_data_checksums => 1);
$node->append_conf('postgresql.conf', "autovacuum = off\nmax_parallel_workers_per_gather = 0\n");
$node->start;
# 20,000 distinct fingerprints, 4,000 copies of one (its bucket's chain has several pages in every
# table) and 2,000 NULLs (a NULL chain of two pages)
my $dup = '0123456789abcdef';
my $far = 'fedcba9876543210';
$node->safe_psql('postgres', qq{
	CREATE EXTENSION ndd;
	CREATE TABLE t (id int, fp simhash64);
	INSERT INTO t SELECT g, ('x' || md5(g::text))::bit(64)::bigint::simhash64 FROM generate_series(1, 20000) g;
	INSERT INTO t SELECT 20000 + g, '$dup' FROM generate_series(1, 4000) g;
	INSERT INTO t SELECT 30000 + g, NULL FROM generate_series(1, 2000) g;
	CREATE INDEX t_fp ON t USING ndd (fp);
});
like($node->safe_psql('postgres', "SELECT ndd_index_check('t_fp')"), qr/: ok$/, 'the intact index checks ok');

# the statements run against every damaged index: every way the index's pages are read or written
my @statements = (
	[ 'index scan', "SET enable_seqscan = off; SET enable_bitmapscan = off;\n"
		  . "SELECT count(*) FROM t WHERE fp <~> '$dup' <= 3" ],
	[ 'bitmap scan', "SET enable_seqscan = off; SET enable_indexscan = off;\n"
		  . "SELECT count(*) FROM t WHERE fp <~> '$dup' <= 3" ],
	[ 'KNN over every row', "SET enable_seqscan = off;\n"
		  . "SELECT count(*) FROM (SELECT id FROM t ORDER BY fp <~> '$far') s" ],
	[ 'insert', "INSERT INTO t VALUES (-1, '$dup'), (-2, NULL), (-3, '$far')" ],
	[ 'VACUUM', "DELETE FROM t WHERE id IN (5, 20005, 30005);\nVACUUM t" ],
	[ 'check', "SELECT ndd_index_check('t_fp')" ],);

my $datadir = $node->data_dir;
my @files = map { "$datadir/" . $node->safe_psql('postgres', "SELECT pg_relation_filepath('$_')") } ('t', 't_fp');
my $index_file = $files[1];
$node->stop;

# the intact files, every fork of the heap and the index
my %saved;
for my $f (@files)
{
	for my $fork (glob("$f $f\_*"))
	{
		$saved{$fork} = slurp_file($fork);
	}
}
my $index = $saved{$index_file};
my $nblocks = length($index) / $BLCKSZ;

sub opaque_of
{
	my ($img, $blk) = @_;
	my ($next, $insert_at, $kind, $entry_bytes, $block_bits, $offset_bits) =
	  unpack('VVCCCC', substr($img, $blk * $BLCKSZ + $OPAQUE, 12));
	return { next => $next, kind => $kind, entry_bytes => $entry_bytes };
}

# The longest chain (the copies' bucket in some table), and its pages; another primary page; the
# NULL chain's first page.
my (%is_next, @primaries, @nulls);
for my $b (1 .. $nblocks - 1)
{
	my $o = opaque_of($index, $b);
	$is_next{ $o->{next} } = 1 if $o->{next} != $INVALID;
	push @primaries, $b if $o->{kind} == $KIND_PRIMARY;
	push @nulls, $b if $o->{kind} == $KIND_NULLS;
}
my @chain;
for my $p (@primaries)
{
	my @c = ($p);
	push @c, opaque_of($index, $c[-1])->{next} while opaque_of($index, $c[-1])->{next} != $INVALID;
	@chain = @c if @c > @chain;
}
cmp_ok(scalar(@chain), '>=', 4, 'the copies make a chain of at least four pages');
my ($null_head) = grep { !$is_next{$_} } @nulls;
ok(defined $null_head && @nulls >= 2, 'the NULL chain has a first page and a later one');
my ($other) = grep { $_ != $chain[0] } @primaries;
my ($P, $O1, $O2, $O3) = @chain;

# Puts the intact files back, then applies @$edits = [block, offset in block, bytes] to the index.
sub restore_with
{
	my ($edits) = @_;
	for my $f (glob(join(' ', map { "$_ $_\_*" } @files)))
	{
		unlink $f unless exists $saved{$f};    # forks made by an earlier case
	}
	for my $f (keys %saved)
	{
		my $img = $saved{$f};
		if ($f eq $index_file)
		{
			for my $e (@$edits)
			{
				substr($img, $e->[0] * $BLCKSZ + $e->[1], length($e->[2])) = $e->[2];
			}
		}
		open(my $fh, '>:raw', $f) or die "cannot write $f: $!";
		print $fh $img;
		close($fh) or die;
	}
}

# Runs every statement on the damaged index; returns {name => [ret, stderr, timed_out]}. Fails
# the test if a statement hangs or a backend dies.
sub run_statements
{
	my ($case) = @_;
	my %out;
	my $log_start = -s $node->logfile;
	for my $s (@statements)
	{
		my ($name, $sql) = @$s;
		my ($stdout, $stderr, $timed_out);
		my $ret = $node->psql('postgres', "\\set VERBOSITY verbose\n$sql",
			stdout => \$stdout, stderr => \$stderr,
			timeout => $STATEMENT_LIMIT, timed_out => \$timed_out);
		$out{$name} = [ $ret, $stderr // '', $timed_out ];
		ok(!$timed_out, "$case: $name ends");
		my ($error) = ($stderr // '') =~ /(ERROR:.*)/;
		note("$case: $name: " . ($timed_out ? 'timed out' : $ret == 0 ? 'no error' : $error // "exit $ret"));
	}
	my $log = substr(slurp_file($node->logfile), $log_start);
	unlike($log, qr/terminated by signal|was terminated/, "$case: no backend died");
	return \%out;
}

# stops whatever state the statements left (a hung backend too) and makes the next start clean
sub stop_after_case
{
	$node->stop('immediate');
	$node->start;
	$node->stop;
}

sub u32 { return pack('V', $_[0]); }

# [name, edits, the damage the scans of the copies' bucket and VACUUM must name]
my @cases = (
	[ 'a chain links to its own first page', [ [ $O2, $OPAQUE, u32($P) ] ],
		'a chain links to the first page of a chain or to the metapage' ],
	[ 'a chain page links to itself', [ [ $O2, $OPAQUE, u32($O2) ] ],
		'a chain links back to one of its own pages' ],
	[ 'a chain links back to an earlier page', [ [ $O3, $OPAQUE, u32($O1) ] ],
		'a chain links back to one of its own pages' ],
	[ "a chain links to another bucket's primary page", [ [ $O1, $OPAQUE, u32($other) ] ],
		'a chain links to the first page of a chain or to the metapage' ],
	[ 'a chain links to the metapage', [ [ $O1, $OPAQUE, u32(0) ] ],
		'a chain links to the first page of a chain or to the metapage' ],
	[ 'a chain links past the end of the index', [ [ $O1, $OPAQUE, u32($nblocks + 1000) ] ],
		'a chain links past the end of the index' ],
	[ 'an entry area that is not whole entries', [ [ $O1, 12, pack('v', 24 + 7) ] ],
		"a page's entry area is malformed" ],
	[ 'entries of zero bytes', [ [ $O1, $OPAQUE + 9, chr(0) ] ],
		'a page has an invalid entry format' ],
	[ 'a 200-bit heap block field', [ [ $O1, $OPAQUE + 10, chr(200) ] ],
		'a page has an invalid entry format' ],
	[ 'a primary page of the wrong kind', [ [ $P, $OPAQUE + 8, chr($KIND_OVERFLOW) ] ],
		'a chain page has the wrong kind' ],
	[ 'a chain page never initialized', [ [ $O1, 0, "\0" x $BLCKSZ ] ],
		'a chain page is not initialized' ],
	[ 'NULL-chain entries of 16 bytes', [ [ $null_head, $OPAQUE + 9, chr(16) ] ],
		'a NULL-chain page has the wrong entry size' ],);

for my $c (@cases)
{
	my ($case, $edits, $what) = @$c;
	restore_with($edits);
	$node->start;
	my $out = run_statements($case);
	my $nulls = $what =~ /NULL/;
	# the scans of the copies' bucket read the damage (the NULL chain: only the KNN over every
	# row reads it); VACUUM walks every chain
	for my $name ($nulls ? ('KNN over every row', 'VACUUM') : ('index scan', 'bitmap scan', 'VACUUM'))
	{
		my ($ret, $err) = @{ $out->{$name} };
		isnt($ret, 0, "$case: $name fails");
		like($err, qr/XX002: ndd index "t_fp" is corrupted: \Q$what\E \(block \d+\)/,
			"$case: $name reports \"$what\"");
	}
	like($out->{check}[1], qr/XX002: ndd index "t_fp" is corrupted/, "$case: ndd_index_check reports corruption");
	stop_after_case();
}

# A sorted page whose order or count is damaged (README.index.md, "Sorted pages"): nothing reads
# past the page's entries, so the scans end (a binary search over an unsorted prefix may miss a
# row, as a damaged fingerprint gives a wrong answer); ndd_index_check names the damage.
{
	my $base = $other * $BLCKSZ;
	my $entry_bytes = opaque_of($index, $other)->{entry_bytes};
	my $n = (unpack('v', substr($index, $base + 12, 2)) - 24) / $entry_bytes;
	my $sorted = unpack('v', substr($index, $base + $OPAQUE + 14, 2));
	cmp_ok($n, '>=', 2, 'a primary page holds entries');
	is($sorted, $n, 'the build sorted all of them');
	my $first = substr($index, $base + 24, $entry_bytes);
	my $last = substr($index, $base + 24 + ($n - 1) * $entry_bytes, $entry_bytes);
	for my $c (
		[ "a sorted page's first and last entries swapped",
			[ [ $other, 24, $last ], [ $other, 24 + ($n - 1) * $entry_bytes, $first ] ],
			"a page's sorted prefix is out of order" ],
		[ 'a sorted prefix longer than the page', [ [ $other, $OPAQUE + 14, pack('v', $n + 1) ] ],
			"a page's sorted prefix counts more entries than it has" ])
	{
		my ($case, $edits, $what) = @$c;
		restore_with($edits);
		$node->start;
		my $out = run_statements($case);
		like($out->{check}[1], qr/XX002: ndd index "t_fp" is corrupted: \Q$what\E \(block $other\)/,
			"$case: ndd_index_check reports \"$what\"");
		stop_after_case();
	}
}

# Fuzzing: in each round, bytes at random offsets of random pages get random values (in some
# rounds, of the metapage's fields). Whatever it makes of the index, every statement must end.
my $rounds = 24;
for my $round (1 .. $rounds)
{
	srand(1000 + $round);
	my @edits;
	for (1 .. 12)
	{
		if ($round % 4 == 0)
		{
			# the metapage's struct (NddMetaPageData, about 1.2 kB after the page header)
			push @edits, [ 0, 24 + int(rand(1200)), chr(int(rand(256))) ];
		}
		else
		{
			my $b = 1 + int(rand($nblocks - 1));
			# half of the bytes in the page's header and special space, where the structure is
			my $off = rand() < 0.5
			  ? (rand() < 0.5 ? int(rand(24)) : $OPAQUE + int(rand(16)))
			  : int(rand($BLCKSZ));
			push @edits, [ $b, $off, chr(int(rand(256))) ];
		}
	}
	restore_with(\@edits);
	$node->start;
	run_statements("fuzz round $round (seed " . (1000 + $round) . ")");
	stop_after_case();
}

# intact again: the index checks ok
restore_with([]);
$node->start;
like($node->safe_psql('postgres', "SELECT ndd_index_check('t_fp')"), qr/: ok$/, 'the restored index checks ok');
$node->stop;
done_testing();
