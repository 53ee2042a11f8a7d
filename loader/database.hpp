// database.hpp
//    The loader's side of the server (libpq): the connection, the table (created if missing), which
//    inputs are loaded already (the resume), and batches of rows by COPY, each its own transaction:
//    the rows of a batch are streamed while the workers extract (copy_rows), and commit() ends it.
#ifndef NDD_LOAD_DATABASE_HPP
#define NDD_LOAD_DATABASE_HPP

#include <libpq-fe.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "options.hpp"

namespace ndd_load {

struct DatabaseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The columns COPY fills, in the order of a row's fields (copy_row in ndd_load.cpp), then uri when the
// table has it (a table made before it existed, or by hand, may not).
extern const char* const kCopyColumns;

// What the table says of an input: not there, there as it is (skip it), or there in another version
// (size or modification time differ: its old rows are replaced).
enum class Seen { New, Loaded, Changed };

struct InputKey {
    std::string source;
    long long size;
    std::string modified;  // iso_time
};

class Database {
public:
    Database() = default;
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Connects (psql's options, then libpq's PG* environment); false with *error on failure.
    bool connect(const Options& opts, std::string& error);
    // Creates the table if it is missing; checks that an existing one has the columns.
    void prepare_table(const std::string& name);
    // For each key, whether the table has it (one query for the whole list). With retry_errors, an
    // input one of whose rows has an error (other than an unsupported format) is Changed. In the
    // middle of a batch, its COPY is ended for the query and begun again by the next copy_rows.
    std::vector<Seen> seen(const std::vector<InputKey>& keys, bool retry_errors);
    // Whether the table has the uri column (COPY fills it then).
    bool has_uri() const { return has_uri_; }
    // COPY text (whole rows) into the batch's transaction, begun (with its COPY) when there is none.
    void copy_rows(std::string_view rows);
    // Ends the batch: its COPY, then deletes the rows of `replace` (sources of changed inputs), COPYs
    // the COPY text of the file spool_fd (its first `bytes` bytes: the changed inputs' new rows,
    // which must come after the deletion) and commits. A transaction even when nothing was streamed.
    void commit(const std::vector<std::string>& replace, int spool_fd, size_t bytes);
    // Rolls back the batch (an interrupted run): what it held is loaded by the next run.
    void rollback();
    const std::string& table() const { return table_; }

private:
    void exec(const std::string& sql);
    void begin_copy();
    void end_copy();
    PGconn* conn_ = nullptr;
    bool in_transaction_ = false, in_copy_ = false;
    std::string table_;  // quoted, schema-qualified as given
    bool has_uri_ = false;
};

}  // namespace ndd_load

#endif  // NDD_LOAD_DATABASE_HPP
