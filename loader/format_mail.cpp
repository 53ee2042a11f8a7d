// format_mail.cpp
//    E-mail through GMime 3: a message (.eml, a file of a Maildir) or an mbox of them. A message's row
//    holds its headers in meta (From, To, Cc, Subject, Date, Message-ID, In-Reply-To, References), its
//    subject as title, its text body (text/plain preferred; else text/html, kept in html, its text by
//    the HTML path); each attachment is a document of its own, its member under the message's
//    ("message-3!/report.pdf" in an mbox, "report.pdf" in an .eml). GMime can crash on a hostile
//    message like any parser: it runs in the worker process only.
#include <gmime/gmime.h>

#include <memory>
#include <vector>

#include "encoding.hpp"
#include "extract.hpp"
#include "formats.hpp"

namespace ndd_load {

namespace {

template <typename T>
struct GUnref {
    void operator()(T* p) const {
        if (p) g_object_unref(p);
    }
};
template <typename T>
using GPtr = std::unique_ptr<T, GUnref<T>>;

void init_gmime() {
    static bool done = false;
    if (!done) {
        g_mime_init();
        done = true;
    }
}

std::string addresses(InternetAddressList* list) {
    if (!list || internet_address_list_length(list) == 0) return "";
    char* s = internet_address_list_to_string(list, nullptr, FALSE);
    std::string out = s ? s : "";
    g_free(s);
    return out;
}

// The decoded bytes of a part (its transfer encoding undone).
std::string part_bytes(GMimePart* part) {
    GMimeDataWrapper* content = g_mime_part_get_content(part);
    if (!content) return "";
    GPtr<GMimeStream> out(g_mime_stream_mem_new());
    g_mime_data_wrapper_write_to_stream(content, out.get());
    GByteArray* bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(out.get()));
    return std::string(reinterpret_cast<const char*>(bytes->data), bytes->len);
}

// A text part as UTF-8: its declared charset when ICU knows it, else detected.
std::string part_text(GMimePart* part) {
    std::string bytes = part_bytes(part);
    const char* charset = g_mime_object_get_content_type_parameter(GMIME_OBJECT(part), "charset");
    return to_utf8(bytes, charset ? charset : "").text;
}

struct Walk {
    std::optional<std::string> plain, html;
    std::vector<std::pair<std::string, std::string>> attachments;  // name, bytes
};

void visit(GMimeObject*, GMimeObject* part, gpointer data) {
    Walk& w = *static_cast<Walk*>(data);
    if (GMIME_IS_MESSAGE_PART(part)) {
        GMimeMessage* inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(part));
        if (!inner) return;
        GPtr<GMimeStream> out(g_mime_stream_mem_new());
        g_mime_object_write_to_stream(GMIME_OBJECT(inner), nullptr, out.get());
        GByteArray* bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(out.get()));
        w.attachments.emplace_back("message-" + std::to_string(w.attachments.size() + 1) + ".eml",
                                   std::string(reinterpret_cast<const char*>(bytes->data), bytes->len));
        return;
    }
    if (!GMIME_IS_PART(part)) return;
    GMimePart* p = GMIME_PART(part);
    GMimeContentType* type = g_mime_object_get_content_type(part);
    const char* filename = g_mime_part_get_filename(p);
    bool attachment = g_mime_part_is_attachment(p) || (filename && *filename);
    if (!attachment && g_mime_content_type_is_type(type, "text", "plain")) {
        if (!w.plain) w.plain = part_text(p);
    } else if (!attachment && g_mime_content_type_is_type(type, "text", "html")) {
        if (!w.html) w.html = part_text(p);
    } else if (attachment) {
        std::string name = filename && *filename ? clean_utf8(filename) : "";
        // a name is a member path's last step: no directories from a sender
        for (char& c : name)
            if (c == '/') c = '_';
        if (name.empty()) name = "attachment-" + std::to_string(w.attachments.size() + 1);
        w.attachments.emplace_back(name, part_bytes(p));
    }
}

}  // namespace

void Extractor::message(GMimeMessage* msg, Document& doc, JsonObject& meta, int depth) {
    const char* subject = g_mime_message_get_subject(msg);
    if (subject) {
        doc.title = clean_utf8(subject);
        meta.add("subject", *doc.title);
    }
    std::string from = addresses(g_mime_message_get_from(msg)), to = addresses(g_mime_message_get_to(msg)),
                cc = addresses(g_mime_message_get_cc(msg));
    if (!from.empty()) meta.add("from", from);
    if (!to.empty()) meta.add("to", to);
    if (!cc.empty()) meta.add("cc", cc);
    if (GDateTime* date = g_mime_message_get_date(msg)) {
        GDateTime* utc = g_date_time_to_utc(date);
        if (utc) {
            meta.add("date", iso_time(g_date_time_to_unix(utc), 0));
            g_date_time_unref(utc);
        }
    }
    if (const char* id = g_mime_message_get_message_id(msg)) meta.add("message_id", id);
    for (const char* header : {"In-Reply-To", "References"}) {
        if (const char* v = g_mime_object_get_header(GMIME_OBJECT(msg), header)) {
            std::string key = header;
            for (char& c : key) c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            meta.add(key, v);
        }
    }
    Walk walk;
    g_mime_message_foreach(msg, visit, &walk);
    if (walk.plain) {
        doc.text = std::move(*walk.plain);
    } else if (walk.html) {
        Document page;
        JsonObject ignored;
        extract_html(*walk.html, page, ignored);
        doc.text = std::move(page.text);
        doc.html = std::move(page.html);
    } else {
        doc.text = "";
    }
    meta.add("attachments", static_cast<int64_t>(walk.attachments.size()));
    for (const auto& [name, bytes] : walk.attachments)
        document(bytes, member_path(doc.member, name), doc.modified, name, depth + 1);
}

void Extractor::mail(std::string_view data, Document& doc, JsonObject& meta, bool mbox, int depth) {
    init_gmime();
    if (data.size() > static_cast<size_t>(G_MAXSSIZE)) throw FormatError("too large for GMime");
    // the stream copies nothing: the bytes outlive the parser
    GPtr<GMimeStream> stream(g_mime_stream_mem_new_with_buffer(data.data(), data.size()));
    GPtr<GMimeParser> parser(g_mime_parser_new_with_stream(stream.get()));
    g_mime_parser_set_format(parser.get(), mbox ? GMIME_FORMAT_MBOX : GMIME_FORMAT_MESSAGE);
    if (!mbox) {
        GPtr<GMimeMessage> msg(g_mime_parser_construct_message(parser.get(), nullptr));
        if (!msg) throw FormatError("GMime cannot read this message");
        message(msg.get(), doc, meta, depth);
        return;
    }
    int64_t count = 0;
    while (!g_mime_parser_eos(parser.get())) {
        GPtr<GMimeMessage> msg(g_mime_parser_construct_message(parser.get(), nullptr));
        if (!msg) break;
        count++;
        gint64 begin = g_mime_parser_get_headers_begin(parser.get()), end = g_mime_parser_tell(parser.get());
        Document m;
        m.member = member_path(doc.member, "message-" + std::to_string(count));
        if (!starting(*m.member)) continue;
        std::string_view raw;
        if (begin >= 0 && end >= begin && static_cast<size_t>(end) <= data.size())
            raw = data.substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin));
        m.size = static_cast<int64_t>(raw.size());
        m.hash = hash_of(raw);
        m.format = "eml";
        m.modified = doc.modified;
        JsonObject mmeta;
        try {
            message(msg.get(), m, mmeta, depth + 1);
        } catch (const FormatError& e) {
            m.error = e.what();
        }
        m.meta = mmeta.str();
        emit(m);
    }
    meta.add("messages", count);
    doc.text.reset();
}

}  // namespace ndd_load
