// html_content.cpp
//    Main-content selection over the text blocks of a page; the rules are in html_content.hpp.
#include "html_content.hpp"

namespace ndd {

namespace {

constexpr uint64_t kShortChars = 70;   // jusText's length_low
constexpr uint64_t kLongChars = 200;   // jusText's length_high
// jusText's max_link_density is 0.2; reference documentation links inline heavily ("see
// os.path.join()"), so a block is bad only above 1/3 and good only at 0.2 or below.
constexpr double kGoodLinkDensity = 0.2;
constexpr double kBadLinkDensity = 1.0 / 3.0;
constexpr uint64_t kHeadingDistance = 200;  // jusText's max_heading_distance
constexpr double kMinContentShare = 0.05;

BlockClass initial_class(const HtmlBlock& b) {
    if (b.context < 0) return BlockClass::Bad;
    double ld = b.chars ? static_cast<double>(b.link_chars) / static_cast<double>(b.chars) : 0.0;
    if (ld > kBadLinkDensity) return BlockClass::Bad;
    BlockClass c;
    if (b.chars >= kLongChars && ld <= kGoodLinkDensity) c = BlockClass::Good;
    else if (b.chars < kShortChars) c = b.kind == HtmlBlockKind::Heading ? BlockClass::NearGood : BlockClass::Short;
    else c = BlockClass::NearGood;
    return c;
}

std::string join_blocks(const HtmlDocument& doc, const std::vector<BlockClass>* keep) {
    std::string out;
    size_t n = 0;
    for (size_t i = 0; i < doc.blocks.size(); i++)
        if (!keep || (*keep)[i] == BlockClass::Good) n += doc.blocks[i].end - doc.blocks[i].begin + 1;
    out.reserve(n);
    for (size_t i = 0; i < doc.blocks.size(); i++) {
        if (keep && (*keep)[i] != BlockClass::Good) continue;
        if (!out.empty()) out.push_back('\n');
        out.append(doc.text, doc.blocks[i].begin, doc.blocks[i].end - doc.blocks[i].begin);
    }
    return out;
}

}  // namespace

std::vector<BlockClass> html_classify(const HtmlDocument& doc) {
    const size_t n = doc.blocks.size();
    std::vector<BlockClass> first(n);
    for (size_t i = 0; i < n; i++) first[i] = initial_class(doc.blocks[i]);

    // Nearest class on each side, in O(n): `gb` skips short and near-good blocks (the nearest good
    // or bad one), `any` skips short ones only. The page's edges count as bad.
    std::vector<BlockClass> prev_gb(n), next_gb(n), prev_any(n), next_any(n);
    BlockClass gb = BlockClass::Bad, any = BlockClass::Bad;
    for (size_t i = 0; i < n; i++) {
        prev_gb[i] = gb;
        prev_any[i] = any;
        if (first[i] == BlockClass::Good || first[i] == BlockClass::Bad) gb = first[i];
        if (first[i] != BlockClass::Short) any = first[i];
    }
    gb = any = BlockClass::Bad;
    for (size_t i = n; i-- > 0;) {
        next_gb[i] = gb;
        next_any[i] = any;
        if (first[i] == BlockClass::Good || first[i] == BlockClass::Bad) gb = first[i];
        if (first[i] != BlockClass::Short) any = first[i];
    }

    std::vector<BlockClass> out(first);
    for (size_t i = 0; i < n; i++) {
        const BlockClass p = prev_gb[i], q = next_gb[i];
        if (first[i] == BlockClass::Short) {
            if (p == BlockClass::Good && q == BlockClass::Good) out[i] = BlockClass::Good;
            else if (p == BlockClass::Bad && q == BlockClass::Bad) out[i] = BlockClass::Bad;
            else if ((p == BlockClass::Bad && prev_any[i] == BlockClass::NearGood) ||
                     (q == BlockClass::Bad && next_any[i] == BlockClass::NearGood))
                out[i] = BlockClass::Good;
            else out[i] = BlockClass::Bad;
        } else if (first[i] == BlockClass::NearGood) {
            out[i] = (p == BlockClass::Bad && q == BlockClass::Bad) ? BlockClass::Bad : BlockClass::Good;
        }
    }
    // The main region (the body text extraction of Finn, Kushmerick and Smyth 2001, on blocks):
    // the block-level element that maximizes the text of its blocks good by themselves (step 1)
    // minus the text of its blocks bad by themselves, the outer one on a tie (what a tie adds is
    // short or near-good text the neighbours decide on, not boilerplate), holding at least
    // half of all the good text. Good blocks outside it are bad: a long footer disclaimer in
    // another table cell than the article is not part of it, even when nothing in its markup says
    // so, while the sections of one article stay together (their headings and short blocks count
    // for nothing, and each section alone scores less than the article).
    std::vector<uint64_t> good(n + 1, 0), bad(n + 1, 0);
    for (size_t i = 0; i < n; i++) {
        good[i + 1] = good[i] + (first[i] == BlockClass::Good ? doc.blocks[i].chars : 0);
        bad[i + 1] = bad[i] + (first[i] == BlockClass::Bad ? doc.blocks[i].chars : 0);
    }
    const HtmlRegion* main = nullptr;
    int64_t best = 0;
    for (const HtmlRegion& r : doc.regions) {
        uint64_t g = good[r.last] - good[r.first];
        if (2 * g < good[n]) continue;
        int64_t score = static_cast<int64_t>(g) - static_cast<int64_t>(bad[r.last] - bad[r.first]);
        if (!main || score > best || (score == best && r.depth < main->depth)) {
            main = &r;
            best = score;
        }
    }
    if (main)
        for (size_t i = 0; i < n; i++)
            if (i < main->first || i >= main->last) out[i] = BlockClass::Bad;
    // Headings: one that is not bad by itself and comes at most 200 code points before a good
    // block is good (jusText's max_heading_distance): a title belongs with the text it heads.
    for (size_t i = 0; i < n; i++) {
        if (doc.blocks[i].kind != HtmlBlockKind::Heading || out[i] == BlockClass::Good || first[i] == BlockClass::Bad)
            continue;
        uint64_t distance = 0;
        for (size_t j = i + 1; j < n && distance <= kHeadingDistance; j++) {
            if (out[j] == BlockClass::Good) {
                out[i] = BlockClass::Good;
                break;
            }
            distance += doc.blocks[j].chars;
        }
    }
    return out;
}

std::string html_text(const char* html, size_t len, InterruptPoller& poller) {
    HtmlDocument doc = html_blocks(html, len, poller);
    std::string text = std::move(doc.text);  // the blocks each followed by '\n' already
    if (!text.empty()) text.pop_back();
    return text;
}

std::string html_content(const char* html, size_t len, InterruptPoller& poller) {
    HtmlDocument doc = html_blocks(html, len, poller);
    std::vector<BlockClass> cls = html_classify(doc);
    // No identifiable main content: no good block, or good blocks holding less than
    // kMinContentShare of the page's text outside marked boilerplate (context -1): a lone footer
    // paragraph on a page of link lists.
    uint64_t good = 0, all = 0;
    for (size_t i = 0; i < cls.size(); i++) {
        if (doc.blocks[i].context >= 0) all += doc.blocks[i].chars;
        if (cls[i] == BlockClass::Good) good += doc.blocks[i].chars;
    }
    bool content = good > 0 && static_cast<double>(good) >= kMinContentShare * static_cast<double>(all);
    return join_blocks(doc, content ? &cls : nullptr);
}

}  // namespace ndd
