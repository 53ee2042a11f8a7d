// html_api.cpp
//    The extern "C" boundary of the HTML text extraction.
#include "html_api.h"

#include <cstring>
#include <new>

#include "guard.hpp"
#include "html_content.hpp"
#include "html_meta.hpp"

extern "C" {

NDD_API NddStatus ndd_html_extract(const char* html, size_t len, NddHtmlMode mode, size_t header,
                                   NddAllocFn alloc, char** out, size_t* out_len, NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        if ((!html && len > 0) || !alloc || !out || !out_len) throw ndd::InvalidArgument("null buffer");
        if (mode != NDD_HTML_TEXT && mode != NDD_HTML_CONTENT) throw ndd::InvalidArgument("mode");
        ndd::InterruptPoller poller(interrupt);
        std::string text = mode == NDD_HTML_TEXT ? ndd::html_text(len ? html : "", len, poller)
                                                 : ndd::html_content(len ? html : "", len, poller);
        char* buf = static_cast<char*>(alloc(header + text.size() + 1));
        if (!buf) throw std::bad_alloc();
        std::memcpy(buf + header, text.data(), text.size());
        buf[header + text.size()] = '\0';
        *out = buf;
        *out_len = text.size();
    });
}

NDD_API NddStatus ndd_html_extract_meta(const char* html, size_t len, NddAllocFn alloc, char** out,
                                size_t len_out[NDD_HTML_META_FIELDS], NddInterruptFn interrupt) {
    return ndd::guarded([&] {
        if ((!html && len > 0) || !alloc || !out || !len_out) throw ndd::InvalidArgument("null buffer");
        ndd::InterruptPoller poller(interrupt);
        ndd::HtmlMeta m = ndd::html_meta(len ? html : "", len, poller);
        const std::string* f[NDD_HTML_META_FIELDS] = {&m.title,    &m.canonical,   &m.og_url,
                                                      &m.language, &m.description, &m.published};
        size_t total = 0;
        for (const std::string* s : f) total += s->size() + 1;
        char* buf = static_cast<char*>(alloc(total));
        if (!buf) throw std::bad_alloc();
        char* p = buf;
        for (int i = 0; i < NDD_HTML_META_FIELDS; i++) {
            std::memcpy(p, f[i]->data(), f[i]->size());
            p[f[i]->size()] = '\0';
            len_out[i] = f[i]->size();
            p += f[i]->size() + 1;
        }
        *out = buf;
    });
}

}  // extern "C"
