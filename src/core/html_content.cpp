// html_content.cpp
//    Main-content selection over the text blocks of a page; the rules are in html_content.hpp.
#include "html_content.hpp"
#include "html_jsonld.hpp"
#include "tokenize.hpp"
#include "unicode_tables.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <unordered_set>

#ifdef __GLIBC__
#include <malloc.h>
#endif

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
constexpr uint64_t kProseChars = 25;       // Readability's minimum paragraph length
constexpr double kSiblingShare = 0.2;      // Readability's sibling threshold: a fifth of the top
constexpr double kSiblingMinScore = 10.0;  // ... and at least 10
constexpr uint64_t kSiblingChars = 80;  // Readability's long sibling paragraph
constexpr double kHintWeight = 25.0;  // Readability's class weight
constexpr size_t kClimb = 5;  // Readability's ancestor levels
constexpr double kClimbShare = 0.25;
// a boilerplate-marked element holding this share of the main region's prose (outside lists of
// items) is its wrapper: 0.9 left The Verge's article body under "l-sidebar-fixed" marked; 0.5
// took a gallery's share of a news page for the article's
constexpr double kWrapperShare = 0.75;
constexpr uint64_t kLeadChars = 120;  // a lead paragraph before the main region (80: more titles)
constexpr uint32_t kItemRun = 3;  // siblings of one signature that make a list of items
// the weight of a candidate that is one item among many of a list (minor_item in main_region)
constexpr double kItemWeight = 0.25;
constexpr double kTeaserWeight = 4.0;  // a teaser's title cancels about one excerpt's prose

BlockClass demote(BlockClass c) {
    switch (c) {
        case BlockClass::Good: return BlockClass::NearGood;
        case BlockClass::NearGood: return BlockClass::Short;
        default: return BlockClass::Bad;
    }
}

double link_density(const HtmlBlock& b) {
    return b.chars ? static_cast<double>(b.link_chars) / static_cast<double>(b.chars) : 0.0;
}

// Step 1: the class of a block from its own features, given the length that makes it good.
BlockClass initial_class(const HtmlBlock& b, uint64_t long_chars, bool boiler_context) {
    double ld = link_density(b);
    if (ld > kBadLinkDensity) return BlockClass::Bad;
    BlockClass c;
    if (b.chars >= long_chars && ld <= kGoodLinkDensity) c = BlockClass::Good;
    else if (b.chars < kShortChars) c = b.kind == HtmlBlockKind::Heading ? BlockClass::NearGood : BlockClass::Short;
    else c = BlockClass::NearGood;
    // A boilerplate context is a signal, not a veto: it costs one step, so that a long paragraph
    // in an element whose class says "sidebar" (a wrapper "and-w-sidebar" around the article)
    // stays near-good and its neighbours decide.
    return boiler_context ? demote(demote(c)) : c;
}

std::string join_blocks(const HtmlDocument& doc, const std::vector<BlockClass>* keep) {
    std::string out;
    size_t n = 0;
    for (size_t i = 0; i < doc.blocks.size(); i++)
        if (!keep || (*keep)[i] == BlockClass::Good) n += doc.end(doc.blocks[i]) - doc.blocks[i].begin + 1;
    out.reserve(n);
    for (size_t i = 0; i < doc.blocks.size(); i++) {
        if (keep && (*keep)[i] != BlockClass::Good) continue;
        if (!out.empty()) out.push_back('\n');
        out.append(doc.text, doc.blocks[i].begin, doc.end(doc.blocks[i]) - doc.blocks[i].begin);
    }
    return out;
}

}  // namespace

namespace {

// Commas in a block (',' and the ideographic '，' and '、'): Readability's sign of running prose,
// punctuation rather than words, so that it holds in any script.
uint64_t commas(const HtmlDocument& doc, const HtmlBlock& b) {
    uint64_t n = 0;
    const char* p = doc.text.data();
    const size_t end = doc.end(b);
    for (size_t i = b.begin; i < end; i++) {
        unsigned char c = static_cast<unsigned char>(p[i]);
        if (c == ',') n++;
        else if (c == 0xEF && i + 2 < end && static_cast<unsigned char>(p[i + 1]) == 0xBC &&
                 static_cast<unsigned char>(p[i + 2]) == 0x8C)
            n++;
        else if (c == 0xE3 && i + 2 < end && static_cast<unsigned char>(p[i + 1]) == 0x80 &&
                 static_cast<unsigned char>(p[i + 2]) == 0x81)
            n++;
    }
    return n;
}

// A heading that is a link: the title of a teaser (a list of other stories, each a linked title
// and an excerpt), never of the article the page is about.
bool linked_heading(const HtmlBlock& b) { return b.kind == HtmlBlockKind::Heading && 2 * b.link_chars > b.chars; }

// Index pages: a documentation chapter's opening (a heading, a paragraph or two, then the
// chapter's table of contents as a long list of links), a module list, a reference index. The
// list is the page's own, not the site's: it follows the page's prose inside the same element,
// where a site's menus, footers and sidebars stand apart from it (and mostly in elements marked
// nav, footer, aside, menu, sidebar). Its links stay out of the content, as every link list does
// (trafilatura and Readability drop it too: the entries are other pages' titles), but the list is
// the element's substance: each entry counts kOwnListWeight of prose for the element it belongs
// to, its links do not count in that element's link density, and its text does not count against
// the share of the page the content must hold. Without this the intro's element, its link
// density near 1, lost to whatever prose a template put beside it (reviews, an author box, a
// newsletter box), and the same page flipped between its intro and its whole text.
constexpr double kOwnListWeight = 1.0;

// A block of a list of links: a list item, mostly link text, in no boilerplate-marked element.
bool list_link_block(const HtmlBlock& b) {
    return b.kind == HtmlBlockKind::ListItem && b.context >= 0 && link_density(b) > kBadLinkDensity;
}

// The own lists of a page: each run of at least kItemRun consecutive list_link_blocks that comes
// right after a block for which anchor(i) holds (prose, a good block), or after at most
// kOwnListGap other blocks past it (the intro's closing lines: "The full list of modules is:", a
// "see also" sentence that is mostly a link). anchor is called once for every block, in order;
// f(first, last) for each run [first, last), once anchor has seen the blocks before it.
constexpr size_t kOwnListGap = 2;
template <class Anchor, class F>
void own_link_lists(const HtmlDocument& doc, Anchor anchor, F f) {
    const size_t n = doc.blocks.size();
    size_t gap = SIZE_MAX;  // blocks since the last anchor block (SIZE_MAX: none, or a list since)
    bool in_run = false;
    size_t first = 0;
    for (size_t i = 0; i <= n; i++) {
        const bool list = i < n && list_link_block(doc.blocks[i]);
        if (list && !in_run) {
            in_run = gap <= kOwnListGap;
            first = i;
        }
        if (!list && in_run) {
            if (i - first >= kItemRun) f(first, i);
            in_run = false;
        }
        if (i == n) break;
        if (anchor(i)) gap = 0;
        else if (list) gap = SIZE_MAX;
        else if (gap != SIZE_MAX) gap++;
    }
}

// The evidence of prose a block gives its containers (Readability's paragraph score): 0 for
// headings, list items, short and link-heavy blocks, else 1 + its commas + one point a hundred
// code points (at most 3).
double prose_score(const HtmlDocument& doc, const HtmlBlock& b) {
    if (b.kind == HtmlBlockKind::Heading || b.kind == HtmlBlockKind::ListItem) return 0;
    if (b.chars < kProseChars || link_density(b) > kGoodLinkDensity) return 0;
    return 1.0 + static_cast<double>(std::min<uint64_t>(commas(doc, b), 10)) +
           static_cast<double>(std::min<uint64_t>(b.chars / 100, 3));
}

// A nesting depth in 16 bits: the pre-pass caps depths at 512 (HtmlBlock::context_depth is
// saturated the same way).
uint16_t depth16(size_t depth) { return static_cast<uint16_t>(std::min<size_t>(depth, UINT16_MAX)); }

constexpr uint32_t kNoRegion = UINT32_MAX;

// Gives the pages of memory just freed back to the system. The regions' chunks lie between the
// blocks' in the heap, so that glibc's free() keeps them resident and the arrays allocated next
// (larger than a chunk) take new pages: without this, releasing the regions lowered no peak.
void release_free_memory() {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

// Visits the regions and the blocks of a page backwards, from the last block to the first, with a
// stack of the regions open at each block (at most the nesting depth; each entry the parent of
// the one above it): on_region(r, parent) for each region as the sweep enters it, its parent
// (kNoRegion: none) known; on_block(i, open) for each block, `open` the regions holding it,
// innermost last; on_close(r) for each region as the sweep leaves it (past its first block), its
// parent then open.back(). The regions are stored in postorder (html_blocks.hpp), so that
// backwards they come outer first and by decreasing `last`, as a backward sweep meets them: no
// sorted index of the regions is needed.
template <class OnRegion, class OnBlock, class OnClose>
void sweep_regions(const HtmlDocument& doc, OnRegion on_region, OnBlock on_block, OnClose on_close) {
    const HtmlRegions& rg = doc.regions;
    std::vector<uint32_t> open;
    auto close = [&]() {
        const uint32_t r = open.back();
        open.pop_back();
        on_close(r, open);
    };
    size_t k = rg.size();
    for (size_t i = doc.blocks.size(); i-- > 0;) {
        while (!open.empty() && rg[open.back()].first > i) close();
        // Every region still open holds block i, and so does each one pushed here: they nest, and
        // the regions pushed earlier end later (or at the same block, and are the outer ones).
        while (k > 0 && rg[k - 1].last > i) {
            const uint32_t r = static_cast<uint32_t>(--k);
            on_region(r, open.empty() ? kNoRegion : open.back());
            open.push_back(r);
        }
        on_block(i, open);
    }
    while (!open.empty()) close();
}

// A set of regions numbered in region order, for per-region state held by its members only: a
// page can hold one region per two blocks (`<p>a<br>a`, a region per 9 bytes of page), of which
// only those within five levels above a block of prose ever score. A bit per region, and the
// members' count before each 64 regions (1.5 bits a region in all).
class RegionSubset {
public:
    explicit RegionSubset(size_t nr) : bits_((nr + 63) / 64, 0) {}
    void add(size_t r) { bits_[r >> 6] |= uint64_t(1) << (r & 63); }
    bool has(size_t r) const { return (bits_[r >> 6] >> (r & 63)) & 1; }
    // Numbers the members (after the last add); returns their count.
    size_t seal() {
        rank_.resize(bits_.size());
        uint32_t m = 0;
        for (size_t w = 0; w < bits_.size(); w++) {
            rank_[w] = m;
            m += static_cast<uint32_t>(__builtin_popcountll(bits_[w]));
        }
        return m;
    }
    // The number of member r (has(r) must hold): the members before it.
    size_t index(size_t r) const {
        return rank_[r >> 6] + static_cast<size_t>(__builtin_popcountll(bits_[r >> 6] & ((uint64_t(1) << (r & 63)) - 1)));
    }
    // f(r, index) for each member, in region order.
    template <class F>
    void for_each(F f) const {
        size_t x = 0;
        for (size_t w = 0; w < bits_.size(); w++)
            for (uint64_t b = bits_[w]; b; b &= b - 1) f(w * 64 + static_cast<size_t>(__builtin_ctzll(b)), x++);
    }

private:
    std::vector<uint64_t> bits_;
    std::vector<uint32_t> rank_;
};

// The main region: a tree of the regions (each holds the blocks of one element), each block's
// prose score given to its innermost region, half to the next one up, and a sixth, a ninth and a
// twelfth to the three above (Readability's ancestors); a region's score is what it received,
// weighed by what its markup says of it and by the share of its text that is not link text.
// Selects the blocks of the best region and of its siblings that score at least a fifth of it,
// plus the long link-free blocks its parent holds directly (an article whose paragraphs an
// advertisement split into two elements). Returns the selected blocks as disjoint runs, each with
// the nesting depth of the innermost element of the selected region they belong to (expanded by
// html_classify once the regions are freed: a selection of 2 bytes a block allocated while the
// regions are still held made the peak), none when no region holds prose.
struct SelectedRun {
    uint32_t first;
    uint32_t last;
    uint16_t depth;
};
// `items` receives the blocks inside every list of items (left empty when there is none).
std::vector<SelectedRun> main_region(const HtmlDocument& doc, std::vector<bool>& items) {
    const size_t n = doc.blocks.size();
    const size_t nr = doc.regions.size();
    // As few per-block arrays as can be, and small ones (a page of tiny blocks has one block per 4
    // bytes of page): the selection in 16 bits (depths are capped by the pre-pass, at 512), the
    // prose scores in a byte; each block's innermost region is known during the sweeps only.
    std::vector<SelectedRun> sel;
    if (nr == 0) return sel;
    constexpr uint32_t kNone = kNoRegion;
    // Per-block prose scores in one byte each (a score is at most 1 + 10 + 3), summed over a range
    // of blocks when needed rather than kept as whole-page prefix sums: a page of tiny blocks has
    // one block per 4 bytes of page. The sums are integers (exact in a double), so they equal the
    // prefix-sum differences they replace. The ranges summed are the chosen region and its
    // ancestors (at most kClimb + 1) and the siblings (disjoint): linear.
    std::vector<uint8_t> prose(n, 0);
    static constexpr double kShare[] = {1.0, 1.0 / 2, 1.0 / 6, 1.0 / 9, 1.0 / 12};
    // First sweep (backwards): the prose scores, the innermost region of each block that holds
    // prose, and the regions that can score: the five innermost open at a block of prose. Only
    // they (and the chosen region's parents and siblings, found below from the regions
    // themselves) need per-region state: a page of tiny blocks with a paragraph of prose now and
    // then holds a region per 9 bytes of page, few of which ever score.
    RegionSubset scored(nr);
    std::vector<uint32_t> prose_region;
    // Lists of items: runs of three or more sibling regions of one signature (tag and first class
    // token: li.comment, div.review, div.story-card), each with the span of blocks it covers and
    // the prose it holds. Siblings are met backwards, last first; each open region (and the page,
    // at the bottom) keeps the prose of its blocks seen so far and the run of its children met
    // last: its signature, its length, its span and its prose (a member's added as it closes).
    struct Run {
        uint16_t signature = 0;
        uint32_t count = 0;
        uint32_t first = 0;
        uint32_t last = 0;
        uint64_t prose = 0;
        uint64_t top_item = 0;  // the prose of its member holding the most
    };
    struct Open {
        Run run;
        uint64_t prose = 0;
    };
    struct ItemSpan {
        uint32_t first;
        uint32_t last;
        uint64_t prose;
        uint64_t top_item;
        uint16_t signature;  // the members' (nonzero)
        bool operator<(const ItemSpan& o) const { return first < o.first; }
    };
    std::vector<Open> opened(1);
    std::vector<ItemSpan> item_spans;
    auto end_run = [&](const Run& run) {
        if (run.count >= kItemRun) item_spans.push_back({run.first, run.last, run.prose, run.top_item, run.signature});
    };
    sweep_regions(
        doc,
        [&](uint32_t r, uint32_t) {
            const HtmlRegion& g = doc.regions[r];
            Run& run = opened.back().run;
            if (g.signature != 0 && g.signature == run.signature) {
                run.count++;
                run.first = g.first;
            } else {
                end_run(run);
                run = {g.signature, 1, g.first, g.last, 0, 0};
            }
            opened.emplace_back();
        },
        [&](size_t i, const std::vector<uint32_t>& open) {
            const double s = prose_score(doc, doc.blocks[i]);
            prose[i] = static_cast<uint8_t>(s);
            if (s == 0) return;
            opened.back().prose += prose[i];
            prose_region.push_back(open.empty() ? kNone : open.back());
            for (size_t level = 0; level < 5 && level < open.size(); level++) scored.add(open[open.size() - 1 - level]);
        },
        [&](uint32_t, const std::vector<uint32_t>&) {
            end_run(opened.back().run);
            const uint64_t p = opened.back().prose;
            opened.pop_back();
            opened.back().prose += p;
            opened.back().run.prose += p;  // the region closed is the run's member met last
            opened.back().run.top_item = std::max(opened.back().run.top_item, p);
        });
    end_run(opened.back().run);
    std::vector<Open>().swap(opened);
    const size_t m = scored.seal();
    if (m == 0) return sel;  // no region holds prose: none scores
    // The blocks inside a list of items beside blocks [first, last) (the region being chosen) that
    // holds less prose than they do: a list the region is part of (the tab panels around a
    // product's description, the sections of a chapter) is its context, and a list with more
    // prose than the region (the steps below a how-to's introduction) may be the article itself.
    // The spans, nested or disjoint, merged in document order: linear.
    std::sort(item_spans.begin(), item_spans.end());
    // every block inside a list of items, wherever it lies (for marked_boilerplate)
    if (!item_spans.empty()) {
        items.assign(n, false);
        for (size_t k = 0, reach = 0; k < item_spans.size(); k++) {  // sorted: each block once
            for (size_t i = std::max<size_t>(reach, item_spans[k].first); i < item_spans[k].last; i++) items[i] = true;
            reach = std::max<size_t>(reach, item_spans[k].last);
        }
    }
    std::vector<bool> in_item;
    // (kinds: the signatures of lists of items that are the region's own kind, left out too)
    auto items_beside = [&](size_t first, size_t last, double own, const std::vector<uint16_t>& kinds) {
        in_item.assign(n, false);
        for (size_t k = 0, reach = 0; k < item_spans.size(); k++) {
            const ItemSpan& x = item_spans[k];
            if ((x.first <= first && last <= x.last) || static_cast<double>(x.prose) >= own ||
                std::find(kinds.begin(), kinds.end(), x.signature) != kinds.end())
                continue;
            for (size_t i = std::max<size_t>(reach, x.first); i < x.last; i++) in_item[i] = true;
            reach = std::max<size_t>(reach, x.last);
        }
    };
    // Second sweep: for each region that can score (by its number in `scored`), its parent and
    // its code points and link code points, the latter summed over the regions open (a stack as
    // deep as the nesting): each block's counted in its innermost region, each region's added to
    // its parent's as the sweep leaves it. Regions are properly nested, so a region's totals are
    // those of its blocks [first, last). (32 bits: a region's code points are at most its text's
    // bytes, under 4 GB.)
    std::vector<uint32_t> up_of(m, kNone), chars_of(m, 0), links_of(m, 0), prose_in(m, 0);
    struct Totals {
        uint32_t chars = 0, links = 0, prose = 0;
    };
    std::vector<Totals> totals;  // of the regions open, as `open`
    sweep_regions(
        doc,
        [&](uint32_t r, uint32_t up) {
            if (scored.has(r)) up_of[scored.index(r)] = up;
            totals.emplace_back();
        },
        [&](size_t i, const std::vector<uint32_t>& open) {
            if (open.empty()) return;
            const HtmlBlock b = doc.blocks[i];
            totals.back().chars += b.chars;
            totals.back().links += b.link_chars;
            totals.back().prose += prose[i];
        },
        [&](uint32_t r, const std::vector<uint32_t>&) {
            const auto t = totals.back();
            totals.pop_back();
            if (scored.has(r)) {
                const size_t x = scored.index(r);
                chars_of[x] = t.chars;
                links_of[x] = t.links;
                prose_in[x] = t.prose;
            }
            if (!totals.empty()) {
                totals.back().chars += t.chars;
                totals.back().links += t.links;
                totals.back().prose += t.prose;
            }
        });
    std::vector<Totals>().swap(totals);
    // The parent of any region: stored for those that can score, else the first region after it
    // that holds it (postorder: its parent's other children and their regions lie between, so
    // that this is linear for each of the few regions it is asked of: the chosen region's
    // ancestors, at most kClimb + 1).
    auto parent_of = [&](size_t r) -> size_t {
        if (scored.has(r)) return up_of[scored.index(r)];
        const HtmlRegion& g = doc.regions[r];
        for (size_t k = r + 1; k < nr; k++)
            if (doc.regions[k].first <= g.first && doc.regions[k].last >= g.last) return k;
        return kNone;
    };
    // The scores are added in document order, as they always were (the sums of doubles depend on
    // their order).
    std::vector<double> score(m, 0.0);
    for (size_t i = 0, j = prose_region.size(); i < n; i++) {
        if (prose[i] == 0) continue;
        const double s = prose[i];
        size_t r = prose_region[--j];
        const HtmlBlock b = doc.blocks[i];
        // A block alone in an element that a boilerplate word or tag marks (a comment of one
        // paragraph, a caption, a widget's line: the element holds no region of its own) gives
        // its prose to no candidate: Readability strips such elements before it scores, and the
        // comments below a short article made the page around them its best candidate. A marked
        // element of several blocks is a region and weighs its word against its text.
        if (r != kNone && b.context < 0 && b.context_depth > doc.regions[r].inner_depth) continue;
        for (size_t level = 0; level < 5 && r != kNone; level++) {
            const size_t x = scored.index(r);
            score[x] += s * kShare[level];
            r = up_of[x];
        }
    }
    // The own lists (index pages): each run's entries and text go to the element that holds both
    // the prose right before it and the run (the prose's innermost element or one of the four
    // above), when that element can score.
    struct OwnList {
        uint32_t region;
        uint32_t items;
    };
    std::vector<OwnList> own_lists;
    {
        size_t j = prose_region.size(), anchor = kNone;
        own_link_lists(
            doc,
            [&](size_t i) {
                if (prose[i] == 0) return false;
                const size_t r = prose_region[--j];
                if (doc.blocks[i].context < 0) return false;
                anchor = r;
                return true;
            },
            [&](size_t first, size_t last) {
                size_t r = anchor;
                for (size_t level = 0; level < 4 && r != kNone && doc.regions[r].last < last; level++) r = up_of[scored.index(r)];
                if (r == kNone || doc.regions[r].last < last || doc.regions[r].first > first) return;
                const size_t x = scored.index(r);
                for (size_t i = first; i < last; i++) {
                    const HtmlBlock b = doc.blocks[i];
                    chars_of[x] -= b.chars;
                    links_of[x] -= b.link_chars;
                }
                score[x] += kOwnListWeight * static_cast<double>(last - first);
                own_lists.push_back({static_cast<uint32_t>(r), static_cast<uint32_t>(last - first)});
            });
    }
    // the own lists' weight inside blocks [first, last)
    auto own_list_weight = [&](size_t first, size_t last) {
        double w = 0;
        for (const OwnList& o : own_lists)
            if (doc.regions[o.region].first >= first && doc.regions[o.region].last <= last) w += kOwnListWeight * o.items;
        return w;
    };
    std::vector<uint32_t>().swap(prose_region);
    auto prose_of = [&](size_t first, size_t last) {
        uint64_t sum = 0;
        for (size_t i = first; i < last; i++) sum += prose[i];
        return static_cast<double>(sum);
    };
    // Link density of a region: from the totals of the second sweep for those that can score,
    // else from its blocks (asked only of the chosen region's siblings, which are disjoint).
    auto region_ld = [&](size_t r) {
        uint32_t c = 0, l = 0;
        if (scored.has(r)) {
            const size_t x = scored.index(r);
            c = chars_of[x];
            l = links_of[x];
        } else {
            for (size_t i = doc.regions[r].first; i < doc.regions[r].last; i++) {
                const HtmlBlock b = doc.blocks[i];
                c += b.chars;
                l += b.link_chars;
            }
        }
        return c ? static_cast<double>(l) / static_cast<double>(c) : 0.0;
    };
    // A region inside a list of items where no item holds half of the list's prose (a comment
    // thread, a teaser list, the answers to a question), itself holding less than half of it: a
    // fragment of the list and not the article (a long reader comment below a short article won
    // the page); its score is weighed down (kItemWeight), not vetoed. A list one of whose items
    // holds most of it (the tab panel of a product's description among a specification and
    // reviews) is left alone, and so is the list's own wrapper. The innermost list holding the region is searched among the
    // spans starting at or before it, at most 64 back (spans nest or are disjoint): linear.
    auto minor_item = [&](const HtmlRegion& g, uint32_t own) {
        auto it = std::upper_bound(item_spans.begin(), item_spans.end(), ItemSpan{g.first, 0, 0, 0, 0});
        for (size_t steps = 0; it != item_spans.begin() && steps < 64; steps++) {
            --it;
            if (it->first <= g.first && g.last <= it->last) return 2 * it->top_item < it->prose && 2 * uint64_t(own) < it->prose;
        }
        return false;
    };
    size_t top = kNone;
    double top_score = 0;
    scored.for_each([&](size_t r, size_t x) {
        if (score[x] == 0) return;
        const HtmlRegion& g = doc.regions[r];
        double ld = region_ld(r);
        // What the markup says weighs against the text's evidence (Readability's class weight):
        // only regions that hold prose are candidates at all. Wrappers that hold the same blocks
        // are one region and say one thing: <div id="content"><div class="post"> is no likelier
        // the article than the <div class="entry-content"> inside it (their words summed made the
        // post with its author box and byline win over its own text).
        score[x] = (score[x] + kHintWeight * (std::clamp<int>(g.hint, -1, 1) + (g.semantic ? 1 : 0))) * (1.0 - ld);
        if (!items.empty() && items[g.first] && items[g.last - 1] && minor_item(g, prose_in[x])) score[x] *= kItemWeight;
        if (g.inner_depth <= 1 || score[x] <= 0) return;  // <html> alone is no candidate (Readability)
        if (top == kNone || score[x] > top_score) {
            top = r;
            top_score = score[x];
        }
    });
    if (top == kNone) return sel;
    std::vector<double>().swap(score);
    // Readability's scores favour the element that holds paragraphs directly; prose spread thinly
    // over many small elements (definition lists, table cells, sections of a chapter) gives no
    // single element much. So the choice climbs to the parent as long as the parent's whole
    // subtree holds more prose than boilerplate beyond what the child holds: its blocks outside
    // the child count their prose score, less the same measure for link-heavy blocks, prose
    // inside an element that a boilerplate word marks, and each block of a list of items beside
    // the child (items_beside), counting against it. The element holding the whole page is no
    // exception: on a page that is the article alone, the article's other sections are in it.
    // Three refinements (branch docheld), for chapters of sections and reference entries, where
    // the parts of one article nest in several levels of elements that say nothing about them:
    // - a parent whose blocks outside the child give no evidence either way (a definition list
    //   around one entry, whose term is a short code line; a section holding a title-less child)
    //   is the child's wrapper, and the climb looks through it (Readability, too, moves up through
    //   parents that hold nothing but its top candidate);
    // - a level that gains too little to move the choice is passed tentatively: the gains of the
    //   levels passed add up, and the choice moves to the level where their sum reaches
    //   kClimbShare of the prose of the element chosen last (a chapter's first subsection gains a
    //   heading and a paragraph, the chapter around it the other subsections); a level with
    //   nothing or less than nothing to gain ends the climb;
    // - lists of items of the kind of an element the climb has passed (the other entries of a
    //   reference chapter beside the one chosen: <dl class="py function"> beside the <dl
    //   class="py class"> that holds it) are the same thing as the choice, not a comment thread
    //   or a teaser list beside it, and a parent that opens with a heading the child lacks (a
    //   chapter under its title) weighs the lists of items no boilerplate word marks by their
    //   text, as the rest of it: its parts are its entries.
    // At most kClimb levels that give evidence and kClimb wrappers, so that this stays linear
    // (items_beside is linear too).
    std::vector<uint16_t> kinds;  // the signatures of the elements passed
    auto own_of = [&](size_t r) { return prose_of(doc.regions[r].first, doc.regions[r].last) + own_list_weight(doc.regions[r].first, doc.regions[r].last); };
    size_t up = parent_of(top), cand = top;  // cand: the element reached, top: the one chosen
    double gained = 0, top_own = own_of(top);
    size_t kinds_at_top = 0;
    for (size_t levels = 0, wrappers = 0; levels < kClimb && up != kNone;) {
        const HtmlRegion &c = doc.regions[cand], &a = doc.regions[up];
        if (c.signature != 0) kinds.push_back(c.signature);
        const bool titled = a.first < c.first && doc.blocks[a.first].kind == HtmlBlockKind::Heading &&
                            !linked_heading(doc.blocks[a.first]);
        double gain = 0;
        bool evidence = false;
        items_beside(c.first, c.last, own_of(cand), kinds);
        for (size_t i = a.first; i < a.last; i++) {
            if (i == c.first) i = c.last;
            if (i >= a.last) break;
            const HtmlBlock& b = doc.blocks[i];
            double g = 0;
            if (in_item[i] && !(titled && b.context >= 0)) g = -1.0;
            else if (linked_heading(b)) g = -kTeaserWeight;
            else if (link_density(b) > kBadLinkDensity) g = -(1.0 + static_cast<double>(std::min<uint64_t>(b.chars / 100, 3)));
            else if (b.context >= 0 || b.context_depth <= a.inner_depth) g = prose[i];
            gain += g;
            evidence |= g != 0;
        }
        if (evidence) {
            if (gain <= 0) break;
            levels++;
            gained += gain;
        } else if (++wrappers > kClimb) {
            break;
        }
        cand = up;
        up = parent_of(cand);
        if (gained >= kClimbShare * top_own) {
            top = cand;
            gained = 0;
            top_own = own_of(top);
            kinds_at_top = kinds.size();
        }
    }
    kinds.resize(kinds_at_top);
    up = parent_of(top);
    const HtmlRegion& t = doc.regions[top];
    sel.push_back({t.first, t.last, depth16(t.inner_depth)});
    if (up != kNone) {
        // Siblings are weighed by all the prose they hold, however deep (a section of a chapter
        // holds its paragraphs in subsections), and must not be mostly links (teasers).
        const double own = prose_of(t.first, t.last) + own_list_weight(t.first, t.last);
        const double threshold = std::max(kSiblingMinScore, kSiblingShare * own);
        // linked headings (teaser titles) in blocks [first, last), counted up to 2
        auto teasers = [&](size_t first, size_t last) {
            int count = 0;
            for (size_t i = first; i < last && count < 2; i++) count += linked_heading(doc.blocks[i]);
            return count;
        };
        // a sibling's prose outside the lists of items beside the top
        items_beside(t.first, t.last, own, kinds);
        auto own_prose = [&](size_t first, size_t last) {
            uint64_t sum = 0;
            for (size_t i = first; i < last; i++) sum += in_item[i] ? 0 : prose[i];
            return static_cast<double>(sum);
        };
        // the blocks `up` holds directly (its innermost region): those in none of its children
        const HtmlRegion& u = doc.regions[up];
        auto direct = [&](size_t first, size_t last) {
            for (size_t i = first; i < last; i++)
                if (doc.blocks[i].kind != HtmlBlockKind::Cell && doc.blocks[i].chars >= kSiblingChars && link_density(doc.blocks[i]) < 0.25 &&
                    (doc.blocks[i].context >= 0 || doc.blocks[i].context_depth <= u.inner_depth))
                    sel.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1), depth16(u.inner_depth)});
        };
        // The children of `up`, last first: in postorder its regions lie right before it, each
        // child after the regions it holds, so that going backwards a child is the next region
        // that ends by the start of the child met before (those between are inside that child).
        // Each sibling's blocks and each run of blocks between children are selected on their
        // own, in any order: they are disjoint.
        uint32_t bound = u.last;
        for (size_t r = up; r-- > 0;) {
            const HtmlRegion& g = doc.regions[r];
            if (g.first < u.first) break;  // before every region `up` holds
            if (g.last > bound) continue;  // inside the child met before
            direct(g.last, bound);
            bound = g.first;
            if (r != top && g.hint >= 0 && teasers(g.first, g.last) < 2 && own_prose(g.first, g.last) >= threshold &&
                region_ld(r) <= kBadLinkDensity)
                sel.push_back({g.first, g.last, depth16(g.inner_depth)});
        }
        direct(u.first, bound);
    }
    // The lead: a paragraph (<p>, <blockquote>) right before the selection, at most a byline and
    // a date between (short blocks within jusText's heading distance), long (kLeadChars) and
    // link-free and in no boilerplate-marked element, is the article's standfirst, which
    // templates put in the article's header outside its body; each one found reaches for another
    // before it. A long title in a <div> is no paragraph (the bare article has no title).
    uint32_t start = t.first;
    for (const SelectedRun& r : sel) start = std::min(start, r.first);
    for (uint64_t distance = 0; start > 0;) {
        const HtmlBlock b = doc.blocks[start - 1];
        if (b.context < 0 || link_density(b) > kGoodLinkDensity) break;
        if (b.chars >= kLeadChars && b.kind == HtmlBlockKind::Paragraph) {
            sel.push_back({start - 1, start, depth16(t.inner_depth)});
            distance = 0;
        } else if (b.chars >= kShortChars || (distance += b.chars) > kHeadingDistance) {
            break;
        }
        start--;
    }
    return sel;
}

// The blocks of the main region that a boilerplate class or tag of an element inside the region
// marks (a share bar, a byline box, the comments), weighed against the text: an element that
// holds most of the region's prose (kWrapperShare of it) outside lists of items is the article's
// own wrapper, whatever its class says (<div class="entry share">: a plugin's word beside the
// theme's; <div class="l-sidebar-fixed l-article-body-segment">: a layout's), and marks nothing.
// A gallery of captioned slides or a comment thread beside a real article is no wrapper: its
// prose is in items (`items`: the blocks inside lists of items, empty when there are none). The
// blocks of one marked element are consecutive and share its depth (adjacent marked siblings
// count as one).
std::vector<bool> marked_boilerplate(const HtmlDocument& doc, const std::vector<uint16_t>& sel, const std::vector<bool>& items) {
    const size_t n = doc.blocks.size();
    std::vector<bool> marked(n, false);
    double total = 0;
    for (size_t i = 0; i < n; i++)
        if (sel[i]) total += prose_score(doc, doc.blocks[i]);
    for (size_t i = 0; i < n;) {
        const HtmlBlock& b = doc.blocks[i];
        if (!sel[i] || b.context >= 0 || b.context_depth <= sel[i]) {
            i++;
            continue;
        }
        size_t j = i;
        double prose = 0;
        for (; j < n && sel[j] && doc.blocks[j].context < 0 && doc.blocks[j].context_depth == b.context_depth; j++)
            if (items.empty() || !items[j]) prose += prose_score(doc, doc.blocks[j]);
        const bool wrapper = prose > 0 && prose >= kWrapperShare * total;
        for (size_t k = i; k < j; k++) marked[k] = !wrapper;
        i = j;
    }
    return marked;
}

// Inside the main region a paragraph (<p>, <blockquote>) whose links are more than a third of its
// text but at most kQuoteLinkDensity is left to its neighbours (short), not bad by itself: an
// embedded post quoted in the article (a tweet's text with its links, its attribution line whose
// date is a link), a sentence citing its sources, a deals paragraph. Readability keeps every <p>
// of the article whatever its links (its _cleanConditionally weighs divs, lists and tables, not
// paragraphs), and trafilatura tests the link density of long paragraphs only from 0.8 on. A
// paragraph that is mostly one link (a "related story" line: a label and a headline) stays bad,
// and so does one inside an element marked as boilerplate. (0.6 kept one more deals paragraph but
// lost more held-out documentation pages, whose paragraphs link most of their words.)
constexpr double kQuoteLinkDensity = 0.5;
BlockClass region_class(const HtmlBlock& b, bool boiler_context) {
    const BlockClass c = initial_class(b, kProseChars, boiler_context);
    if (c == BlockClass::Bad && !boiler_context && b.kind == HtmlBlockKind::Paragraph && link_density(b) > kBadLinkDensity &&
        link_density(b) <= kQuoteLinkDensity)
        return BlockClass::Short;
    return c;
}

// Step 2 over the classes of step 1: short and near-good blocks decided by their neighbours.
std::vector<BlockClass> neighbours(const std::vector<BlockClass>& first) {
    const size_t n = first.size();
    // Nearest class on each side, in O(n): `gb` skips short and near-good blocks (the nearest good
    // or bad one), `any` skips short ones only. The page's edges count as bad. The classes after
    // each block are found backwards, both in one byte (gb in bits 0-1, any in bits 2-3); those
    // before it on the way forwards.
    std::vector<uint8_t> next(n);
    BlockClass gb = BlockClass::Bad, any = BlockClass::Bad;
    for (size_t i = n; i-- > 0;) {
        next[i] = static_cast<uint8_t>(static_cast<unsigned>(gb) | static_cast<unsigned>(any) << 2);
        if (first[i] == BlockClass::Good || first[i] == BlockClass::Bad) gb = first[i];
        if (first[i] != BlockClass::Short) any = first[i];
    }
    std::vector<BlockClass> out(first);
    gb = any = BlockClass::Bad;
    for (size_t i = 0; i < n; i++) {
        const BlockClass p = gb, q = static_cast<BlockClass>(next[i] & 3), prev_any = any,
                         next_any = static_cast<BlockClass>(next[i] >> 2);
        if (first[i] == BlockClass::Short) {
            if (p == BlockClass::Good && q == BlockClass::Good) out[i] = BlockClass::Good;
            else if (p == BlockClass::Bad && q == BlockClass::Bad) out[i] = BlockClass::Bad;
            else if ((p == BlockClass::Bad && prev_any == BlockClass::NearGood) ||
                     (q == BlockClass::Bad && next_any == BlockClass::NearGood))
                out[i] = BlockClass::Good;
            else out[i] = BlockClass::Bad;
        } else if (first[i] == BlockClass::NearGood) {
            out[i] = (p == BlockClass::Bad && q == BlockClass::Bad) ? BlockClass::Bad : BlockClass::Good;
        }
        if (first[i] == BlockClass::Good || first[i] == BlockClass::Bad) gb = first[i];
        if (first[i] != BlockClass::Short) any = first[i];
    }
    return out;
}

// The article's metadata is no part of its text wherever it sits (issue 29: its hand-made texts
// leave out bylines, datelines and the pictures' captions and credits): the blocks html_blocks
// marks as metadata (the markup of html_blocks.hpp above kHtmlMetadataMaxChars) are not content,
// as Readability removes the byline node before it scores and trafilatura discards author,
// byline, timestamp, meta and caption elements and every <figure> before it extracts. Inside the
// article's container such a line is short and sits between paragraphs, so that a boilerplate
// class costing it two classes left it to the neighbours rule, which made it content (and most
// bylines and dates carry no boilerplate word at all). Applied after the neighbours rule, unless
// the metadata would hold as much of the good blocks' text as the rest (a page of captioned
// pictures, whose captions are its text, keeps them; nothing is emptied).
void drop_metadata(const HtmlDocument& doc, std::vector<BlockClass>& out) {
    if (doc.metadata.empty()) return;
    uint64_t meta = 0, other = 0;
    for (size_t i = 0; i < out.size(); i++)
        if (out[i] == BlockClass::Good) (doc.is_metadata(i) ? meta : other) += doc.blocks[i].chars;
    if (meta >= other) return;
    for (size_t i = 0; i < out.size(); i++)
        if (doc.is_metadata(i)) out[i] = BlockClass::Bad;
}

// A headline shorter than this (code points) is not taken for the page's title: a word or two
// ("News", "Blog") found in any title.
constexpr uint32_t kTitleMinChars = 10;

// A block whose whole text is part of the page's <title> ("Headline" in "Headline - Site").
bool repeats_title(const HtmlDocument& doc, const HtmlBlock& b) {
    const std::string_view t(doc.text.data() + b.begin, doc.end(b) - b.begin);
    return !t.empty() && std::string_view(doc.title).find(t) != std::string_view::npos;
}

}  // namespace

std::vector<BlockClass> html_classify(HtmlDocument& doc) {
    const size_t n = doc.blocks.size();
    std::vector<bool> items;  // the blocks inside lists of items (empty: none)
    std::vector<SelectedRun> runs = main_region(doc, items);
    const bool many_regions = doc.regions.size() >= (size_t(1) << 16);  // 1 MB and more
    doc.regions = HtmlRegions();
    if (many_regions) release_free_memory();  // a system call: not for every small page
    // for each block, the depth of the selected element it belongs to (0: not selected)
    std::vector<uint16_t> sel;
    if (!runs.empty()) {
        sel.assign(n, 0);
        for (const SelectedRun& r : runs)
            for (size_t i = r.first; i < r.last; i++) sel[i] = r.depth;
        std::vector<SelectedRun>().swap(runs);
    }
    std::vector<BlockClass> first(n), out;
    if (sel.empty()) {
        // no region holds prose: jusText's classification over the whole page
        for (size_t i = 0; i < n; i++) first[i] = initial_class(doc.blocks[i], kLongChars, doc.blocks[i].context < 0);
        out = neighbours(first);
    } else {
        // Inside the main region its evidence of prose stands for the length a block needs
        // alone: a paragraph of short-paragraph news is good from kProseChars code points on. A
        // boilerplate class of an element inside the region (a share bar, a byline box, the
        // comments) costs its blocks two steps; one of the region itself or of its ancestors
        // nothing, since the region was chosen on its text. When that leaves no good block, the
        // classes inside the region were wrong about the whole article (paragraphs inside an
        // "ad-wrapper"), and the region's blocks are classified without them.
        const std::vector<bool> marked = marked_boilerplate(doc, sel, items);
        for (bool classes : {true, false}) {
            for (size_t i = 0; i < n; i++)
                first[i] = sel[i] ? region_class(doc.blocks[i], classes && marked[i]) : BlockClass::Bad;
            out = neighbours(first);
            if (std::find(out.begin(), out.end(), BlockClass::Good) != out.end()) break;
        }
    }
    drop_metadata(doc, out);
    // Headings: one that is not bad by itself and comes at most 200 code points before a good
    // block is good (jusText's max_heading_distance): a title belongs with the text it heads.
    // Outside the main region a short heading (under kShortChars) is good only right before a
    // good block: the page's title above a byline and a share bar is the page's, not the
    // article's text (a bare copy of the article has none), while a standfirst in heading markup
    // (a sentence of the length of a paragraph) reads on into the article, unless it repeats the
    // page's <title> (a long title: the page's, as Readability drops a heading that duplicates
    // the title).
    for (size_t i = 0; i < n; i++) {
        if (doc.blocks[i].kind != HtmlBlockKind::Heading || out[i] == BlockClass::Good || doc.is_metadata(i) ||
            initial_class(doc.blocks[i], kLongChars, doc.blocks[i].context < 0) == BlockClass::Bad)
            continue;
        const uint64_t reach =
            (sel.empty() || sel[i] || (doc.blocks[i].chars >= kShortChars && !repeats_title(doc, doc.blocks[i]))) ? kHeadingDistance : 0;
        uint64_t distance = 0;
        for (size_t j = i + 1; j < n && distance <= reach; j++) {
            if (out[j] == BlockClass::Good) {
                out[i] = BlockClass::Good;
                break;
            }
            distance += doc.blocks[j].chars;
        }
    }
    // A heading heads what follows it: a short one whose next block that is no heading is not
    // content ("See also", "More from the section", "Related articles" closing the article, above
    // a list of links or teasers the region leaves out) is not content either, whatever its
    // neighbour before it (the neighbours rule made it good beside the article's last paragraph).
    // Allowing a gap (jusText's 200 code points, or 70: a hatnote, a caption between the title
    // and its text) kept more such headings than it saved titles (bench/README.md, realpages5).
    // A block that markup inside the heading's own context marks as boilerplate (a figure's caption,
    // a credit line between the title and the text) is not what the heading heads: it is looked
    // past, up to kHeadingLookPast blocks (bounded: linear on any page).
    constexpr size_t kHeadingLookPast = 16;
    // A linked heading is no heading to look past but what the heading heads: a label heading a
    // list of teaser titles ("More:" above <li><h4><a>headline</a></h4>) heads no content, where
    // a heading above a subtitle heads the text below both.
    std::vector<uint32_t> after(n + 1, static_cast<uint32_t>(n));  // after[i]: the first block >= i that is no unlinked heading
    for (size_t i = n; i-- > 0;)
        after[i] = doc.blocks[i].kind != HtmlBlockKind::Heading || linked_heading(doc.blocks[i]) ? static_cast<uint32_t>(i) : after[i + 1];
    for (size_t i = 0; i < n; i++) {
        const HtmlBlock h = doc.blocks[i];
        if (h.kind != HtmlBlockKind::Heading || out[i] != BlockClass::Good || h.chars >= kShortChars) continue;
        size_t next = after[i + 1];
        for (size_t passed = 0; next < n && passed < kHeadingLookPast; passed++) {
            const HtmlBlock b = doc.blocks[next];
            if (b.context >= 0 || b.context_depth <= h.context_depth) break;
            next = after[next + 1];
        }
        if (next >= n || out[next] != BlockClass::Good) out[i] = BlockClass::Bad;
    }
    return out;
}

namespace {

// The words of a text: its runs of letters and digits (any script), lowercased.
template <class F>
void similarity_tokens(std::string_view s, F f) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = p + s.size();
    std::string tok;
    while (p < end) {
        uint32_t cp;
        p += decode_utf8(p, end, &cp);
        if (cp != kInvalidCodePoint && unicode::is_alnum(cp)) {
            char buf[4];
            tok.append(buf, encode_utf8(unicode::to_lower_simple(cp), buf));
        } else if (!tok.empty()) {
            f(tok);
            tok.clear();
        }
    }
    if (!tok.empty()) f(tok);
}

// Readability's textSimilarity: how much of b's word text (each word's bytes and one separator)
// is made of words a holds, from 0 to 1 (0 when b has no word). Token overlap, not order: "Headline |
// Site" holds every word of "Headline", and so does "Headline – a review" of "Headline - a review".
double text_similarity(std::string_view a, std::string_view b) {
    std::unordered_set<std::string> in_a;
    similarity_tokens(a, [&](const std::string& t) { in_a.insert(t); });
    size_t all = 0, missing = 0;
    similarity_tokens(b, [&](const std::string& t) {
        all += t.size() + 1;
        if (!in_a.count(t)) missing += t.size() + 1;
    });
    return all ? 1.0 - static_cast<double>(missing) / static_cast<double>(all) : 0.0;
}

// Readability's threshold for a header that duplicates the title
constexpr double kRestatesSimilarity = 0.75;

// Whether text restates a statement the page makes of itself (its title, its description): its
// words mostly (over `threshold`) among the statement's, and with `both` the statement's mostly
// among its own. A text more than twice as long as the statement (at most kHtmlTitleMaxBytes)
// restates nothing and is not compared: the comparison stays bounded.
bool restates(std::string_view statement, std::string_view text, double threshold, bool both) {
    if (statement.empty() || text.size() > 2 * statement.size() + 16) return false;
    return text_similarity(statement, text) > threshold && (!both || text_similarity(text, statement) > threshold);
}

// The page's headline and summary line where they open the content. The page states them apart
// (its <title> and og:title; its description and og:description), and its article's text is what
// follows them: issue 29's hand-made texts leave them out, as Readability drops a header that
// duplicates the title and trafilatura keeps the title apart; two copies of one article agree on
// their text, not on their headlines. From the first good block on, a block is dropped while it
//   - restates the title or og:title (Readability's _headerDuplicatesTitle, with its textSimilarity
//     over 0.75): "Headline" of "Headline | Site", a headline that differs from the <title> by a
//     dash or a quote mark, or that only og:title states; in heading markup or not (a template's
//     headline in a <div>); at least kTitleMinChars code points; or
//   - is a summary line: nearly the page's description (kSummarySimilarity both ways: the same
//     sentence), shorter than a lead paragraph (kLeadChars), no paragraph (a heading, a <div>), and
//     in another element than the next good block (the article's paragraphs).
// A first paragraph that the description was cut from holds more than the description, and a
// standfirst paragraph (<p>, or kLeadChars long) is the article's lead, which trafilatura's
// annotators keep (its set lost 0.002 of F1 to dropping those too; bench/README.md). At most
// kOpeningBlocks blocks are dropped, never the last good one (a page of a headline alone keeps it).
constexpr double kSummarySimilarity = 0.9;
constexpr size_t kOpeningBlocks = 3;
void drop_restated_opening(const HtmlDocument& doc, std::vector<BlockClass>& cls) {
    const size_t n = cls.size();
    size_t i = 0;
    for (size_t k = 0; k < kOpeningBlocks; k++) {
        while (i < n && cls[i] != BlockClass::Good) i++;
        size_t j = i + 1;
        while (j < n && cls[j] != BlockClass::Good) j++;
        if (j >= n) return;
        const HtmlBlock b = doc.blocks[i], next = doc.blocks[j];
        const std::string_view text(doc.text.data() + b.begin, doc.end(b) - b.begin);
        const bool headline = b.chars >= kTitleMinChars && (restates(doc.title, text, kRestatesSimilarity, false) ||
                                                            restates(doc.og_title, text, kRestatesSimilarity, false));
        const bool summary = !headline && b.kind != HtmlBlockKind::Paragraph && b.chars < kLeadChars &&
                             (next.context != b.context || next.context_depth != b.context_depth) &&
                             (restates(doc.description, text, kSummarySimilarity, true) ||
                              restates(doc.og_description, text, kSummarySimilarity, true));
        if (!headline && !summary) return;
        cls[i] = BlockClass::Bad;
    }
}

}  // namespace

std::string html_text(const char* html, size_t len, InterruptPoller& poller) {
    HtmlFeedOptions opt;
    opt.blocks = false;
    HtmlDocument doc = html_blocks(html, len, poller, opt);
    std::string text = std::move(doc.text);  // the blocks each followed by '\n' already
    if (!text.empty()) text.pop_back();
    return text;
}

std::string html_content(const char* html, size_t len, InterruptPoller& poller) {
    HtmlDocument doc = html_blocks(html, len, poller);
    std::vector<BlockClass> cls = html_classify(doc);
    html_jsonld_evidence(doc, cls, poller);  // the page's JSON-LD articleBody, where it states one
    drop_restated_opening(doc, cls);
    // No identifiable main content: no good block, or good blocks holding less than
    // kMinContentShare of the page's text outside marked boilerplate (context -1): a lone footer
    // paragraph on a page of link lists.
    uint64_t good = 0, all = 0;
    for (size_t i = 0; i < cls.size(); i++) {
        if (doc.blocks[i].context >= 0) all += doc.blocks[i].chars;
        if (cls[i] == BlockClass::Good) good += doc.blocks[i].chars;
    }
    // An own list right after the content (an index page's table of contents) is the content's,
    // not the page's text that the content fails to hold.
    own_link_lists(
        doc, [&](size_t i) { return cls[i] == BlockClass::Good; },
        [&](size_t first, size_t last) {
            for (size_t i = first; i < last; i++) all -= doc.blocks[i].chars;
        });
    bool content = good > 0 && static_cast<double>(good) >= kMinContentShare * static_cast<double>(all);
    return join_blocks(doc, content ? &cls : nullptr);
}

}  // namespace ndd
