#!/usr/bin/env python3
"""Prints the licence texts and package copyright files every Debian machine carries as COPY text
rows "path<TAB>body": /usr/share/common-licenses/* and /usr/share/doc/*/copyright. They are real
documents full of near-duplicates (licence versions, copyright boilerplate), which makes them the
demo's sample. Files that are not valid UTF-8 are decoded with replacement characters."""
import glob
import os
import sys


def esc(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
             .replace("\r", "\\r").replace("\x00", ""))


paths = sorted(glob.glob("/usr/share/common-licenses/*")) + sorted(glob.glob("/usr/share/doc/*/copyright"))
for path in paths:
    if not os.path.isfile(path):
        continue
    with open(path, "rb") as f:
        body = f.read().decode("utf-8", errors="replace")
    sys.stdout.write(esc(path) + "\t" + esc(body) + "\n")
