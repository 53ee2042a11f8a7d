// html_feed.hpp
//    How a page reaches libxml2's HTML push parser, for every parse of ndd (html_blocks.cpp: the
//    text blocks; html_meta.cpp: the page's metadata): the bytes are made valid UTF-8, go through
//    the pre-pass (html_prepass.hpp: HTML5's raw-text rules, and bounds on attributes, names,
//    depth and text runs that keep libxml2 linear), and are fed in pieces with the interrupt
//    polled between them. One path, so that no parse can skip the bounds (doc/web.md, "Hostile
//    pages").
//
// A target (the SAX callbacks' user data) derives from HtmlSaxTarget below (the parser context a
// callback stops, and the failure its guard records: rethrown here once the parser has returned,
// so that no exception crosses libxml2's frames), and has `close_all()` (ends the elements it still holds open: the parser
// closes them silently when it ends a document), and `static constexpr bool kKeepsScript` (whether
// its callbacks read script and style content).
#ifndef NDD_HTML_FEED_HPP
#define NDD_HTML_FEED_HPP

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "guard.hpp"
#include "html_blocks.hpp"
#include "html_prepass.hpp"

namespace ndd {

// What every SAX target shares: each callback runs its body through guard(), which catches any
// exception, records it and stops the parser (libxml2's frames are C: nothing may unwind them).
struct HtmlSaxTarget {
    htmlParserCtxtPtr ctxt = nullptr;
    // The content of each <script type="application/ld+json"> (html_prepass.hpp), for a target
    // that reads it; the others inherit this one.
    void json_ld(const char*, size_t) {}
    // What the target's start callback reads of an attribute (its name, lower case): the rest is
    // not written for libxml2 (html_prepass.hpp). This one reads every value.
    HtmlAttributeUse attribute_use(std::string_view) const { return HtmlAttributeUse::Value; }
    // Whether any run of blanks in text is one space to the target (html_prepass.hpp)
    bool folds_blanks() const { return false; }
    enum class Failure { None, NoMemory, Other } failure = Failure::None;

    template <typename F>
    void guard(F&& body) noexcept {
        if (failure != Failure::None) return;
        try {
            body();
        } catch (const std::bad_alloc&) {
            failure = Failure::NoMemory;
            xmlStopParser(ctxt);
        } catch (...) {
            failure = Failure::Other;
            xmlStopParser(ctxt);
        }
    }
};

struct HtmlCtxtDeleter {
    void operator()(htmlParserCtxt* c) const { htmlFreeParserCtxt(c); }
};

// Feeds the pre-pass's output to libxml2's push parser in pieces of `piece` bytes (the first one
// `first_piece` bytes, for the tests of chunk boundaries), polling the interrupt between pieces.
// Every piece costs libxml2 time linear in its size: the pre-pass bounds attributes, names, depth
// and text runs (html_prepass.hpp). Should the parser end the document before the page ends
// anyway, a new parser takes the bytes the old one had not consumed, into the same blocks.
template <class Target>
class HtmlFeeder final : public HtmlPrepassSink {
public:
    HtmlFeeder(htmlSAXHandler* sax, Target& b, InterruptPoller& poller, const HtmlFeedOptions& opt)
        : sax_(sax), b_(b), poller_(poller), opt_(opt), next_piece_(opt.first_piece ? opt.first_piece : opt.piece) {
        restart();
    }

    void append(const char* s, size_t n) override {
        buf_.append(s, n);
        while (buf_.size() >= next_piece_) {
            feed(buf_.data(), next_piece_);
            buf_.erase(0, next_piece_);
            next_piece_ = opt_.piece;
        }
    }

    // The parser's depth is known exactly after a feed; in between, each start tag written may
    // have opened one element more (and text an implied <p> or <body>: the margin of 8).
    bool may_open() override {
        if (depth_ + opened_ + 8 >= opt_.limits.max_depth) {
            flush();
            if (depth_ + 8 >= opt_.limits.max_depth) return false;
        }
        opened_++;
        return true;
    }

    // Script and style content reaches libxml2 only when the target reads it (the metadata's
    // JSON-LD); the text blocks drop it, and it is 40 % of the bytes of real pages.
    bool keeps_script() const override { return Target::kKeepsScript; }
    bool folds_blanks() const override { return b_.folds_blanks(); }
    void json_ld(const char* s, size_t n) override { b_.json_ld(s, n); }
    HtmlAttributeUse attribute_use(std::string_view name) const override { return b_.attribute_use(name); }

    void flush() {
        if (!buf_.empty()) feed(buf_.data(), buf_.size());
        buf_.clear();
    }

    void finish() {
        flush();
        htmlParseChunk(ctxt_.get(), nullptr, 0, 1);
        rethrow();
        close_all();
    }

private:
    htmlSAXHandler* sax_;
    Target& b_;
    InterruptPoller& poller_;
    const HtmlFeedOptions& opt_;
    std::unique_ptr<htmlParserCtxt, HtmlCtxtDeleter> ctxt_;
    std::string buf_;
    size_t next_piece_;
    size_t depth_ = 0;   // the parser's open elements after the last feed
    size_t opened_ = 0;  // start tags written since

    // an exception of a callback, once the parser has returned
    void rethrow() const {
        if (b_.failure == HtmlSaxTarget::Failure::NoMemory) throw std::bad_alloc();
        if (b_.failure == HtmlSaxTarget::Failure::Other) throw std::runtime_error("html parse");
    }

    void restart() {
        ctxt_.reset(htmlCreatePushParserCtxt(sax_, &b_, nullptr, 0, nullptr, XML_CHAR_ENCODING_UTF8));
        if (!ctxt_) throw std::bad_alloc();
        b_.ctxt = ctxt_.get();
        htmlCtxtUseOptions(ctxt_.get(), HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
                                            HTML_PARSE_IGNORE_ENC | HTML_PARSE_COMPACT);
        depth_ = 0;
    }

    // The parser closed its open elements silently when it ended the document.
    void close_all() { b_.close_all(); }

    // A loop, not a recursion: a page that made the parser end its document at every few bytes
    // costs neither stack nor more than the bytes the parser held at each end.
    void feed(const char* s, size_t n) {
        std::string held, rest;
        for (;;) {
            poller_.check();
            htmlParseChunk(ctxt_.get(), s, static_cast<int>(n), 0);
            rethrow();
            depth_ = static_cast<size_t>(std::max(ctxt_->nameNr, 0));
            opened_ = 0;
            if (ctxt_->instate != XML_PARSER_EOF) return;
            // what the parser held and had not consumed goes to a new one (one byte less when it
            // consumed nothing, so that this ends)
            const htmlParserInput* in = ctxt_->input;
            rest.clear();
            if (in && in->cur && in->end && in->end > in->cur)
                rest.assign(reinterpret_cast<const char*>(in->cur), static_cast<size_t>(in->end - in->cur));
            if (in && in->cur == in->base && in->consumed == 0 && !rest.empty()) rest.erase(0, 1);
            close_all();
            restart();
            if (rest.empty()) return;
            held.swap(rest);
            s = held.data();
            n = held.size();
        }
    }
};

// Parses html (len bytes, any content) with the SAX callbacks of sax and their user data target,
// through the pre-pass and the feeder above. Throws Cancelled when the interrupt fires,
// std::bad_alloc when memory runs out.
template <class Target>
void html_sax_parse(const char* html, size_t len, htmlSAXHandler* sax, Target& target, InterruptPoller& poller,
                    const HtmlFeedOptions& opt = HtmlFeedOptions()) {
    static std::once_flag init;
    std::call_once(init, [] { xmlInitParser(); });
    std::string clean = html_utf8_sanitized(html, len, poller);
    if (!clean.empty()) {
        html = clean.data();
        len = clean.size();
    }
    HtmlFeeder<Target> feeder(sax, target, poller, opt);
    html_prepass(html, len, feeder, poller, opt.limits);
    feeder.finish();
}

}  // namespace ndd

#endif  // NDD_HTML_FEED_HPP
