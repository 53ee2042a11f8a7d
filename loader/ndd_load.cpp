// ndd_load.cpp
//    ndd-load: reads documents (files, directories, archives, standard input) and loads them into a
//    table, one row per document (doc/loader.md, doc/ndd-load.1). The main process lists the inputs,
//    asks the table which are loaded already, keeps a pool of --jobs worker processes (sandbox.hpp),
//    each extracting one input (or one part of a large WARC's records) at a time (extract.hpp),
//    turns their frames into COPY rows streamed to the server as the workers write them, and commits
//    by batches, each its own transaction, each holding whole inputs only: an interrupted run leaves
//    no input half loaded, and the next run starts where it stopped.
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "database.hpp"
#include "extract.hpp"
#include "options.hpp"
#include "record.hpp"
#include "sandbox.hpp"

using namespace ndd_load;
using Clock = std::chrono::steady_clock;

namespace {

const char* const kVersion = "ndd-load (ndd) 0.2.0";

volatile sig_atomic_t interrupted = 0;
void on_signal(int) { interrupted = 1; }

struct Input {
    std::string path;    // what to open
    std::string source;  // the source column: the absolute path, "-" for standard input
    long long size = 0;
    std::string modified;
    std::string error;  // set when the input cannot be read at all (no worker runs)
    Seen seen = Seen::New;
    bool done = false;  // its rows are in (or it was loaded already): it may leave the window
};

std::string absolute(const std::string& path) {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::absolute(path, ec);
    return ec ? path : p.lexically_normal().string();
}

Input input_of(const std::string& path, const struct stat& st) {
    Input in;
    in.path = path;
    in.source = absolute(path);
    in.size = st.st_size;
    in.modified = iso_time(st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    return in;
}

// The inputs named by the command line, one at a time: a directory's regular files in name order,
// depth first, walked as the loader goes (a directory's names are read when the walk enters it), so
// that a million files are never a list in memory. Symbolic links inside directories are not
// followed (a link to a parent directory would never end); an unreadable directory becomes an input
// whose row holds the error.
class Lister {
public:
    struct Arg {
        std::string path;
        struct stat st;
        std::optional<Input> made;  // standard input, spooled already
    };
    explicit Lister(std::vector<Arg> args) : args_(std::move(args)) {}

    bool next(Input& out) {
        for (;;) {
            while (!stack_.empty()) {
                Dir& d = stack_.back();
                if (d.next == d.names.size()) {
                    stack_.pop_back();
                    continue;
                }
                std::string path = d.path + (d.path.back() == '/' ? "" : "/") + d.names[d.next++];
                struct stat st;
                if (lstat(path.c_str(), &st) != 0) continue;
                if (S_ISDIR(st.st_mode)) {
                    if (enter(path, out)) return true;
                } else if (S_ISREG(st.st_mode)) {
                    out = input_of(path, st);
                    return true;
                }
            }
            if (arg_ == args_.size()) return false;
            const Arg& a = args_[arg_++];
            if (a.made) {
                out = *a.made;
                return true;
            }
            if (!S_ISDIR(a.st.st_mode)) {
                out = input_of(a.path, a.st);
                return true;
            }
            if (enter(a.path, out)) return true;
        }
    }

private:
    struct Dir {
        std::string path;
        std::vector<std::string> names;  // sorted
        size_t next = 0;
    };
    // Starts the walk of dir; true with its error input when it cannot be read.
    bool enter(const std::string& dir, Input& error) {
        std::unique_ptr<DIR, int (*)(DIR*)> d(opendir(dir.c_str()), closedir);
        if (!d) {
            error = Input();
            error.path = dir;
            error.source = absolute(dir);
            error.error = std::string("cannot read the directory: ") + std::strerror(errno);
            return true;
        }
        Dir entry;
        entry.path = dir;
        while (dirent* e = readdir(d.get())) {
            if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) entry.names.emplace_back(e->d_name);
        }
        std::sort(entry.names.begin(), entry.names.end());
        stack_.push_back(std::move(entry));
        return false;
    }
    std::vector<Arg> args_;
    size_t arg_ = 0;
    std::vector<Dir> stack_;
};

// Standard input, copied into an unlinked temporary file (the workers read it by position).
int spool_stdin(const std::string& tmpdir, long long& size) {
    std::string path = tmpdir + "/ndd-load-stdin.XXXXXX";
    std::vector<char> name(path.begin(), path.end());
    name.push_back('\0');
    int fd = mkstemp(name.data());
    if (fd < 0) return -1;
    unlink(name.data());
    std::vector<char> buf(1 << 16);
    ssize_t n;
    size = 0;
    while ((n = read(0, buf.data(), buf.size())) > 0) {
        if (write(fd, buf.data(), static_cast<size_t>(n)) != n) {
            close(fd);
            return -1;
        }
        size += n;
    }
    return n < 0 ? (close(fd), -1) : fd;
}

bool plausible_time(const std::string& s) {
    return !s.empty() && s.size() < 40 && s.find_first_not_of("0123456789-:. +") == std::string::npos;
}

bool plausible_hash(const std::string& s) {
    return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// One COPY row of a document of source. Every text is cleaned to UTF-8 here, in the main process,
// whatever the worker sent: one bad byte would fail the whole batch.
void copy_row(const std::string& source, const Document& doc, bool with_uri, std::string& out) {
    auto field = [&out](const std::optional<std::string>& s) {
        if (!s) out += "\\N";
        else if (valid_utf8(*s)) copy_text(*s, out);
        else copy_text(clean_utf8(*s), out);
    };
    std::optional<std::string> size;
    if (doc.size) size = std::to_string(*doc.size);
    std::optional<std::string> hash = doc.hash && plausible_hash(*doc.hash) ? doc.hash : std::nullopt;
    std::optional<std::string> modified = doc.modified && plausible_time(*doc.modified) ? doc.modified : std::nullopt;
    const std::optional<std::string>* fields[] = {&doc.member, &doc.format, &size,     &hash,      &modified,
                                                  &doc.title,  &doc.text,   &doc.html, &doc.meta, &doc.error};
    field(source);
    for (const auto* f : fields) {
        out += '\t';
        field(*f);
    }
    if (with_uri) {
        out += '\t';
        field(doc.uri);
    }
    out += '\n';
}

std::string megabytes(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
    return buf;
}

std::string duration(double s) {
    char buf[32];
    long t = static_cast<long>(s + 0.5);
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    return buf;
}

class Loader {
public:
    Loader(const Options& opts, Database& db, magic_t magic) : opts_(opts), db_(db), magic_(magic) {
        const char* t = std::getenv("TMPDIR");
        tmpdir_ = t && *t ? t : "/tmp";
        progress_ = !opts.quiet && isatty(2);
    }

    int run();

private:
    // Where COPY rows go: the server, streamed into the batch's COPY (stream_: the rows of new
    // inputs), a file (spool_: the new rows of changed inputs, sent at the commit after their old
    // rows are deleted; a changed split input's file until all its parts are in).
    struct Sink {
        int fd = -1;  // -1: the server
        size_t bytes = 0;
        long rows = 0;
    };
    // What the main process has read of a busy worker's output, as it grows (rows are sent while
    // the worker extracts) and at its end: the frames read, the documents to drop (written before,
    // by a worker that stopped inside a member: a retry writes them again), the input's own row.
    struct Reading {
        FrameReader reader{std::string_view(), 0};
        size_t drop = 0;
        std::optional<Document> own;
    };
    // What a worker's output says of how it ended.
    struct OutputEnd {
        std::optional<std::string> unfinished;  // the member it was reading when it stopped
        bool damaged = false;                   // its last frame is cut short
    };
    using Crashed = std::vector<std::pair<std::string, std::string>>;  // member, error

    bool list_inputs(std::string& error);
    bool have(size_t i);
    Input& input(size_t i) { return window_[i - window_base_]; }
    int extract(const std::string& path, uint32_t part, uint32_t parts, const std::set<std::string>& skip, int out_fd);
    bool assign(Worker& w, size_t i, uint32_t part = 0, uint32_t parts = 0);
    void finish(Worker& w, const std::string& problem);
    void finish_part(Worker& w, const std::string& problem);
    void finish_gone(Worker& w, bool kill_it);
    void start_split(Worker& w);
    void stop_all();
    Reading& reading(const Worker& w) { return readings_[static_cast<size_t>(&w - workers_.data())]; }
    Sink& sink_of(size_t i);
    void consume(size_t i, int out_fd, Reading& r);
    void stream_while_busy();
    bool batch_full() const;
    void write_rows(const Input& in, const std::vector<Document>& docs, Sink& sink);
    void crashed_rows(const Input& in, const Crashed& crashed, Sink& sink);
    Document failed_row(const Input& in, const std::string& problem, const OutputEnd& end);
    void error_input(size_t i, const std::string& problem);
    void input_done(Input& in);
    void flush();
    void show_progress(bool final);

    const Options& opts_;
    Database& db_;
    magic_t magic_;
    std::string tmpdir_;
    bool progress_;
    // The inputs being listed (Lister) and those not done yet: window_ holds inputs window_base_ on,
    // listed by a thousand, each thousand's resume looked up in one query (Database::seen); the
    // inputs before window_base_ are done and forgotten. A file named twice (a directory and a file
    // in it) is one input: with more than one path, the 128-bit hashes of the sources listed so far
    // (16 bytes each, not the names) tell.
    std::unique_ptr<Lister> lister_;
    std::deque<Input> window_;
    size_t window_base_ = 0, listed_ = 0;
    bool listing_done_ = false, dedup_ = false;
    std::set<std::pair<uint64_t, uint64_t>> sources_;
    int stdin_fd_ = -1;

    // a worker serves this many inputs, then another takes its place: what a library leaks or
    // fragments on one input does not add up over a million
    static constexpr size_t kInputsPerWorker = 1000;
    std::vector<Worker> workers_;
    std::vector<Reading> readings_;  // one per worker
    // Inputs (or parts of one) extracted again after a worker crashed or was stopped inside one of
    // their members: the members to skip, and each one's error row. At most kMaxRetries retries of
    // an input or part (each may take --timeout): then the input's own row says what stopped the
    // last worker.
    struct Retry {
        std::set<std::string> skip;
        Crashed crashed;
        size_t written = 0;  // documents of its output written already: the retry's first ones
        size_t repeated = 0;  // retries that stopped before reaching `written` (made again as they were)
    };
    using Task = std::pair<size_t, uint32_t>;  // an input, its part (0 for a whole input)
    std::map<Task, Retry> retries_;
    static constexpr size_t kMaxRetries = 10;

    // Large WARC files, extracted in parts by all the workers at once (Extractor::part): the parts
    // waiting for a worker, and for each input being split, its rows so far when it is a changed
    // input (a file of its own: they follow the deletion of its old rows), part 0's row of the
    // input (written last), and what stopped parts that failed.
    std::deque<Task> part_queue_;
    struct Split {
        uint32_t parts = 0, done = 0;
        Sink rows;
        std::optional<Document> own;
        std::string problems;
    };
    std::map<size_t, Split> splits_;

    // The batch: the rows streamed, the spool, the sources whose old rows it deletes, and the inputs
    // some of whose rows (not all) it holds. It commits at an input's end once it holds batch_rows
    // rows or batch_mb, and only when it holds no part of an input (open_ empty): an interrupted
    // run never leaves an input half loaded, and its rerun loads each input's rows exactly once.
    // Once it is full, a worker's rows wait for the end of its input unless they began to stream
    // in this batch: the inputs of open_ end, and no new one opens, until it commits.
    Sink stream_, spool_;
    std::vector<std::string> replace_;
    std::set<size_t> open_;
    static constexpr size_t kStreamBytes = 256 << 10;  // a busy worker's output read by this much at least

    Clock::time_point started_ = Clock::now(), last_progress_;
    long long total_bytes_ = 0, done_bytes_ = 0, extracted_bytes_ = 0;
    size_t done_inputs_ = 0, skipped_ = 0, committed_inputs_ = 0, pending_inputs_ = 0;
    long long rows_ = 0, errors_ = 0, unsupported_ = 0, workers_started_ = 0;
};

bool Loader::list_inputs(std::string& error) {
    std::vector<Lister::Arg> args;
    for (const std::string& path : opts_.paths) {
        Lister::Arg arg;
        arg.path = path;
        if (path == "-") {
            if (stdin_fd_ >= 0) return error = "standard input (-) given twice", false;
            long long size = 0;
            stdin_fd_ = spool_stdin(tmpdir_, size);
            if (stdin_fd_ < 0) return error = std::string("cannot read standard input: ") + std::strerror(errno), false;
            Input in;
            in.path = "-";
            in.source = "-";
            in.size = size;
            auto now = std::chrono::system_clock::now().time_since_epoch();
            in.modified = iso_time(std::chrono::duration_cast<std::chrono::seconds>(now).count(), 0);
            arg.made = std::move(in);
        } else if (stat(path.c_str(), &arg.st) != 0) {
            return error = path + ": " + std::strerror(errno), false;
        }
        args.push_back(std::move(arg));
    }
    dedup_ = args.size() > 1;
    lister_ = std::make_unique<Lister>(std::move(args));
    return true;
}

// Whether input i is listed (listing the next thousand when it is not yet). The inputs done before
// i leave the window first: a rerun skips those loaded already in one go, and a million of them
// must not pile up before the first that needs a worker.
bool Loader::have(size_t i) {
    while (!window_.empty() && window_.front().done && window_base_ < i) {
        window_.pop_front();
        window_base_++;
    }
    while (i >= window_base_ + window_.size() && !listing_done_) {
        size_t first = window_.size();
        Input in;
        while (window_.size() - first < 1000) {
            if (!lister_->next(in)) {
                listing_done_ = true;
                break;
            }
            if (dedup_ && in.source != "-") {
                XXH128_hash_t h = XXH3_128bits(in.source.data(), in.source.size());
                if (!sources_.insert({h.high64, h.low64}).second) continue;
            }
            total_bytes_ += in.size;
            window_.push_back(std::move(in));
        }
        listed_ += window_.size() - first;
        // what the table has already
        std::vector<InputKey> keys;
        for (size_t j = first; j < window_.size(); j++) keys.push_back({window_[j].source, window_[j].size, window_[j].modified});
        std::vector<Seen> seen = db_.seen(keys, opts_.retry_errors);
        for (size_t j = first; j < window_.size(); j++) window_[j].seen = window_[j].source == "-" ? Seen::New : seen[j - first];
    }
    return i < window_base_ + window_.size();
}

// In a worker process: extracts the input at path into out_fd (sandbox.hpp's WorkerBody).
int Loader::extract(const std::string& path, uint32_t part, uint32_t parts, const std::set<std::string>& skip, int out_fd) {
    Extractor ex(magic_, opts_.extract, out_fd);
    ex.skip(skip);
    ex.part(part, parts, static_cast<uint32_t>(opts_.jobs));
    int fd = path == "-" ? dup(stdin_fd_) : open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    std::string name = path == "-" ? "stdin" : std::filesystem::path(path).filename().string();
    auto error_row = [&](const std::string& what) {
        Document doc;
        doc.error = what;
        std::string frame;
        frame_document(doc, frame);
        return write(out_fd, frame.data(), frame.size()) == static_cast<ssize_t>(frame.size()) ? 0 : 1;
    };
    if (fd < 0 || fstat(fd, &st) != 0) {
        int status = error_row(std::string("cannot open the file: ") + std::strerror(errno));
        if (fd >= 0) close(fd);
        return status;
    }
    if (path == "-") st.st_mtim.tv_sec = 0;
    int status = 0;
    try {
        if (!ex.input(fd, name, st)) status = kStatusSplit;
    } catch (const std::exception& e) {
        status = error_row(e.what());
    }
    close(fd);  // a long-lived worker: nothing of one input stays open for the next
    return status;
}

// Gives input i to w, starting a process for it first when it has none (or replacing one that
// served its share or is gone). False when no worker takes it: the input's row says why.
bool Loader::assign(Worker& w, size_t i, uint32_t part, uint32_t parts) {
    for (int attempt = 0; attempt < 2; attempt++) {
        if (w.pid >= 0 && w.served >= kInputsPerWorker) stop_worker(w, opts_.worker, false);
        if (w.pid < 0) {
            std::vector<int> others;
            for (const Worker& o : workers_)
                if (&o != &w && o.pid >= 0) others.insert(others.end(), {o.out_fd, o.request_fd, o.reply_fd});
            w = start_worker(opts_.worker, tmpdir_, others,
                             [this](const std::string& path, uint32_t p, uint32_t n,
                                    const std::set<std::string>& skip,
                                    int out_fd) { return extract(path, p, n, skip, out_fd); });
            workers_started_++;
        }
        auto retry = retries_.find({i, part});
        if (assign_input(w, i, input(i).path, part, parts,
                         retry == retries_.end() ? std::set<std::string>() : retry->second.skip, opts_.worker)) {
            Reading& r = reading(w);
            r = Reading();
            r.drop = retry == retries_.end() ? 0 : retry->second.written;
            return true;
        }
        stop_worker(w, opts_.worker, true);  // gone while idle (killed from outside): try a new one
    }
    return false;
}

Loader::Sink& Loader::sink_of(size_t i) {
    if (input(i).seen != Seen::Changed) return stream_;
    auto split = splits_.find(i);
    return split != splits_.end() ? split->second.rows : spool_;
}

// Turns what is new in out_fd, the output of input i (whole frames: the last one may be half
// written still), into rows, but the input's own row, kept aside until the input is done.
void Loader::consume(size_t i, int out_fd, Reading& r) {
    struct stat st;
    if (out_fd < 0 || fstat(out_fd, &st) != 0 || static_cast<size_t>(st.st_size) <= r.reader.position()) return;
    size_t size = static_cast<size_t>(st.st_size);
    void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, out_fd, 0);
    if (map == MAP_FAILED) throw std::runtime_error(std::string("cannot map a worker's output: ") + std::strerror(errno));
    r.reader.extend(std::string_view(static_cast<const char*>(map), size), size);
    Input& in = input(i);
    Sink& sink = sink_of(i);
    long before = sink.rows;
    std::vector<Document> docs;
    Document doc;
    size_t bytes = 0;
    while (r.reader.next(doc)) {
        if (!doc.member) {
            // the input's own row: the key of the resume is the file's, not what the worker saw
            doc.size = in.size;
            doc.modified = in.modified;
            r.own = std::move(doc);
            continue;
        }
        if (r.drop > 0) {  // written by the worker before this one
            r.drop--;
            continue;
        }
        bytes += (doc.text ? doc.text->size() : 0) + (doc.html ? doc.html->size() : 0);
        docs.push_back(std::move(doc));
        if (bytes > (1 << 22)) {  // COPY text 4 MB at a time
            write_rows(in, docs, sink);
            docs.clear();
            bytes = 0;
        }
    }
    write_rows(in, docs, sink);
    munmap(map, size);
    if (sink.rows > before && (&sink == &stream_ || &sink == &spool_)) open_.insert(i);
}

// The rows of the busy workers' outputs so far, sent while they extract (those of changed inputs
// wait: they follow the deletion of the old rows at the commit).
void Loader::stream_while_busy() {
    bool full = batch_full();
    for (Worker& w : workers_) {
        if (!w.busy || input(w.input).seen == Seen::Changed || (full && !open_.count(w.input))) continue;
        Reading& r = reading(w);
        struct stat st;
        if (fstat(w.out_fd, &st) == 0 && static_cast<size_t>(st.st_size) >= r.reader.position() + kStreamBytes)
            consume(w.input, w.out_fd, r);
    }
}

bool Loader::batch_full() const {
    return stream_.rows + spool_.rows >= opts_.batch_rows ||
           stream_.bytes + spool_.bytes >= static_cast<size_t>(opts_.batch_mb) << 20;
}

// The input of the busy worker w is over: done (problem empty or its status) or w is gone (problem
// says how; it has been reaped already). The rest of its rows and its own row go to the batch.
void Loader::finish(Worker& w, const std::string& problem) {
    if (w.parts > 0) return finish_part(w, problem);
    size_t i = w.input;
    Input& in = input(i);
    Reading& r = reading(w);
    consume(i, w.out_fd, r);
    OutputEnd end{r.reader.unfinished(), r.reader.truncated()};
    Sink& sink = sink_of(i);
    auto retry = retries_.find({i, 0});
    if (retry != retries_.end()) {
        crashed_rows(in, retry->second.crashed, sink);
        retries_.erase(retry);
    }
    write_rows(in, {r.own ? *r.own : failed_row(in, problem, end)}, sink);
    r = Reading();
    w.busy = false;
    open_.erase(i);
    if (in.seen == Seen::Changed) replace_.push_back(in.source);
    pending_inputs_++;
    input_done(in);
}

// An input no worker extracts: its row says why (problem, else the input's own error).
void Loader::error_input(size_t i, const std::string& problem) {
    Input& in = input(i);
    write_rows(in, {failed_row(in, problem, OutputEnd())}, sink_of(i));
    if (in.seen == Seen::Changed) replace_.push_back(in.source);
    pending_inputs_++;
    input_done(in);
}

void Loader::input_done(Input& in) {
    in.done = true;
    done_inputs_++;
    done_bytes_ += in.size;
    extracted_bytes_ += in.size;
    if (batch_full()) flush();
}

// The worker w says its whole input is a large WARC: its parts go to the queue, one per worker.
void Loader::start_split(Worker& w) {
    Split& split = splits_[w.input];
    split.parts = static_cast<uint32_t>(std::max(1, opts_.jobs));
    if (input(w.input).seen == Seen::Changed) {
        std::string path = tmpdir_ + "/ndd-load-part.XXXXXX";
        std::vector<char> name(path.begin(), path.end());
        name.push_back('\0');
        split.rows.fd = mkstemp(name.data());
        if (split.rows.fd < 0)
            throw std::runtime_error("cannot create a temporary file in " + tmpdir_ + ": " + std::strerror(errno));
        unlink(name.data());
    }
    for (uint32_t p = 0; p < split.parts; p++) part_queue_.emplace_back(w.input, p);
    w.busy = false;
}

// A part of a split input is over (as finish): its rows join the input's; after the last part, the
// input's own row (part 0's, with the failed parts' problems) ends them.
void Loader::finish_part(Worker& w, const std::string& problem) {
    size_t i = w.input;
    Input& in = input(i);
    Split& split = splits_[i];
    Reading& r = reading(w);
    consume(i, w.out_fd, r);
    OutputEnd end{r.reader.unfinished(), r.reader.truncated()};
    Sink& sink = sink_of(i);
    auto retry = retries_.find({i, w.part});
    if (retry != retries_.end()) {
        crashed_rows(in, retry->second.crashed, sink);
        retries_.erase(retry);
    }
    if (&sink == &stream_) open_.insert(i);  // the batch holds part of it until its last part
    if (r.own) split.own = std::move(r.own);
    if (!problem.empty() || end.damaged || (w.part == 0 && !split.own)) {
        Document failed = failed_row(in, problem, end);
        split.problems += (split.problems.empty() ? "" : "; ") + ("part " + std::to_string(w.part + 1) + " of " +
                                                                   std::to_string(split.parts) + ": " + *failed.error);
    }
    r = Reading();
    w.busy = false;
    if (++split.done < split.parts) return;
    // all parts are in
    Document own_row = split.own ? std::move(*split.own) : Document();
    own_row.size = in.size;
    own_row.modified = in.modified;
    if (!split.problems.empty()) own_row.error = (own_row.error ? *own_row.error + "; " : "") + split.problems;
    if (split.rows.fd >= 0) {
        // a changed input's rows, whole now, join the spool
        std::vector<char> buf(1 << 20);
        for (size_t done = 0; done < split.rows.bytes;) {
            ssize_t n = pread(split.rows.fd, buf.data(), std::min(buf.size(), split.rows.bytes - done), static_cast<off_t>(done));
            if (n <= 0 || pwrite(spool_.fd, buf.data(), static_cast<size_t>(n), static_cast<off_t>(spool_.bytes)) != n)
                throw std::runtime_error(std::string("cannot copy rows into the spool file: ") + std::strerror(errno));
            done += static_cast<size_t>(n);
            spool_.bytes += static_cast<size_t>(n);
        }
        spool_.rows += split.rows.rows;
        close(split.rows.fd);
    }
    write_rows(in, {own_row}, in.seen == Seen::Changed ? spool_ : stream_);
    open_.erase(i);
    if (in.seen == Seen::Changed) replace_.push_back(in.source);
    pending_inputs_++;
    splits_.erase(i);
    input_done(in);
}

// The busy worker w is gone (or is killed now): reaped first, so that its input's row says how, its
// output file kept open until the rows are read. The documents it wrote are kept. When it stopped
// inside a member of its input (an archive's, a WARC record, a message of an mbox), the input is
// extracted again by a new worker, that member left out and given an error row of its own, and the
// documents written before the member began left out too (written already): the members after it
// are not lost, and none is written twice.
void Loader::finish_gone(Worker& w, bool kill_it) {
    int out_fd = dup(w.out_fd);
    uint64_t input = w.input;
    uint32_t part = w.part, parts = w.parts;
    std::string problem = stop_worker(w, opts_.worker, kill_it);
    if (!interrupted) {
        Reading& r = reading(w);
        consume(input, out_fd, r);
        std::optional<std::string> member = r.reader.unfinished();
        Retry& retry = retries_[{input, part}];
        bool again = false;
        if (member && r.drop > 0 && retry.repeated < kMaxRetries) {
            // it stopped among the documents a worker before it wrote already, inside a member that
            // worker got through (a limit under load, a kill from outside): not the member's fault,
            // and its documents are in; the same retry again, nothing more left out
            retry.repeated++;
            again = true;
        } else if (member && r.drop == 0 && !retry.skip.count(*member) && retry.crashed.size() < kMaxRetries) {
            retry.skip.insert(*member);
            retry.crashed.emplace_back(*member, problem);
            retry.written = r.reader.documents_before_unfinished();
            again = true;
        }
        if (again) {
            close(out_fd);
            if (assign(w, input, part, parts)) return;
            out_fd = -1;
            problem = "no worker process would start";
        }
    }
    w.out_fd = out_fd;
    w.input = input;
    w.part = part;
    w.parts = parts;
    finish(w, problem);
    close(out_fd);
    w.out_fd = -1;
}

void Loader::stop_all() {
    for (Worker& w : workers_) stop_worker(w, opts_.worker, w.busy);
}

// Appends the COPY rows of docs (documents of in) to sink.
void Loader::write_rows(const Input& in, const std::vector<Document>& docs, Sink& sink) {
    std::string rows;
    for (const Document& doc : docs) {
        rows_++;
        if (doc.error) (doc.format && *doc.format == "unsupported" ? unsupported_ : errors_)++;
        copy_row(in.source, doc, db_.has_uri(), rows);
        sink.rows++;
    }
    if (rows.empty()) return;
    if (sink.fd < 0) db_.copy_rows(rows);
    else if (pwrite(sink.fd, rows.data(), rows.size(), static_cast<off_t>(sink.bytes)) != static_cast<ssize_t>(rows.size()))
        throw std::runtime_error(std::string("cannot write the spool file: ") + std::strerror(errno));
    sink.bytes += rows.size();
}

// The error rows of the members that crashed or stopped earlier workers on an input.
void Loader::crashed_rows(const Input& in, const Crashed& crashed, Sink& sink) {
    std::vector<Document> docs;
    for (const auto& [member, error] : crashed) {
        Document doc;
        doc.member = member;
        doc.error = error;
        docs.push_back(std::move(doc));
    }
    write_rows(in, docs, sink);
}

// The input's own row when its output has none: why (problem, else the input's own error).
Document Loader::failed_row(const Input& in, const std::string& problem, const OutputEnd& end) {
    Document doc;
    doc.size = in.size;
    doc.modified = in.modified;
    std::string what = !in.error.empty() ? in.error : !problem.empty() ? problem : "the extraction ended without a result";
    if (end.unfinished) what += " while reading member " + *end.unfinished;
    if (end.damaged) what += " (its output was cut short)";
    doc.error = what;
    return doc;
}

// Commits the batch, when it holds whole inputs only (open_ above).
void Loader::flush() {
    if (pending_inputs_ == 0 || !open_.empty()) return;
    db_.commit(replace_, spool_.fd, spool_.bytes);
    committed_inputs_ += pending_inputs_;
    pending_inputs_ = 0;
    stream_ = Sink();
    spool_.bytes = 0;
    spool_.rows = 0;
    replace_.clear();
    if (ftruncate(spool_.fd, 0) != 0) throw std::runtime_error("cannot empty the spool file");
}

void Loader::show_progress(bool final) {
    if (!progress_) return;
    auto now = Clock::now();
    if (!final && now - last_progress_ < std::chrono::milliseconds(250)) return;
    last_progress_ = now;
    double elapsed = std::chrono::duration<double>(now - started_).count();
    double rate = elapsed > 0 ? extracted_bytes_ / elapsed : 0;
    // the totals grow while the directories are walked: no ETA until the walk is over
    std::string eta = rate > 0 && listing_done_ ? duration((total_bytes_ - done_bytes_) / rate) : "?";
    const char* more = listing_done_ ? "" : "+";
    std::fprintf(stderr, "\r%zu/%zu%s files, %s/%s%s, %s/s, ETA %s   ", done_inputs_, listed_, more,
                 megabytes(done_bytes_).c_str(), megabytes(total_bytes_).c_str(), more, megabytes(rate).c_str(),
                 eta.c_str());
    if (final) std::fputs("\r\033[K", stderr);
}

int Loader::run() {
    std::string error;
    if (!list_inputs(error)) {
        std::fprintf(stderr, "ndd-load: error: %s\n", error.c_str());
        return kExitFatal;
    }
    std::string spool = tmpdir_ + "/ndd-load-spool.XXXXXX";
    std::vector<char> name(spool.begin(), spool.end());
    name.push_back('\0');
    spool_.fd = mkstemp(name.data());
    if (spool_.fd < 0) throw std::runtime_error("cannot create a spool file in " + tmpdir_ + ": " + std::strerror(errno));
    unlink(name.data());

    workers_.assign(static_cast<size_t>(std::max(1, opts_.jobs)), Worker());
    readings_.assign(workers_.size(), Reading());
    size_t next = 0;
    auto busy = [&]() {
        return std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return w.busy; });
    };
    while ((have(next) || busy() || !part_queue_.empty()) && !interrupted) {
        for (Worker& w : workers_) {
            while (!w.busy && !interrupted && !part_queue_.empty()) {
                // the parts of a split input first: its rows wait for all of them
                auto [i, part] = part_queue_.front();
                part_queue_.pop_front();
                if (!assign(w, i, part, splits_[i].parts)) {
                    reading(w) = Reading();
                    w.input = i;
                    w.part = part;
                    w.parts = splits_[i].parts;
                    finish_part(w, "no worker process would start");
                }
            }
            while (!w.busy && have(next) && !interrupted) {
                Input& in = input(next);
                if (in.seen == Seen::Loaded) {
                    skipped_++;
                    done_inputs_++;
                    done_bytes_ += in.size;
                    in.done = true;
                } else if (!in.error.empty()) {
                    error_input(next, "");
                } else if (!assign(w, next)) {
                    error_input(next, "no worker process would start");
                }
                next++;
            }
        }
        if (!busy()) continue;
        std::vector<pollfd> fds;
        std::vector<Worker*> polled;
        auto soonest = Clock::time_point::max();
        for (Worker& w : workers_) {
            if (!w.busy) continue;
            fds.push_back({w.reply_fd, POLLIN, 0});
            polled.push_back(&w);
            soonest = std::min(soonest, w.deadline);
        }
        auto now = Clock::now();
        // awake every 50 ms at least: the busy workers' rows are sent as they come (stream_while_busy)
        long wait_ms = 50;
        if (soonest != Clock::time_point::max())
            wait_ms = std::clamp<long>(std::chrono::duration_cast<std::chrono::milliseconds>(soonest - now).count() + 1, 0, 50);
        int n = poll(fds.data(), fds.size(), static_cast<int>(wait_ms));
        if (n < 0 && errno != EINTR) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
        now = Clock::now();
        for (size_t k = 0; k < polled.size(); k++) {
            Worker& w = *polled[k];
            if (n > 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR))) {
                int status = 0;
                if (!read_reply(w, status)) finish_gone(w, false);
                else if (status == kStatusSplit && w.parts == 0) start_split(w);
                else finish(w, status_problem(status));
            } else if (now >= w.deadline) {
                w.timed_out = true;
                finish_gone(w, true);
            }
        }
        stream_while_busy();
        show_progress(false);
    }
    if (interrupted) {
        stop_all();
        db_.rollback();
        show_progress(true);
        std::fprintf(stderr,
                     "ndd-load: interrupted: %zu inputs committed, the %zu of the last batch not; run the same "
                     "command again to load the rest\n",
                     committed_inputs_, pending_inputs_ + open_.size());
        return kExitFatal;
    }
    stop_all();
    if (!open_.empty()) throw std::logic_error("the run ended with an input partly loaded");
    flush();
    show_progress(true);
    double elapsed = std::chrono::duration<double>(Clock::now() - started_).count();
    if (!opts_.quiet)
        std::fprintf(stderr,
                     "ndd-load: %zu inputs (%s) in %.1f s: %zu loaded as %lld rows into %s, %zu already loaded; "
                     "%lld with errors, %lld of unsupported formats; %lld worker processes\n",
                     listed_, megabytes(total_bytes_).c_str(), elapsed, listed_ - skipped_, rows_,
                     db_.table().c_str(), skipped_, errors_, unsupported_, workers_started_);
    return errors_ > 0 ? kExitSomeErrors : kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    Options opts;
    std::string error;
    if (!parse_options(argc, argv, opts, error)) {
        std::fprintf(stderr, "ndd-load: error: %s\nTry \"ndd-load --help\" for more information.\n", error.c_str());
        return kExitFatal;
    }
    if (opts.help) {
        std::fputs(usage_text(), stdout);
        return kExitOk;
    }
    if (opts.version) {
        std::puts(kVersion);
        return kExitOk;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);

    std::unique_ptr<std::remove_pointer_t<magic_t>, void (*)(magic_t)> magic(magic_open(MAGIC_MIME_TYPE), magic_close);
    if (!magic || magic_load(magic.get(), nullptr) != 0) {
        std::fprintf(stderr, "ndd-load: error: cannot load libmagic's database: %s\n",
                     magic ? magic_error(magic.get()) : "out of memory");
        return kExitFatal;
    }
    // libmagic compiles its regular expressions on first use and keeps them: compiled here once, the
    // workers inherit them instead of compiling them again for every input (7 ms an input)
    for (const char* sample : {"plain words of text\n", "<html><head><title>t</title></head></html>\n",
                               "From: a@example.com\nSubject: s\n\nbody\n", "{\"json\": 1}\n",
                               "#!/bin/sh\necho hi\n", "\x89PNG\r\n\x1a\n"})
        magic_buffer(magic.get(), sample, std::strlen(sample));
    Database db;
    if (!db.connect(opts, error)) {
        std::fprintf(stderr, "ndd-load: error: %s\n", error.c_str());
        return kExitConnection;
    }
    try {
        db.prepare_table(opts.table);
        Loader loader(opts, db, magic.get());
        return loader.run();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ndd-load: error: %s\n", e.what());
        return kExitFatal;
    }
}
