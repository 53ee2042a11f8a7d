// sandbox.cpp
//    Worker processes under limits (sandbox.hpp).
#include "sandbox.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace ndd_load {

namespace {

int temporary_file(const std::string& tmpdir) {
    std::string path = tmpdir + "/ndd-load.XXXXXX";
    std::vector<char> buf(path.begin(), path.end());
    buf.push_back('\0');
    int fd = mkstemp(buf.data());
    if (fd < 0) throw std::runtime_error("cannot create a temporary file in " + tmpdir + ": " + std::strerror(errno));
    unlink(buf.data());
    return fd;
}

}  // namespace

Worker start_worker(const WorkerLimits& limits, const std::string& tmpdir, const std::function<int(int)>& body) {
    Worker w;
    w.out_fd = temporary_file(tmpdir);
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
        close(w.out_fd);
        throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    std::fflush(nullptr);
    w.pid = fork();
    if (w.pid < 0) {
        close(w.out_fd);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(errno));
    }
    if (w.pid == 0) {
        close(pipe_fds[0]);
        // the terminal's ^C reaches the whole process group; the main process decides what stops
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        if (limits.timeout_s > 0) {
            struct rlimit cpu = {static_cast<rlim_t>(limits.timeout_s), static_cast<rlim_t>(limits.timeout_s) + 1};
            setrlimit(RLIMIT_CPU, &cpu);
        }
        if (limits.memory_bytes > 0) {
            struct rlimit as = {static_cast<rlim_t>(limits.memory_bytes), static_cast<rlim_t>(limits.memory_bytes)};
            setrlimit(RLIMIT_AS, &as);
        }
        int status = 70;  // EX_SOFTWARE: body threw
        try {
            status = body(w.out_fd);
        } catch (...) {
        }
        // _exit: no atexit handler, no stdio flush, nothing of the parent's libpq connection touched
        _exit(status);
    }
    close(pipe_fds[1]);
    w.alive_fd = pipe_fds[0];
    w.deadline = limits.timeout_s > 0 ? std::chrono::steady_clock::now() + std::chrono::seconds(limits.timeout_s)
                                      : std::chrono::steady_clock::time_point::max();
    return w;
}

std::string finish_worker(Worker& w, const WorkerLimits& limits) {
    if (w.timed_out) kill(w.pid, SIGKILL);
    int status = 0;
    while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(w.alive_fd);
    w.alive_fd = -1;
    if (w.timed_out)
        return "stopped after the " + std::to_string(limits.timeout_s) + " s time limit (--timeout)";
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGXCPU)
            return "stopped after " + std::to_string(limits.timeout_s) + " s of CPU time (--timeout)";
        std::string what = "the extraction crashed (signal " + std::to_string(sig) + ", " + strsignal(sig) + ")";
        if (limits.memory_bytes > 0 && (sig == SIGSEGV || sig == SIGABRT || sig == SIGBUS))
            what += "; it may have run out of its " + std::to_string(limits.memory_bytes >> 20) + " MB (--memory)";
        return what;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        return "the extraction failed (worker exit status " + std::to_string(WEXITSTATUS(status)) + ")";
    return "";
}

}  // namespace ndd_load
