#!/usr/bin/env python3
"""Builds test/data/scripts.jsonl: real documents in scripts written without spaces (Japanese,
Chinese, Thai), in Korean and, for comparison, in English, from Debian 12 packages (run once; the
output is checked in; test/data/README.md lists the sources and their licences).

  ja  manpages-ja: manual pages whose roff source is under the GNU GPL, rendered by groff
  zh  manpages-zh: manual pages (zh_CN), rendered by groff (GFDL-1.2+)
  ko  the Korean manual pages of man-db, passwd, login, psmisc and xz-utils, rendered by groff
  th  the Thai translations (msgstr) of dpkg and apt (.mo catalogues, read by msgunfmt), in
      documents of consecutive messages
  en  the English manual pages of the same programs as the Japanese ones (manpages, coreutils...)

Each document is cut at a line end to at most MAX_BYTES. Usage: make_scripts_sample.py OUT.jsonl
"""
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys

MAX_BYTES = 6000
PER_LANGUAGE = 40


def package_of(path):
    out = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True).stdout
    pkg = out.split(":")[0].strip()
    ver = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True).stdout
    return pkg, ver


def render_man(path):
    """The manual page as plain text (groff, no line filling limit), spaces collapsed."""
    with gzip.open(path, "rb") as f:
        src = f.read()
    pre = subprocess.run(["preconv", "-e", "UTF-8"], input=src, capture_output=True, check=True).stdout
    out = subprocess.run(["groff", "-man", "-Tutf8", "-rLL=2000n", "-P-cbou"], input=pre,
                         capture_output=True).stdout.decode("utf-8", "replace")
    lines = [re.sub(r"[ \t]+", " ", l).strip() for l in out.splitlines()]
    text = "\n".join(l for l in lines if l)
    # the header and footer lines (name(section), date) are layout, not content
    return "\n".join(text.split("\n")[1:-1])


def cut(text):
    b = text.encode("utf-8")
    if len(b) <= MAX_BYTES:
        return text
    b = b[:MAX_BYTES]
    t = b.decode("utf-8", "ignore")
    return t[: t.rfind("\n")] if "\n" in t else t


def script_share(text, lo, hi):
    letters = [c for c in text if c.isalpha()]
    return sum(lo <= ord(c) <= hi for c in letters) / max(1, len(letters))


def man_docs(lang, directory, names, want, keep, share):
    docs = []
    for name in names:
        path = os.path.join(directory, name)
        if not os.path.isfile(path):
            continue
        if keep and not keep(path):
            continue
        text = cut(render_man(path))
        if len(text.encode()) < 1500 or not share(text):
            continue
        pkg, ver = package_of(path)
        docs.append({"id": f"{lang}-{name.replace('.gz', '')}", "lang": lang, "source": path,
                     "package": pkg, "version": ver, "text": text})
        if len(docs) == want:
            break
    return docs


def gpl_source(path):
    with gzip.open(path, "rb") as f:
        return b"General Public License" in f.read()


def mo_docs(lang, paths, want, per_doc=25):
    docs = []
    for path in paths:
        po = subprocess.run(["msgunfmt", "--no-wrap", path], capture_output=True, text=True, check=True).stdout
        msgs = []
        for m in re.finditer(r'^msgstr(?:\[\d\])? "(.*)"$', po, re.M):
            s = m.group(1).encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
            if script_share(s, 0x0E00, 0x0E7F) > 0.5 and len(s) > 20:
                msgs.append(s)
        pkg, ver = package_of(path)
        for i in range(0, len(msgs) - per_doc + 1, per_doc):
            text = cut("\n".join(msgs[i:i + per_doc]))
            docs.append({"id": f"{lang}-{pkg}-{i // per_doc}", "lang": lang, "source": path,
                         "package": pkg, "version": ver, "text": text})
            if len([d for d in docs if d["package"] == pkg]) == want // len(paths):
                break
    return docs


def main(out):
    ja_dir, zh_dir, ko_dir, en_dir = ("/usr/share/man/ja/man1", "/usr/share/man/zh_CN/man1",
                                      "/usr/share/man/ko", "/usr/share/man/man1")
    ja = man_docs("ja", ja_dir, sorted(os.listdir(ja_dir)), PER_LANGUAGE, gpl_source,
                  lambda t: script_share(t, 0x3040, 0x9FFF) > 0.3)
    zh = man_docs("zh", zh_dir, sorted(os.listdir(zh_dir)), PER_LANGUAGE, None,
                  lambda t: script_share(t, 0x4E00, 0x9FFF) > 0.3)
    ko_names = sorted(os.path.join(d, f) for d in os.listdir(ko_dir) for f in os.listdir(os.path.join(ko_dir, d)))
    ko = man_docs("ko", ko_dir, ko_names, PER_LANGUAGE, None, lambda t: script_share(t, 0xAC00, 0xD7A3) > 0.3)
    th = mo_docs("th", ["/usr/share/locale/th/LC_MESSAGES/dpkg.mo", "/usr/share/locale/th/LC_MESSAGES/apt.mo"],
                 PER_LANGUAGE)
    en_names = [d["source"].rsplit("/", 1)[1] for d in ja]
    en = man_docs("en", en_dir, en_names, PER_LANGUAGE, None, lambda t: True)
    with open(out, "w", encoding="utf-8") as f:
        for d in ja + zh + ko + th + en:
            d["bytes"] = len(d["text"].encode())
            d["sha1"] = hashlib.sha1(d["text"].encode()).hexdigest()
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    for lang, docs in (("ja", ja), ("zh", zh), ("ko", ko), ("th", th), ("en", en)):
        print(lang, len(docs), "documents,", sum(len(d["text"].encode()) for d in docs), "bytes", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "scripts.jsonl"))
