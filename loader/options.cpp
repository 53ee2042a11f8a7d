// options.cpp
//    The command line (options.hpp).
#include "options.hpp"

#include <getopt.h>

#include <cerrno>
#include <cstdlib>

namespace ndd_load {

namespace {

bool number(const char* s, long low, long high, long& out) {
    errno = 0;
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < low || v > high) return false;
    out = v;
    return true;
}

enum LongOnly { kBatchRows = 256, kBatchMb, kTimeout, kMemory, kMaxSize, kMaxDepth, kRetryErrors };

}  // namespace

const char* usage_text() {
    return "ndd-load loads documents (files, directories, archives, mail, WARC) into a PostgreSQL table.\n"
           "\n"
           "Usage:\n"
           "  ndd-load --table NAME [OPTION]... PATH...\n"
           "\n"
           "PATH is a file, a directory (read recursively) or - for standard input.\n"
           "\n"
           "Options:\n"
           "  -t, --table=NAME        table to load into (created if missing; NAME as in SQL)\n"
           "  -j, --jobs=N            extract N inputs at once (default 1; a WARC of 4 MB or more\n"
           "                          is shared among the N)\n"
           "      --batch-rows=N      commit after about N rows (default 1000)\n"
           "      --batch-mb=N        commit after about N MB of rows (default 64)\n"
           "      --timeout=S         seconds one input may take, wall clock and CPU (default 60, 0: none)\n"
           "      --memory=MB         address space of an extraction process (default 2048, 0: none)\n"
           "      --max-size=MB       largest document read, file or inflated member (default 256)\n"
           "      --max-depth=N       archives inside archives unpacked (default 4)\n"
           "      --retry-errors      extract again the inputs loaded with an error in a row\n"
           "  -q, --quiet             no progress line, no summary\n"
           "  -V, --version           output version information, then exit\n"
           "  -?, --help              show this help, then exit\n"
           "\n"
           "Connection options (as psql's; the PG* environment variables apply):\n"
           "  -d, --dbname=DBNAME     database name or connection string\n"
           "  -h, --host=HOSTNAME     database server host or socket directory\n"
           "  -p, --port=PORT         database server port\n"
           "  -U, --username=USERNAME database user name\n"
           "\n"
           "Exit status: 0 all loaded, 1 fatal error, 2 no connection, 3 loaded with error rows.\n"
           "See ndd-load(1) and doc/loader.md.\n";
}

bool parse_options(int argc, char** argv, Options& opts, std::string& error) {
    static const struct option longopts[] = {
        {"table", required_argument, nullptr, 't'},
        {"jobs", required_argument, nullptr, 'j'},
        {"batch-rows", required_argument, nullptr, kBatchRows},
        {"batch-mb", required_argument, nullptr, kBatchMb},
        {"timeout", required_argument, nullptr, kTimeout},
        {"memory", required_argument, nullptr, kMemory},
        {"max-size", required_argument, nullptr, kMaxSize},
        {"max-depth", required_argument, nullptr, kMaxDepth},
        {"retry-errors", no_argument, nullptr, kRetryErrors},
        {"quiet", no_argument, nullptr, 'q'},
        {"version", no_argument, nullptr, 'V'},
        {"help", no_argument, nullptr, '?'},
        {"dbname", required_argument, nullptr, 'd'},
        {"host", required_argument, nullptr, 'h'},
        {"port", required_argument, nullptr, 'p'},
        {"username", required_argument, nullptr, 'U'},
        {nullptr, 0, nullptr, 0},
    };
    optind = 1;
    opterr = 0;
    int c;
    long v;
    while ((c = getopt_long(argc, argv, "t:j:qV?d:h:p:U:", longopts, nullptr)) != -1) {
        switch (c) {
            case 't': opts.table = optarg; break;
            case 'j':
                if (!number(optarg, 1, 256, v)) return error = "invalid --jobs: " + std::string(optarg) + " (1 to 256)", false;
                opts.jobs = static_cast<int>(v);
                break;
            case kBatchRows:
                if (!number(optarg, 1, 100000000, v)) return error = "invalid --batch-rows: " + std::string(optarg), false;
                opts.batch_rows = v;
                break;
            case kBatchMb:
                if (!number(optarg, 1, 65536, v)) return error = "invalid --batch-mb: " + std::string(optarg), false;
                opts.batch_mb = v;
                break;
            case kTimeout:
                if (!number(optarg, 0, 86400, v)) return error = "invalid --timeout: " + std::string(optarg), false;
                opts.worker.timeout_s = static_cast<int>(v);
                break;
            case kMemory:
                if (!number(optarg, 0, 1 << 20, v) || (v > 0 && v < 64))
                    return error = "invalid --memory: " + std::string(optarg) + " (0, or 64 MB and more)", false;
                opts.worker.memory_bytes = static_cast<size_t>(v) << 20;
                break;
            case kMaxSize:
                // a text column holds at most 1 GB, and a document's row holds its text and its HTML
                if (!number(optarg, 1, 400, v)) return error = "invalid --max-size: " + std::string(optarg) + " (1 to 400 MB)", false;
                opts.extract.max_size = static_cast<size_t>(v) << 20;
                break;
            case kMaxDepth:
                if (!number(optarg, 0, 32, v)) return error = "invalid --max-depth: " + std::string(optarg) + " (0 to 32)", false;
                opts.extract.max_depth = static_cast<int>(v);
                break;
            case kRetryErrors: opts.retry_errors = true; break;
            case 'q': opts.quiet = true; break;
            case 'V': opts.version = true; return true;
            case 'd': opts.dbname = optarg; break;
            case 'h': opts.host = optarg; break;
            case 'p': opts.port = optarg; break;
            case 'U': opts.username = optarg; break;
            case '?': {
                std::string arg = argv[optind - 1];
                if (arg == "-?" || arg == "--help") {
                    opts.help = true;
                    return true;
                }
                return error = "invalid option or missing argument: " + arg, false;
            }
            default: return error = "invalid option", false;
        }
    }
    for (int i = optind; i < argc; i++) opts.paths.emplace_back(argv[i]);
    if (opts.table.empty()) return error = "no table given (--table NAME)", false;
    if (opts.paths.empty()) return error = "no input given (PATH..., or - for standard input)", false;
    return true;
}

}  // namespace ndd_load
