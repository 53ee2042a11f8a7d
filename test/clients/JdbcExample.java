// ndd from Java with pgjdbc: pass fingerprints, search by radius and KNN with JDBC's own parameter
// binding, read distances as numbers. Run by test/scripts/clients.sh (java JdbcExample.java, with
// the driver on the class path and NDD_JDBC_URL); doc/reference.md ("Clients") shows the part between
// the readme markers, checked to match.
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

public class JdbcExample {
    static final List<String> failures = new ArrayList<>();
    static String driverVersion;

    public static void main(String[] args) throws Exception {
        String url = System.getenv("NDD_JDBC_URL");
        String hexFp;
        long signedFp;
        try (Connection conn = DriverManager.getConnection(url); Statement st = conn.createStatement()) {
            st.execute("CREATE EXTENSION IF NOT EXISTS ndd");
            st.execute("DROP TABLE IF EXISTS client_docs");
            st.execute("CREATE TABLE client_docs (id int PRIMARY KEY, body text, fp simhash64)");
            st.execute("INSERT INTO client_docs SELECT g, b, simhash(b) FROM generate_series(1, 3000) g, "
                    + "LATERAL (SELECT string_agg(left(md5((g / 3) || '.' || i), 6), ' ') || ' own' || g AS b "
                    + "FROM generate_series(1, 40) i) t");
            st.execute("CREATE INDEX ON client_docs USING ndd (fp)");
            st.execute("ANALYZE client_docs");
            try (ResultSet rs = st.executeQuery("SELECT fp::text, fp::bigint FROM client_docs WHERE id = 100")) {
                rs.next();
                hexFp = rs.getString(1);
                signedFp = rs.getLong(2);
            }
        }
        BigInteger unsignedFp = new BigInteger(Long.toUnsignedString(signedFp));
        byte[] bytesFp = java.nio.ByteBuffer.allocate(8).putLong(signedFp).array();

        // --- readme begin ---
        // setString binds a varchar, and there is no simhash64 <~> varchar: either set
        // stringtype=unspecified on the connection (strings are then typed by the server) ...
        try (Connection conn = DriverManager.getConnection(url + "&stringtype=unspecified");
             PreparedStatement ps = conn.prepareStatement(
                 "SELECT id, fp <~> ? AS distance FROM client_docs WHERE fp <~> ? <= ? ORDER BY id")) {
            ps.setString(1, hexFp);
            ps.setString(2, hexFp);
            ps.setInt(3, 8);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // hamming_distance is an int4 on the wire: getInt reads it as is
                    System.out.println(rs.getInt("id") + " " + rs.getInt("distance"));  // 99 4, 100 0, 101 3
                }
            }
        }
        // ... or bind the string as Types.OTHER. Bytes (8, most significant first), a signed long
        // and an unsigned value (BigDecimal, 0 .. 2^64-1) go through casts; setBytes, setLong and
        // setBigDecimal bind the same as these setObject calls.
        String radius = "SELECT id, fp <~> %1$s AS distance FROM client_docs WHERE fp <~> %1$s <= ? ORDER BY id";
        Object[][] ways = {
            {"?", hexFp, Types.OTHER},
            {"?::simhash64", bytesFp, Types.BINARY},
            {"?::simhash64", signedFp, Types.BIGINT},
            {"?::numeric::simhash64", new BigDecimal(unsignedFp), Types.NUMERIC}};
        try (Connection conn = DriverManager.getConnection(url)) {
            for (Object[] way : ways) {
                try (PreparedStatement ps = conn.prepareStatement(String.format(radius, way[0]))) {
                    ps.setObject(1, way[1], (int) way[2]);
                    ps.setObject(2, way[1], (int) way[2]);
                    ps.setInt(3, 8);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) System.out.println(rs.getInt("id") + " " + rs.getInt("distance"));
                    }
                }
            }
        }
        // --- readme end ---
        try (Connection conn = DriverManager.getConnection(url)) {
            for (Object[] way : ways) {
                String sql = String.format(radius, way[0]);
                try (PreparedStatement ps = conn.prepareStatement(sql)) {
                    ps.setObject(1, way[1], (int) way[2]);
                    ps.setObject(2, way[1], (int) way[2]);
                    ps.setInt(3, 8);
                    check(conn, ps, sql, way);
                }
            }
            knn(conn, hexFp);
            pitfalls(conn, hexFp);
            conn.createStatement().execute("DROP TABLE client_docs");
            driverVersion = conn.getMetaData().getDriverVersion();
        }
        if (!failures.isEmpty()) {
            System.out.println("FAIL pgjdbc:\n  " + String.join("\n  ", failures));
            System.exit(1);
        }
        System.out.println("ok pgjdbc " + driverVersion
                + ": hex (stringtype=unspecified, Types.OTHER), bytes, long and unsigned fingerprints, "
                + "radius and KNN through the index, distances as int");
    }

    static String rows(ResultSet rs) throws SQLException {
        StringBuilder sb = new StringBuilder();
        while (rs.next()) sb.append(rs.getInt(1)).append(':').append(rs.getInt(2)).append(' ');
        return sb.toString();
    }

    static String plan(PreparedStatement ps) throws SQLException {
        StringBuilder sb = new StringBuilder();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) sb.append(rs.getString(1)).append('\n');
        }
        return sb.toString();
    }

    // The statement's rows are those of a sequential scan with hamming(), its plan (the same SQL
    // and parameters under EXPLAIN) uses the index.
    static void check(Connection conn, PreparedStatement ps, String sql, Object[] way) throws SQLException {
        String got;
        try (ResultSet rs = ps.executeQuery()) { got = rows(rs); }
        String expected;
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, hamming(fp, (SELECT fp FROM client_docs WHERE id = 100))::int AS d "
                     + "FROM client_docs WHERE hamming(fp, (SELECT fp FROM client_docs WHERE id = 100))::int <= 8 ORDER BY id")) {
            expected = rows(rs);
        }
        if (!got.equals(expected) || got.isEmpty()) failures.add("radius with " + way[0] + ": " + got + " != " + expected);
        conn.setAutoCommit(false);
        conn.createStatement().execute("SET LOCAL enable_seqscan = off");
        try (PreparedStatement explain = conn.prepareStatement("EXPLAIN " + sql)) {
            explain.setObject(1, way[1], (int) way[2]);
            explain.setObject(2, way[1], (int) way[2]);
            explain.setInt(3, 8);
            String p = plan(explain);
            if (!p.contains("client_docs_fp_idx")) failures.add("radius: the index is not used for " + sql + ":\n" + p);
        }
        conn.rollback();
        conn.setAutoCommit(true);
    }

    static void knn(Connection conn, String hexFp) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "SELECT id, fp <~> ? AS distance FROM client_docs ORDER BY fp <~> ? LIMIT 5")) {
            ps.setObject(1, hexFp, Types.OTHER);
            ps.setObject(2, hexFp, Types.OTHER);
            List<Integer> d = new ArrayList<>();
            int first = -1;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (first < 0) first = rs.getInt(1);
                    d.add(rs.getInt(2));
                }
            }
            for (int i = 1; i < d.size(); i++) if (d.get(i) < d.get(i - 1)) failures.add("knn order: " + d);
            if (d.size() != 5 || first != 100 || d.get(0) != 0) failures.add("knn: " + first + " " + d);
        }
        conn.setAutoCommit(false);
        conn.createStatement().execute("SET LOCAL enable_seqscan = off");
        try (PreparedStatement ps = conn.prepareStatement("EXPLAIN SELECT id FROM client_docs ORDER BY fp <~> ? LIMIT 5")) {
            ps.setObject(1, hexFp, Types.OTHER);
            String p = plan(ps);
            if (!p.contains("Index Scan using client_docs_fp_idx")) failures.add("knn: the index is not used:\n" + p);
        }
        conn.rollback();
        conn.setAutoCommit(true);
    }

    // What the README warns about stays true: setString without stringtype=unspecified fails.
    static void pitfalls(Connection conn, String hexFp) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT fp <~> ? FROM client_docs LIMIT 1")) {
            ps.setString(1, hexFp);
            ps.executeQuery().close();
            failures.add("setString without stringtype=unspecified worked: update the README");
        } catch (SQLException e) {
            if (!"42883".equals(e.getSQLState())) failures.add("setString: " + e.getSQLState() + " " + e.getMessage());
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT ?::numeric::simhash64")) {
            ps.setBigDecimal(1, new BigDecimal(BigInteger.ONE.shiftLeft(64)));
            ps.executeQuery().close();
            failures.add("2^64 was accepted");
        } catch (SQLException e) {
            if (!"22003".equals(e.getSQLState())) failures.add("2^64: " + e.getSQLState() + " " + e.getMessage());
        }
    }
}
