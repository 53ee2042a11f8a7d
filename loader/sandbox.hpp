// sandbox.hpp
//    Worker processes: every input is extracted by a process of its own (fork), under a CPU time limit
//    and an address space limit (setrlimit) and a wall-clock deadline (SIGKILL), writing its frames
//    into an unlinked temporary file. A library that crashes, loops or eats memory on a hostile file
//    takes down that process only; the main process, which alone talks to the server, turns the
//    outcome into an error row and goes on.
#ifndef NDD_LOAD_SANDBOX_HPP
#define NDD_LOAD_SANDBOX_HPP

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>

namespace ndd_load {

struct WorkerLimits {
    int timeout_s = 60;                 // wall clock and CPU seconds; 0: none
    size_t memory_bytes = 2048u << 20;  // address space; 0: none
};

struct Worker {
    pid_t pid = -1;
    int out_fd = -1;    // the temporary file the worker writes its frames to
    int alive_fd = -1;  // read end of a pipe the worker holds open: end of file when it exits
    std::chrono::steady_clock::time_point deadline;
    bool timed_out = false;
};

// Starts body(out_fd) in a child process under limits; its return value is the exit status.
// Throws std::runtime_error when no process or temporary file can be made.
Worker start_worker(const WorkerLimits& limits, const std::string& tmpdir, const std::function<int(int)>& body);

// After the worker's alive_fd reports end of file (or its deadline passed: kills it first): waits
// for it and returns "" when it exited with status 0, else what happened to it in words ("killed by
// signal 11 (Segmentation fault)", "stopped after the 60 s time limit (--timeout)", ...).
std::string finish_worker(Worker& w, const WorkerLimits& limits);

}  // namespace ndd_load

#endif  // NDD_LOAD_SANDBOX_HPP
