// sandbox.hpp
//    Worker processes: a pool of long-lived processes (fork) extracts the inputs, one input at a time
//    each, under an address space limit (setrlimit RLIMIT_AS), a CPU time limit per input (the soft
//    RLIMIT_CPU moved before every input to the CPU time used so far plus the limit) and a wall-clock
//    deadline per input (SIGKILL). A worker writes an input's frames into an unlinked temporary file
//    of its own, from its start, then one status byte on its reply pipe. A library that crashes, loops
//    or eats memory on a hostile file takes down that process only: the main process, which alone
//    talks to the server, turns the outcome into an error row, reaps the worker and starts another.
//    A process per input cost about 4 ms of CPU for a small file (fork, page faults, libmagic's
//    tables touched anew); a long-lived worker pays that once.
#ifndef NDD_LOAD_SANDBOX_HPP
#define NDD_LOAD_SANDBOX_HPP

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace ndd_load {

struct WorkerLimits {
    int timeout_s = 60;                 // wall clock and CPU seconds of one input; 0: none
    size_t memory_bytes = 2048u << 20;  // address space of a worker; 0: none
};

// What a worker does with part `part` of `parts` of the input at path (parts 0: the whole input):
// writes its frames to out_fd, leaving out the members of skip, and returns 0, kStatusSplit (the
// whole input is a large WARC: extract it as parts, no frame written) or another status byte (the
// extraction failed). The path travels with each request: a worker holds no list of the inputs (the
// main process lists them as it goes, and a million of them would weigh on every worker).
using WorkerBody = std::function<int(const std::string& path, uint32_t part, uint32_t parts,
                                     const std::set<std::string>& skip, int out_fd)>;
constexpr int kStatusSplit = 200;

struct Worker {
    pid_t pid = -1;     // -1: no process (not started yet, or reaped)
    int out_fd = -1;    // the temporary file of the current input's frames, from offset 0
    int request_fd = -1;  // main to worker: the next input's part and number of parts, the length of
                          // its path and of its skip list (4 bytes each), the path, the list (names,
                          // each ended by a NUL); end of file: exit
    int reply_fd = -1;    // worker to main: a status byte per input; end of file: the worker is gone
    size_t served = 0;    // inputs given to this process
    bool busy = false;
    uint64_t input = 0;   // the main process's number of the input it is extracting, while busy
    uint32_t part = 0, parts = 0;  // which part of it (parts 0: the whole input)
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    bool timed_out = false;
};

// Starts a worker process under limits running body for every input it is given. close_in_child are
// the main process's descriptors of the other workers (a worker holding another's pipe would hide
// that one's end). Throws std::runtime_error when no process, pipe or temporary file can be made.
Worker start_worker(const WorkerLimits& limits, const std::string& tmpdir, const std::vector<int>& close_in_child,
                    const WorkerBody& body);

// Gives part `part` of `parts` of the input at path, the main process's number `input` (parts 0: all
// of it), to the idle worker w, its members of skip left out, sets its deadline. False when the
// worker is gone (stop_worker then says why; start another).
bool assign_input(Worker& w, uint64_t input, const std::string& path, uint32_t part, uint32_t parts,
                  const std::set<std::string>& skip, const WorkerLimits& limits);

// After w's reply_fd is readable: true with the status byte when the input is done (the caller
// reads its output, then marks w idle), false when the worker is gone (its end of file).
bool read_reply(Worker& w, int& status);

// Ends w (SIGKILL when it timed out or kill is set; otherwise it must have exited or be told to by
// its request pipe's end), waits for it, closes its descriptors and returns "" when it exited with
// status 0, else what happened in words ("the extraction crashed (signal 11, Segmentation fault)",
// "stopped after the 60 s time limit (--timeout)", ...).
std::string stop_worker(Worker& w, const WorkerLimits& limits, bool kill_it);

// The words for a worker's non-zero status byte ("" for 0).
std::string status_problem(int status);

}  // namespace ndd_load

#endif  // NDD_LOAD_SANDBOX_HPP
