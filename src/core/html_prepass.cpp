// html_prepass.cpp
//    The pre-pass in front of libxml2's HTML parser; what it guarantees is in html_prepass.hpp.
//    The token boundaries follow the WHATWG tokenizer (data, tag open, end tag open, tag name,
//    attribute name and value, markup declaration, comment, bogus comment, RAWTEXT, RCDATA, script
//    data, PLAINTEXT states); the script data escape states are not followed (an "</script" inside
//    "<!-- <script>" in a script ends it here, not in a browser).
#include "html_prepass.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

namespace ndd {

namespace {

bool is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
bool is_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
unsigned char lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c + 32) : c; }
// Characters libxml2 accepts in a tag or attribute name (htmlParseHTMLName): a letter, '_', ':'
// or '.' first, then also digits and '-'.
bool name_first(unsigned char c) { return is_alpha(c) || c == '_' || c == ':' || c == '.'; }
bool name_char(unsigned char c) { return name_first(c) || (c >= '0' && c <= '9') || c == '-'; }

// How the content of a raw-text element is written for libxml2.
enum class Raw {
    None,
    Script,     // script, style: libxml2 keeps them raw too; "</" written "<\/", capped
    Rcdata,     // textarea, title: references decoded, no tags: "<" written "&lt;"
    Rawtext,    // xmp, iframe, noembed, noframes, noscript: literal text: "<" and "&" escaped
    Plaintext,  // plaintext: like Rawtext, to the end of the page
};

Raw raw_kind(std::string_view name) {
    if (name.size() < 3 || name.size() > 9) return Raw::None;
    if (name == "script" || name == "style") return Raw::Script;
    if (name == "textarea" || name == "title") return Raw::Rcdata;
    if (name == "xmp" || name == "iframe" || name == "noembed" || name == "noframes" || name == "noscript")
        return Raw::Rawtext;
    if (name == "plaintext") return Raw::Plaintext;
    return Raw::None;
}

// Elements whose content ndd drops and that are not raw text here (the raw-text ones end at their
// own end tag whatever they hold): kSkip in html_blocks.cpp's tag table.
bool drops_content(std::string_view name) { return name == "template" || name == "head"; }

// Elements that never hold content: libxml2 opens none for them.
bool is_void(std::string_view name) {
    if (name.size() < 2 || name.size() > 8) return false;
    static constexpr std::string_view kVoid[] = {"area",  "base", "basefont", "bgsound", "br",   "col",
                                                 "embed", "frame", "hr",      "img",     "input", "keygen",
                                                 "link",  "meta", "param",    "source",  "track", "wbr"};
    for (auto v : kVoid)
        if (name == v) return true;
    return false;
}

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD, for NUL
constexpr char kCut[] = "<!---->";               // cuts a long text run for libxml2

class Prepass {
public:
    Prepass(const char* html, size_t len, HtmlPrepassSink& out, InterruptPoller& poller, const HtmlPrepassLimits& lim)
        : s_(reinterpret_cast<const unsigned char*>(html)), n_(len), out_(out), poller_(poller), lim_(lim) {}

    void run() {
        size_t i = 0;
        while (i < n_) {
            tick(i);
            size_t j = text_end(i);
            text(i, j, Raw::None);
            i = j;
            if (i >= n_) break;
            if (s_[i] == 0) {  // HTML5's tree construction ignores NUL in text
                i++;
                continue;
            }
            i = markup(i);
        }
        flush_blanks(false);
    }

private:
    const unsigned char* s_;
    size_t n_;
    HtmlPrepassSink& out_;
    InterruptPoller& poller_;
    const HtmlPrepassLimits& lim_;
    size_t next_tick_ = 0;
    size_t text_run_ = 0;        // bytes of text written since the last tag
    bool started_ = false;       // a start tag was written
    std::string tag_;            // the tag being written
    std::string name_;           // its name, lower case
    // blank folding: the sink's choice, the blanks held back, and whether the text written since
    // the last markup holds a non-blank byte, or was written as the page has it
    const bool fold_ = out_.folds_blanks();
    std::string blanks_;
    bool run_text_ = false;
    bool run_exact_ = false;
    std::string names_;          // the names of the tag's attributes, lower case, one after the other
    std::vector<std::pair<size_t, size_t>> attr_names_;  // each attribute's name: offset, length in names_
    bool hides_ = false;         // the tag being written has hidden or aria-hidden="true"
    bool json_ld_ = false;       // it has type="application/ld+json"
    // The elements written since the outermost open element whose content is dropped (see
    // drops_content), that one first; empty when none is open. An end tag that matches one of
    // them is preceded by the end tags of all elements written after it: libxml2 ignores an end
    // tag while an element of higher "end priority" (div, table, td...) is open above it, so an
    // unclosed <div> inside <template> or <span hidden> would otherwise hide the rest of the page.
    std::vector<std::string> dropping_;

    // The end of the text from i: the next '<' or NUL, or n_. Two memchr scans, not a loop over
    // bytes: text and the gaps between tags are most of a page.
    size_t text_end(size_t i) const {
        const void* lt = std::memchr(s_ + i, '<', n_ - i);
        size_t j = lt ? static_cast<size_t>(static_cast<const unsigned char*>(lt) - s_) : n_;
        const void* nul = std::memchr(s_ + i, 0, j - i);
        return nul ? static_cast<size_t>(static_cast<const unsigned char*>(nul) - s_) : j;
    }

    void tick(size_t pos) {
        if (pos >= next_tick_) {
            poller_.check();
            next_tick_ = pos + 65536;
        }
    }
    void put(std::string_view v) { out_.append(v.data(), v.size()); }
    void put(size_t b, size_t e) {
        if (e > b) out_.append(reinterpret_cast<const char*>(s_ + b), e - b);
    }
    // A character reference written as text (no blank)
    void put_text(std::string_view v) {
        flush_blanks(true);
        put(v);
        run_text_ = true;
    }
    // Markup: a tag, or the comment that cuts a long text; it ends libxml2's text run
    void put_tag(std::string_view v) {
        flush_blanks(false);
        put(v);
        run_text_ = false;
        run_exact_ = false;
    }

    // ---- blank folding (HtmlPrepassSink::folds_blanks) ----
    // libxml2 hands text out in buffers of 1,000 bytes (HTML_PARSER_BIG_BUFFER_SIZE), and a
    // buffer of blanks followed by more text opens an implied <p> (and <body>) where a shorter
    // one would not: a text run of blanks alone that long is written whole.
    static constexpr size_t kLibxmlTextBuffer = 1000;
    static bool is_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
    // The blanks held back: what follows them decides how many are written.
    void flush_blanks(bool text_follows) {
        if (blanks_.empty()) return;
        if (run_exact_ || (!text_follows && !run_text_ && blanks_.size() >= kLibxmlTextBuffer)) put(blanks_);
        else put(std::string_view(blanks_.data(), 1));
        blanks_.clear();
    }

    // Text s_[b, e) written for libxml2: NUL replaced, in Rcdata "<" escaped, in Rawtext and
    // Plaintext "<" and "&", and cut by kCut every text_piece bytes (at a character boundary, not
    // inside a reference).
    void text(size_t b, size_t e, Raw mode) {
        if (mode == Raw::None && text_run_ + (e - b) < lim_.text_piece) {  // the common case
            if (fold_ && !run_exact_) folded_text(b, e);
            else put(b, e);
            text_run_ += e - b;
            return;
        }
        // written as the page has it, and so the rest of the text run (blanks held back too)
        put(blanks_);
        blanks_.clear();
        run_exact_ = true;
        size_t run_start = b;
        for (size_t k = b; k < e; k++) {
            unsigned char c = s_[k];
            const char* rep = nullptr;
            if (c == 0) rep = kReplacement;
            else if (c == '<' && mode != Raw::None) rep = "&lt;";
            else if (c == '&' && (mode == Raw::Rawtext || mode == Raw::Plaintext)) rep = "&amp;";
            if (rep) {
                put(run_start, k);
                text_run_ += k - run_start;
                put(rep);
                text_run_ += std::strlen(rep);
                run_start = k + 1;
            } else if (text_run_ + (k - run_start) >= lim_.text_piece && (s_[k] & 0xC0) != 0x80 &&
                       (cut_here(k) || text_run_ + (k - run_start) >= lim_.text_piece + 64)) {
                put(run_start, k);
                put_tag(kCut);
                text_run_ = 0;
                run_start = k;
                tick(k);
            }
        }
        put(run_start, e);
        text_run_ += e - run_start;
    }

    // Text s_[b, e) (no NUL, no markup) with each run of blanks written as its first byte; the
    // blanks at its end are held back (blanks_): the text run may go on after a dropped comment.
    // Written in as few pieces as there are runs of two blanks or more.
    void folded_text(size_t b, size_t e) {
        size_t r = b;
        while (r < e && is_blank(s_[r])) r++;
        if (r == e) {
            blanks_.append(reinterpret_cast<const char*>(s_ + b), e - b);
            return;
        }
        if (r > b && blanks_.empty()) blanks_.push_back(static_cast<char>(s_[b]));
        flush_blanks(true);
        run_text_ = true;
        size_t k = r;  // the first byte not yet written (s_[k] is no blank)
        for (size_t i = r + 1; i < e;) {
            if (!is_blank(s_[i])) {
                i++;
                continue;
            }
            size_t j = i + 1;
            while (j < e && is_blank(s_[j])) j++;
            if (j == e) {
                put(k, i);
                blanks_.append(reinterpret_cast<const char*>(s_ + i), e - i);
                return;
            }
            if (j - i >= 2) {
                put(k, i + 1);
                k = j;
            }
            i = j;
        }
        put(k, e);
    }

    // Whether text may be cut before s_[k]: at the start of a character, not within 40 bytes
    // after a '&' (a reference is at most 33 bytes long; a run of '&' is cut all the same 64
    // bytes further on).
    bool cut_here(size_t k) const {
        if ((s_[k] & 0xC0) == 0x80) return false;
        size_t from = k > 40 ? k - 40 : 0;
        for (size_t j = k; j > from; j--)
            if (s_[j - 1] == '&') return false;
        return true;
    }

    // At s_[i] == '<': a tag, comment or other markup, or a '<' that is text. Returns where the
    // data state goes on.
    size_t markup(size_t i) {
        if (i + 1 >= n_) {
            put_text("&lt;");
            return n_;
        }
        unsigned char c = s_[i + 1];
        if (is_alpha(c)) return start_tag(i);
        if (c == '/') {
            if (i + 2 >= n_) {
                put_text("&lt;/");
                return n_;
            }
            unsigned char d = s_[i + 2];
            if (is_alpha(d)) return end_tag(i);
            if (d == '>') return i + 3;  // "</>": nothing
            return bogus_comment(i + 2);
        }
        if (c == '!') {
            if (i + 3 < n_ && s_[i + 2] == '-' && s_[i + 3] == '-') return comment(i + 4);
            return bogus_comment(i + 2);  // doctype, CDATA outside foreign content, others
        }
        if (c == '?') return bogus_comment(i + 1);
        put_text("&lt;");
        return i + 1;
    }

    size_t bogus_comment(size_t p) {
        const void* gt = p < n_ ? std::memchr(s_ + p, '>', n_ - p) : nullptr;
        return gt ? static_cast<size_t>(static_cast<const unsigned char*>(gt) - s_) + 1 : n_;
    }

    // After "<!--": ends at "-->" or "--!>", or abruptly at "<!-->" and "<!--->".
    size_t comment(size_t p) {
        if (p < n_ && s_[p] == '>') return p + 1;
        if (p + 1 < n_ && s_[p] == '-' && s_[p + 1] == '>') return p + 2;
        while (p < n_) {
            const void* dash = std::memchr(s_ + p, '-', n_ - p);
            if (!dash) return n_;
            size_t q = static_cast<size_t>(static_cast<const unsigned char*>(dash) - s_);
            if (q + 2 < n_ && s_[q + 1] == '-' && s_[q + 2] == '>') return q + 3;
            if (q + 3 < n_ && s_[q + 1] == '-' && s_[q + 2] == '!' && s_[q + 3] == '>') return q + 4;
            p = q + 1;
        }
        return n_;
    }

    // Reads a tag name from p (its first byte a letter) into name_: lower case, cut at the first
    // byte libxml2 would not take and at max_name bytes. Returns the end of the name.
    size_t tag_name(size_t p) {
        name_.clear();
        bool valid = true;
        for (; p < n_ && !is_ws(s_[p]) && s_[p] != '/' && s_[p] != '>'; p++) {
            valid = valid && name_char(s_[p]) && name_.size() < lim_.max_name;
            if (valid) name_.push_back(static_cast<char>(lower(s_[p])));
        }
        return p;
    }

    // The attributes and the end of a tag from p (after its name), HTML5's before-attribute-name
    // state on. Kept attributes are appended to tag_ when `keep`. Returns the position after the
    // '>', or n_ when the page ends inside the tag (HTML5 drops such a tag); self_closing is set
    // by "/>".
    size_t attributes(size_t p, bool keep, bool& self_closing, bool& complete) {
        attr_names_.clear();
        names_.clear();
        self_closing = false;
        complete = false;
        for (;;) {
            tick(p);
            while (p < n_ && is_ws(s_[p])) p++;
            if (p >= n_) return n_;
            if (s_[p] == '>') {
                complete = true;
                return p + 1;
            }
            if (s_[p] == '/') {
                if (p + 1 < n_ && s_[p + 1] == '>') {
                    self_closing = true;
                    complete = true;
                    return p + 2;
                }
                p++;
                continue;
            }
            // attribute name: the first byte may be '=' (HTML5), then up to whitespace, '/', '>', '='
            size_t nb = p++;
            while (p < n_ && !is_ws(s_[p]) && s_[p] != '/' && s_[p] != '>' && s_[p] != '=') p++;
            size_t ne = p;
            while (p < n_ && is_ws(s_[p])) p++;
            size_t vb = 0, ve = 0;
            bool has_value = false;
            if (p < n_ && s_[p] == '=') {
                p++;
                while (p < n_ && is_ws(s_[p])) p++;
                if (p >= n_) return n_;
                has_value = true;
                if (s_[p] == '"' || s_[p] == '\'') {
                    const void* q = std::memchr(s_ + p + 1, s_[p], n_ - p - 1);
                    if (!q) return n_;
                    vb = p + 1;
                    ve = static_cast<size_t>(static_cast<const unsigned char*>(q) - s_);
                    p = ve + 1;
                } else {
                    vb = p;
                    while (p < n_ && !is_ws(s_[p]) && s_[p] != '>') p++;
                    ve = p;
                }
            }
            if (keep) attribute(nb, ne, has_value, vb, ve);
        }
    }

    // Appends one attribute to tag_ unless it is past the limit, a duplicate, a name libxml2
    // cannot parse or one the sink does not read (it counts all the same: as one of the first
    // max_attributes, and as the first of its name); without its value when the sink reads only
    // its name.
    void attribute(size_t nb, size_t ne, bool has_value, size_t vb, size_t ve) {
        if (attr_names_.size() >= lim_.max_attributes) return;
        if (!name_first(s_[nb])) return;
        for (size_t k = nb; k < ne; k++)
            if (!name_char(s_[k])) return;
        // the name, lower case, kept in names_ when no earlier attribute has it
        size_t at = names_.size();
        for (size_t k = nb; k < ne && k - nb < lim_.max_name; k++) names_.push_back(static_cast<char>(lower(s_[k])));
        std::string_view name(names_.data() + at, names_.size() - at);
        for (auto [b, l] : attr_names_)
            if (std::string_view(names_.data() + b, l) == name) {  // HTML5 keeps the first
                names_.resize(at);
                return;
            }
        attr_names_.emplace_back(at, name.size());
        if (name == "hidden" || (name == "aria-hidden" && has_value && ve - vb == 4 && !std::memcmp(s_ + vb, "true", 4)))
            hides_ = true;
        if (has_value && name == "type") json_ld_ = is_json_ld_type(vb, ve);
        HtmlAttributeUse use = out_.attribute_use(name);
        if (use == HtmlAttributeUse::None) return;
        tag_.push_back(' ');
        tag_.append(name);
        if (!has_value || use == HtmlAttributeUse::Name) return;
        // the value cut at max_value bytes, at a character boundary
        if (ve - vb > lim_.max_value) {
            ve = vb + lim_.max_value;
            while (ve > vb && (s_[ve] & 0xC0) == 0x80) ve--;
        }
        tag_ += "=\"";
        size_t run = vb;
        for (size_t k = vb; k < ve; k++) {
            unsigned char c = s_[k];
            if (c != '"' && c != '<' && c != 0) continue;
            tag_.append(reinterpret_cast<const char*>(s_ + run), k - run);
            tag_ += c == '"' ? "&quot;" : c == '<' ? "&lt;" : kReplacement;
            run = k + 1;
        }
        tag_.append(reinterpret_cast<const char*>(s_ + run), ve - run);
        tag_.push_back('"');
    }

    // Whether the type attribute's value s_[b, e) names JSON-LD: "application/ld+json", any case,
    // whitespace around it and parameters after it allowed.
    bool is_json_ld_type(size_t b, size_t e) const {
        static constexpr std::string_view kType = "application/ld+json";
        while (b < e && is_ws(s_[b])) b++;
        if (e - b < kType.size()) return false;
        for (size_t k = 0; k < kType.size(); k++)
            if (lower(s_[b + k]) != static_cast<unsigned char>(kType[k])) return false;
        b += kType.size();
        return b == e || is_ws(s_[b]) || s_[b] == ';';
    }

    size_t start_tag(size_t i) {
        size_t p = tag_name(i + 1);
        std::string name = name_;
        Raw raw = raw_kind(name);
        tag_.clear();
        tag_.push_back('<');
        tag_ += name;
        hides_ = false;
        json_ld_ = false;
        bool self_closing, complete;
        p = attributes(p, true, self_closing, complete);
        if (!complete) return n_;
        // HTML5 ignores "/>" on a raw-text element: its content follows all the same
        bool emit = is_void(name) || out_.may_open();
        if (emit) {
            if (self_closing && raw == Raw::None) tag_ += "/>";
            else tag_.push_back('>');
            put_tag(tag_);
            started_ = true;
            text_run_ = 0;
            // raw-text elements end at their own end tag (raw_content), void and self-closed ones at once
            if (raw == Raw::None && !is_void(name) && !self_closing &&
                (!dropping_.empty() || hides_ || drops_content(name)) && dropping_.size() < lim_.max_depth)
                dropping_.push_back(name);
        }
        if (raw == Raw::None) return p;
        return raw_content(p, name, raw, emit);
    }

    // The content of a raw-text element from p, up to its end tag ("</name" followed by
    // whitespace, '/' or '>', any case), and that end tag.
    size_t raw_content(size_t p, const std::string& name, Raw raw, bool emitted) {
        size_t e = n_;
        if (raw != Raw::Plaintext) {
            for (size_t q = p; q + 2 + name.size() < n_;) {
                tick(q);
                const void* lt = std::memchr(s_ + q, '<', n_ - q);
                if (!lt) break;
                q = static_cast<size_t>(static_cast<const unsigned char*>(lt) - s_);
                if (q + 2 + name.size() >= n_) break;
                bool match = s_[q + 1] == '/';
                for (size_t k = 0; match && k < name.size(); k++) match = lower(s_[q + 2 + k]) == static_cast<unsigned char>(name[k]);
                if (match) {
                    unsigned char after = s_[q + 2 + name.size()];
                    if (is_ws(after) || after == '/' || after == '>') {
                        e = q;
                        break;
                    }
                }
                q++;
            }
        }
        if (raw == Raw::Script) {
            if (json_ld_ && name == "script") out_.json_ld(reinterpret_cast<const char*>(s_ + p), std::min(e, p + lim_.max_raw) - p);
            if (emitted && out_.keeps_script()) script_text(p, std::min(e, p + lim_.max_raw));
        } else {
            text(p, e, raw);
        }
        if (e >= n_) return n_;
        // the end tag: its attributes (HTML5 tokenizes and ignores them) up to '>'
        bool self_closing, complete;
        size_t after = attributes(e + 2 + name.size(), false, self_closing, complete);
        if (emitted) {
            put_tag("</");
            put_tag(name);
            put_tag(">");
            text_run_ = 0;
        }
        return after;
    }

    // Script or style content s_[b, e): "</" written "<\/" (libxml2 ends them at any "</" and a
    // letter), NUL replaced; cut at a character boundary.
    void script_text(size_t b, size_t e) {
        while (e > b && e < n_ && (s_[e] & 0xC0) == 0x80) e--;
        size_t run = b;
        for (size_t k = b; k < e; k++) {
            if (s_[k] == 0) {
                put(run, k);
                put(kReplacement);
                run = k + 1;
            } else if (s_[k] == '<' && k + 1 < e && s_[k + 1] == '/') {
                put(run, k + 1);
                put("\\");
                run = k + 1;
            }
        }
        put(run, e);
    }

    // Before the end tag of `name`: when it matches an element of dropping_, the end tags of the
    // elements written after that one, innermost first, so that libxml2 closes each in turn.
    void close_inside(const std::string& name) {
        for (size_t k = dropping_.size(); k-- > 0;) {
            if (dropping_[k] != name) continue;
            for (size_t j = dropping_.size(); --j > k;) {
                put_tag("</");
                put_tag(dropping_[j]);
                put_tag(">");
            }
            dropping_.resize(k);
            return;
        }
    }

    size_t end_tag(size_t i) {
        size_t p = tag_name(i + 2);
        bool self_closing, complete;
        p = attributes(p, false, self_closing, complete);
        if (!complete) return n_;
        // </html> and </body> close nothing in HTML5 (libxml2 would end the document at </html>);
        // an end tag before any start tag would end libxml2's document too
        if (!started_ || name_ == "html" || name_ == "body" || name_.empty()) return p;
        close_inside(name_);
        put_tag("</");
        put_tag(name_);
        put_tag(">");
        text_run_ = 0;
        return p;
    }
};

class StringSink final : public HtmlPrepassSink {
public:
    std::string out;
    void append(const char* s, size_t n) override { out.append(s, n); }
    bool may_open() override { return true; }
};

}  // namespace

void html_prepass(const char* html, size_t len, HtmlPrepassSink& out, InterruptPoller& poller,
                  const HtmlPrepassLimits& limits) {
    Prepass(html, len, out, poller, limits).run();
}

std::string html_prepass_string(const char* html, size_t len, const HtmlPrepassLimits& limits) {
    StringSink sink;
    InterruptPoller poller(nullptr);
    html_prepass(html, len, sink, poller, limits);
    return std::move(sink.out);
}

}  // namespace ndd
