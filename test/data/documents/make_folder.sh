#!/usr/bin/env bash
# test/data/documents/make_folder.sh: remakes folder/, the demo's "folder of documents" (README.md
# beside this script), from Debian 12's licence texts with pandoc and LibreOffice. The files are
# committed: the demo and the tests need neither tool. Needs pandoc and libreoffice-writer-nogui.
#   bash test/data/documents/make_folder.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/folder
work=$(mktemp -d /tmp/ndd-folder.XXXXXX)
trap 'rm -rf "$work"' EXIT
rm -rf "$out" && mkdir -p "$out"

# the texts: five licences as Debian ships them, in every format; a near-duplicate of two of them
# (GFDL 1.2, the earlier version of GFDL 1.3; Apache-2.0 with 1 % of its words edited, the sample's
# edit-Apache-2.0-0.01, test/data/README.md) and one unrelated licence (CC0 1.0), in one format each
for n in Apache-2.0 Artistic GPL-2 MPL-2.0 GFDL-1.3 GFDL-1.2 CC0-1.0; do
	cp "/usr/share/common-licenses/$n" "$work/$n.txt"
done
python3 - "$here/../sample.jsonl" "$work/Apache-2.0-edited.txt" <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    d = json.loads(line)
    if d["id"] == "edit-Apache-2.0-0.01":
        open(sys.argv[2], "w", encoding="utf-8").write(d["text"])
PY

convert() {  # convert NAME TITLE EXT...: pandoc from the text, the PDF by LibreOffice from the ODT
	local name=$1 title=$2 ext
	shift 2
	for ext in "$@"; do
		case $ext in
		txt) cp "$work/$name.txt" "$out/$name.txt" ;;
		html) pandoc -f markdown -s --metadata title="$title" "$work/$name.txt" -o "$out/$name.html" ;;
		docx | odt | epub) pandoc -f markdown --metadata title="$title" "$work/$name.txt" -o "$out/$name.$ext" ;;
		pdf)
			pandoc -f markdown --metadata title="$title" "$work/$name.txt" -o "$work/$name.odt"
			soffice -env:UserInstallation="file://$work/lo" --headless --convert-to pdf --outdir "$out" "$work/$name.odt" >/dev/null
			;;
		esac
	done
}
for n in Apache-2.0 Artistic GPL-2 MPL-2.0 GFDL-1.3; do
	convert "$n" "$n" txt html docx odt epub pdf
done
convert GFDL-1.2 GFDL-1.2 pdf
convert Apache-2.0-edited Apache-2.0 docx
convert CC0-1.0 CC0-1.0 epub
ls -l "$out"
du -sh "$out"
