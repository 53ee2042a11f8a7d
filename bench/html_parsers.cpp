// bench/html_parsers.cpp: the measurement behind the choice of HTML parser (doc/web.md).
// Parses each input with Gumbo (libgumbo, HTML5 tree construction) and with libxml2's HTML parser
// (SAX push interface, 64 kB chunks), collects the text outside script/style, and reports time,
// peak memory (each run in a child process, ru_maxrss); times are CPU seconds and whether the process survived.
//
//   html_parsers gumbo|libxml2 FILE...   one line per run: parser, bytes, seconds, maxrss_kb, words
//   html_parsers words gumbo|libxml2 FILE   the extracted words, one a line (agreement check)
#include <gumbo.h>
#include <libxml/HTMLparser.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static std::string slurp(const char* path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// ---- Gumbo: build the tree, walk it with an explicit stack ----
static void gumbo_text(const std::string& html, std::string& out) {
    GumboOutput* g = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
    std::vector<const GumboNode*> stack{g->root};
    while (!stack.empty()) {
        const GumboNode* n = stack.back();
        stack.pop_back();
        if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE || n->type == GUMBO_NODE_CDATA) {
            out += n->v.text.text;  // no separator: the real extractor adds them at blocks
        } else if (n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE) {
            GumboTag t = n->v.element.tag;
            if (t == GUMBO_TAG_SCRIPT || t == GUMBO_TAG_STYLE) continue;
            const GumboVector& c = n->v.element.children;
            for (unsigned i = c.length; i-- > 0;) stack.push_back(static_cast<const GumboNode*>(c.data[i]));
        }
    }
    gumbo_destroy_output(&kGumboDefaultOptions, g);
}

// ---- libxml2: SAX push parser ----
struct SaxState {
    std::string* out;
    int skip = 0;
};
static void x_start(void* ctx, const xmlChar* name, const xmlChar**) {
    auto* s = static_cast<SaxState*>(ctx);
    if (!strcmp((const char*)name, "script") || !strcmp((const char*)name, "style")) s->skip++;
}
static void x_end(void* ctx, const xmlChar* name) {
    auto* s = static_cast<SaxState*>(ctx);
    if ((!strcmp((const char*)name, "script") || !strcmp((const char*)name, "style")) && s->skip) s->skip--;
}
static void x_chars(void* ctx, const xmlChar* ch, int len) {
    auto* s = static_cast<SaxState*>(ctx);
    if (!s->skip) s->out->append((const char*)ch, len);
}
static void x_serror(void*, xmlErrorPtr) {}
static void libxml2_text(const std::string& html, std::string& out) {
    htmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.startElement = x_start;
    sax.endElement = x_end;
    sax.characters = x_chars;
    sax.initialized = XML_SAX2_MAGIC;
    sax.serror = x_serror;
    SaxState st{&out};
    htmlParserCtxtPtr ctxt = htmlCreatePushParserCtxt(&sax, &st, nullptr, 0, nullptr, XML_CHAR_ENCODING_UTF8);
    htmlCtxtUseOptions(ctxt, HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_COMPACT);
    const size_t chunk = 65536;
    for (size_t off = 0; off < html.size(); off += chunk)
        htmlParseChunk(ctxt, html.data() + off, (int)std::min(chunk, html.size() - off), 0);
    htmlParseChunk(ctxt, nullptr, 0, 1);
    htmlFreeParserCtxt(ctxt);
}

static size_t count_words(const std::string& s) {
    size_t n = 0; bool in = false;
    for (unsigned char c : s) { bool w = !isspace(c); if (w && !in) n++; in = w; }
    return n;
}

int main(int argc, char** argv) {
    if (argc >= 4 && !strcmp(argv[1], "words")) {
        std::string html = slurp(argv[3]), out;
        if (!strcmp(argv[2], "gumbo")) gumbo_text(html, out); else libxml2_text(html, out);
        std::istringstream in(out); std::string w;
        while (in >> w) puts(w.c_str());
        return 0;
    }
    if (argc < 3) { fprintf(stderr, "usage: html_parsers gumbo|libxml2 FILE...\n"); return 2; }
    bool gumbo = !strcmp(argv[1], "gumbo");
    for (int i = 2; i < argc; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            std::string html = slurp(argv[i]), out;
            // CPU time, not wall time: the machine may be shared
            std::clock_t c0 = std::clock();
            if (gumbo) gumbo_text(html, out); else libxml2_text(html, out);
            double sec = double(std::clock() - c0) / CLOCKS_PER_SEC;
            struct rusage ru; getrusage(RUSAGE_SELF, &ru);
            printf("%s\t%s\t%zu\t%.4f\t%ld\t%zu\n", argv[1], argv[i], html.size(), sec, ru.ru_maxrss, count_words(out));
            fflush(stdout);
            _exit(0);
        }
        int st; waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            printf("%s\t%s\tCRASHED (%s %d)\n", argv[1], argv[i], WIFSIGNALED(st) ? "signal" : "exit",
                   WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    }
}
