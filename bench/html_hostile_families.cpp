// bench/html_hostile_families.cpp: one hostile page family of issue 31 at one scale through the
// core's html_text or html_content (no PostgreSQL); prints family, scale, bytes, CPU seconds and
// the process's peak RSS. Built by bench/html_hostile_families.sh against two revisions of the core.
//   html_hostile_families FAMILY SCALE
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "html_content.hpp"

namespace {

std::string repeat(const std::string& s, size_t n) {
    std::string r;
    r.reserve(s.size() * n);
    for (size_t i = 0; i < n; i++) r += s;
    return r;
}

double cpu_seconds() {
    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    std::string family = argv[1];
    size_t k = std::strtoul(argv[2], nullptr, 10);
    std::string page;
    bool content = false;
    if (family == "attributes") {  // x16: the 1.9 MB page of issue 31, finding 1
        page = "<p ";
        for (size_t i = 1; i <= 12500 * k; i++) page += "a" + std::to_string(i) + "=1 ";
        page += ">x";
    } else if (family == "stray") {  // x16: finding 2
        page = repeat("<b>", 187500 * k) + repeat("</x>", 18750 * k);
    } else if (family == "restarts") {  // x16: finding 3
        page = repeat("</", 20000 * k);
    } else if (family == "paragraphs") {  // x16: 25 MB; finding 4 is x64 (100 MB)
        page = repeat("<p>a", 390625 * k);
        content = true;
    } else if (family == "scripts") {  // issue 29: script text holding end tags
        page = repeat("<div><p>Some text of the page.</p><script>var s = '<div class=\"x\"></div>'; if (a</b) z();</script>",
                      3000 * k);
        content = true;
    } else {
        return 2;
    }
    ndd::InterruptPoller poller(nullptr);
    double t0 = cpu_seconds();
    std::string out = content ? ndd::html_content(page.data(), page.size(), poller)
                              : ndd::html_text(page.data(), page.size(), poller);
    double t = cpu_seconds() - t0;
    rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::printf("%s\tx%zu\t%zu bytes\t%.3f s\tpeak %ld MB\t%zu bytes out\n", family.c_str(), k, page.size(), t,
                ru.ru_maxrss / 1024, out.size());
    return 0;
}
