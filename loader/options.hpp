// options.hpp
//    ndd-load's command line (psql's connection options, the limits, the inputs).
#ifndef NDD_LOAD_OPTIONS_HPP
#define NDD_LOAD_OPTIONS_HPP

#include <string>
#include <vector>

#include "extract.hpp"
#include "sandbox.hpp"

namespace ndd_load {

struct Options {
    std::string table;
    std::string dbname, host, port, username;  // empty: libpq's environment and defaults
    int jobs = 1;
    long batch_rows = 1000;
    long batch_mb = 64;
    WorkerLimits worker;
    ExtractLimits extract;
    bool retry_errors = false;  // inputs with an error row count as not loaded
    bool quiet = false;
    bool help = false;
    bool version = false;
    std::vector<std::string> paths;  // "-": standard input
};

// The exit statuses (doc/ndd-load.1, "EXIT STATUS").
enum ExitStatus {
    kExitOk = 0,            // every input loaded (or already there), none with an extraction error
    kExitFatal = 1,         // bad options, an input that cannot be listed, the table, a failed COPY, interrupted
    kExitConnection = 2,    // no connection to the server (psql's 2)
    kExitSomeErrors = 3,    // finished, but some documents have an error in their row
};

// Parses argv; on a mistake returns false with *error set (the caller prints it with the --help hint).
bool parse_options(int argc, char** argv, Options& opts, std::string& error);

const char* usage_text();

}  // namespace ndd_load

#endif  // NDD_LOAD_OPTIONS_HPP
