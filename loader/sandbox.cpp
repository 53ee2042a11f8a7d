// sandbox.cpp
//    The pool of worker processes under limits (sandbox.hpp).
#include "sandbox.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

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

bool read_exact(int fd, void* buf, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t r = read(fd, static_cast<char*>(buf) + done, n - done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        done += static_cast<size_t>(r);
    }
    return true;
}

bool write_exact(int fd, const void* buf, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t r = write(fd, static_cast<const char*>(buf) + done, n - done);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        done += static_cast<size_t>(r);
    }
    return true;
}

// The CPU limit of the next input: the soft RLIMIT_CPU at the seconds used so far (rounded up) plus
// timeout_s; the kernel sends SIGXCPU past it, whose default action ends the process. The hard
// limit stays where it is (an unprivileged process cannot raise it again).
void limit_cpu_of_next_input(int timeout_s) {
    struct rusage ru;
    struct rlimit cpu;
    if (getrusage(RUSAGE_SELF, &ru) != 0 || getrlimit(RLIMIT_CPU, &cpu) != 0) return;
    rlim_t used = static_cast<rlim_t>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1;
    cpu.rlim_cur = used + static_cast<rlim_t>(timeout_s);
    if (cpu.rlim_max != RLIM_INFINITY && cpu.rlim_cur > cpu.rlim_max) cpu.rlim_cur = cpu.rlim_max;
    setrlimit(RLIMIT_CPU, &cpu);
}

[[noreturn]] void serve(const WorkerLimits& limits, int request_fd, int reply_fd, int out_fd, const WorkerBody& body) {
    for (;;) {
        // _exit: no atexit handler, no stdio flush, nothing of the parent's libpq connection touched
        uint32_t part, parts, path_bytes, skip_bytes;
        if (!read_exact(request_fd, &part, sizeof part) || !read_exact(request_fd, &parts, sizeof parts) ||
            !read_exact(request_fd, &path_bytes, sizeof path_bytes) || !read_exact(request_fd, &skip_bytes, sizeof skip_bytes))
            _exit(0);
        std::string path(path_bytes, '\0');
        if (path_bytes > 0 && !read_exact(request_fd, path.data(), path_bytes)) _exit(0);
        std::string list(skip_bytes, '\0');
        if (skip_bytes > 0 && !read_exact(request_fd, list.data(), skip_bytes)) _exit(0);
        std::set<std::string> skip;
        for (size_t pos = 0, end; pos < list.size(); pos = end + 1) {
            end = list.find('\0', pos);
            if (end == std::string::npos) end = list.size();
            skip.insert(list.substr(pos, end - pos));
        }
        if (ftruncate(out_fd, 0) != 0 || lseek(out_fd, 0, SEEK_SET) != 0) _exit(71);
        if (limits.timeout_s > 0) limit_cpu_of_next_input(limits.timeout_s);
        int status = 70;  // EX_SOFTWARE: body threw
        try {
            status = body(path, part, parts, skip, out_fd);
        } catch (...) {
        }
        unsigned char byte = static_cast<unsigned char>(status);
        if (!write_exact(reply_fd, &byte, 1)) _exit(0);
    }
}

}  // namespace

Worker start_worker(const WorkerLimits& limits, const std::string& tmpdir, const std::vector<int>& close_in_child,
                    const WorkerBody& body) {
    Worker w;
    w.out_fd = temporary_file(tmpdir);
    int request[2], reply[2];
    if (pipe2(request, O_CLOEXEC) != 0) {
        close(w.out_fd);
        throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    if (pipe2(reply, O_CLOEXEC) != 0) {
        close(w.out_fd);
        close(request[0]);
        close(request[1]);
        throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    std::fflush(nullptr);
    w.pid = fork();
    if (w.pid < 0) {
        for (int fd : {w.out_fd, request[0], request[1], reply[0], reply[1]}) close(fd);
        throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(errno));
    }
    if (w.pid == 0) {
        close(request[1]);
        close(reply[0]);
        for (int fd : close_in_child) close(fd);
        // the terminal's ^C reaches the whole process group; the main process decides what stops
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        if (limits.memory_bytes > 0) {
            struct rlimit as = {static_cast<rlim_t>(limits.memory_bytes), static_cast<rlim_t>(limits.memory_bytes)};
            setrlimit(RLIMIT_AS, &as);
        }
        serve(limits, request[0], reply[1], w.out_fd, body);
    }
    close(request[0]);
    close(reply[1]);
    w.request_fd = request[1];
    w.reply_fd = reply[0];
    return w;
}

bool assign_input(Worker& w, uint64_t input, const std::string& path, uint32_t part, uint32_t parts,
                  const std::set<std::string>& skip, const WorkerLimits& limits) {
    std::string list;
    for (const std::string& member : skip) list += member + '\0';
    uint32_t path_bytes = static_cast<uint32_t>(path.size()), skip_bytes = static_cast<uint32_t>(list.size());
    std::string request(reinterpret_cast<const char*>(&part), sizeof part);
    request.append(reinterpret_cast<const char*>(&parts), sizeof parts);
    request.append(reinterpret_cast<const char*>(&path_bytes), sizeof path_bytes);
    request.append(reinterpret_cast<const char*>(&skip_bytes), sizeof skip_bytes);
    request += path;
    request += list;
    if (!write_exact(w.request_fd, request.data(), request.size())) return false;  // EPIPE: SIGPIPE is ignored
    w.busy = true;
    w.input = input;
    w.part = part;
    w.parts = parts;
    w.served++;
    w.timed_out = false;
    w.deadline = limits.timeout_s > 0 ? std::chrono::steady_clock::now() + std::chrono::seconds(limits.timeout_s)
                                      : std::chrono::steady_clock::time_point::max();
    return true;
}

bool read_reply(Worker& w, int& status) {
    unsigned char byte;
    if (!read_exact(w.reply_fd, &byte, 1)) return false;
    status = byte;
    w.deadline = std::chrono::steady_clock::time_point::max();
    return true;
}

std::string status_problem(int status) {
    return status == 0 ? "" : "the extraction failed (worker status " + std::to_string(status) + ")";
}

std::string stop_worker(Worker& w, const WorkerLimits& limits, bool kill_it) {
    if (w.pid < 0) return "";
    if (kill_it || w.timed_out) kill(w.pid, SIGKILL);
    close(w.request_fd);  // an idle worker reads its end and exits
    int status = 0;
    while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    close(w.reply_fd);
    close(w.out_fd);
    w.pid = -1;
    w.request_fd = w.reply_fd = w.out_fd = -1;
    w.busy = false;
    if (w.timed_out)
        return "stopped after the " + std::to_string(limits.timeout_s) + " s time limit (--timeout)";
    if (kill_it) return "";
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
    return "the worker process ended before its input was done";
}

}  // namespace ndd_load
