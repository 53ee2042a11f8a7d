// ndd from Node.js with node-postgres (pg): pass fingerprints, search by radius and KNN with pg's
// own parameter binding, read distances as numbers. Run by test/scripts/clients.sh; doc/reference.md
// ("Clients") shows the part between the readme markers, checked to match.
// Connects with the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE).
'use strict';
const { Client } = require('pg');

async function main() {
  const client = new Client();
  await client.connect();
  const failures = [];
  await client.query('CREATE EXTENSION IF NOT EXISTS ndd');
  await client.query('DROP TABLE IF EXISTS client_docs');
  await client.query('CREATE TABLE client_docs (id int PRIMARY KEY, body text, fp simhash64)');
  await client.query(`INSERT INTO client_docs
    SELECT g, b, simhash(b) FROM generate_series(1, 3000) g,
    LATERAL (SELECT string_agg(left(md5((g / 3) || '.' || i), 6), ' ') || ' own' || g AS b
             FROM generate_series(1, 40) i) t`);
  await client.query('CREATE INDEX ON client_docs USING ndd (fp)');
  await client.query('ANALYZE client_docs');
  const seed = (await client.query(
    'SELECT fp::text AS hex, fp::numeric::text AS unsigned FROM client_docs WHERE id = 100')).rows[0];
  const hexFp = seed.hex;
  const unsignedFp = BigInt(seed.unsigned);
  const bytesFp = Buffer.from(hexFp, 'hex');

  // --- readme begin ---
  // Once per client: read ndd's hamming_distance (an int4 on the wire) as a number.
  const { rows: [{ oid }] } = await client.query("SELECT 'hamming_distance'::regtype::oid AS oid");
  client.setTypeParser(oid, 'text', (value) => parseInt(value, 10));

  // pg sends every parameter untyped, so the server reads it as a simhash64: a hex string, or a
  // Buffer of 8 bytes (sent in binary). A number is sent as its decimal digits, which a simhash64
  // reads as hex (1234 would be 0x1234): pass 64-bit values as BigInt with ::numeric::simhash64.
  const radius = (q) =>
    `SELECT id, fp <~> ${q} AS distance FROM client_docs WHERE fp <~> ${q} <= $2 ORDER BY id`;
  for (const [q, value] of [['$1', hexFp],                          // '0123456789abcdef'
                            ['$1', bytesFp],                        // <Buffer 01 23 ... ef>
                            ['$1::numeric::simhash64', unsignedFp]]) { // 0n .. 2n**64n-1n
    const { rows } = await client.query(radius(q), [value, 8]);
    console.log(rows);          // [ { id: 99, distance: 4 }, { id: 100, distance: 0 }, ... ]
  }

  // The 5 nearest, through the index.
  const knn = (await client.query(
    'SELECT id, fp <~> $1 AS distance FROM client_docs ORDER BY fp <~> $1 LIMIT 5', [hexFp])).rows;
  // --- readme end ---

  const expected = JSON.stringify((await client.query(
    'SELECT id, hamming(fp, $1)::int AS distance FROM client_docs WHERE hamming(fp, $1)::int <= 8 ORDER BY id',
    [hexFp])).rows);
  for (const [q, value] of [['$1', hexFp], ['$1', bytesFp], ['$1::numeric::simhash64', unsignedFp],
                            ['$1::numeric::simhash64', unsignedFp.toString()]]) {
    const { rows } = await client.query(radius(q), [value, 8]);
    if (JSON.stringify(rows) !== expected || !rows.every((r) => typeof r.distance === 'number')) {
      failures.push(`radius with ${q} (${typeof value}): ${JSON.stringify(rows)} != ${expected}`);
    }
    // the driver's own binding keeps the index: EXPLAIN the same statement with the same parameters
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    const plan = (await client.query(`EXPLAIN ${radius(q)}`, [value, 8])).rows.map((r) => r['QUERY PLAN']).join('\n');
    await client.query('COMMIT');
    if (!plan.includes('client_docs_fp_idx')) failures.push(`radius with ${q}: the index is not used:\n${plan}`);
  }
  const distances = knn.map((r) => r.distance);
  if (knn.length !== 5 || knn[0].id !== 100 || distances[0] !== 0
      || distances.some((d, i) => i > 0 && d < distances[i - 1])) {
    failures.push(`knn: ${JSON.stringify(knn)}`);
  }
  await client.query('BEGIN');
  await client.query('SET LOCAL enable_seqscan = off');
  const plan = (await client.query('EXPLAIN SELECT id FROM client_docs ORDER BY fp <~> $1 LIMIT 5', [hexFp]))
    .rows.map((r) => r['QUERY PLAN']).join('\n');
  await client.query('COMMIT');
  if (!plan.includes('Index Scan using client_docs_fp_idx')) failures.push(`knn: the index is not used:\n${plan}`);
  // the pitfall the README warns about: a JavaScript number is read as hex digits
  const pitfall = (await client.query('SELECT $1::simhash64::text AS fp', [1234])).rows[0].fp;
  if (pitfall !== '0000000000001234') failures.push(`1234 as a number read as ${pitfall}`);
  try {
    await client.query('SELECT $1::numeric::simhash64', [2n ** 64n]);
    failures.push('2**64 was accepted');
  } catch (e) {
    if (e.code !== '22003') failures.push(`2**64: ${e.code} ${e.message}`);
  }
  await client.query('DROP TABLE client_docs');
  await client.end();
  if (failures.length) {
    console.log(`FAIL node-postgres:\n  ${failures.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`ok node-postgres ${require('pg/package.json').version}: hex, Buffer and BigInt fingerprints, `
              + 'radius and KNN through the index, distances as numbers');
}

main().catch((e) => { console.log(`FAIL node-postgres: ${e.stack}`); process.exit(1); });
