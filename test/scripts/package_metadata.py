"""The package metadata of ndd agrees with itself and with the formats it is written in.

Run by test/scripts/package_metadata.sh (test.sh runs only *.sh) with Debian's python3, as
    package_metadata.py ROOT CONTROL_DEFAULT_VERSION MAKEFILE_EXTVERSION
where the caller had PostgreSQL read ndd.control's default_version (pg_available_extensions) and
make read the Makefile's EXTVERSION. Checks, each failure printed, exit 1 if any:
  - META.json is valid PGXN metadata (PGXN Meta Spec 1.0.0, https://pgxn.org/meta/spec.txt): the
    structure by a JSON Schema written from the spec (python3-jsonschema), every version and
    prerequisite range by the PGXN client's own SemVer parser (pgxnclient), the files it names exist;
  - one version everywhere: META.json's version and provides.ndd.version, ndd.control's
    default_version, the Makefile's EXTVERSION and debian/changelog's upstream version (parsed by
    python3-debian) are equal, and CHANGELOG.md has a section for it;
  - one license: debian/copyright (DEP-5, parsed by python3-debian) carries LICENSE's text and
    copyright line, and META.json says "postgresql".
"""
import json
import os
import re
import sys

import jsonschema
from debian.changelog import Changelog
from debian.copyright import Copyright
from pgxnclient.utils.semver import SemVer

# The PGXN Meta Spec 1.0.0 as a JSON Schema (draft 7): the required keys, the types of the
# optional ones, the closed lists (licenses, phases, relations, release status), and custom keys
# only with an x_ prefix. Versions are strings here; SemVer() below parses them.
STRING = {"type": "string", "minLength": 1}
STRINGS = {"type": "array", "items": STRING, "minItems": 1}
LICENSES = [
    "agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd", "gfdl_1_2",
    "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit", "mozilla_1_0",
    "mozilla_1_1", "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay", "sun", "zlib",
    "open_source", "restricted", "unrestricted", "unknown",
]
CUSTOM = {"^[xX]_": {}}
PREREQ_RELATIONS = {
    "type": "object",
    "properties": {
        rel: {"type": "object", "additionalProperties": {"type": ["string", "integer"]}}
        for rel in ("requires", "recommends", "suggests", "conflicts")
    },
    "patternProperties": CUSTOM,
    "additionalProperties": False,
}
SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "required": ["abstract", "license", "maintainer", "meta-spec", "name", "provides", "version"],
    "properties": {
        # at least two characters, none of them a slash, backslash, control or space
        "name": {"type": "string", "pattern": r"^[^/\\\s\x00-\x1f]{2,}$"},
        "version": STRING,
        "abstract": STRING,
        "description": STRING,
        "generated_by": STRING,
        "maintainer": {"oneOf": [STRING, STRINGS]},
        "license": {"oneOf": [
            {"enum": LICENSES},
            {"type": "array", "items": {"enum": LICENSES}, "minItems": 1},
            {"type": "object", "additionalProperties": {"type": "string", "format": "uri"}, "minProperties": 1},
        ]},
        "provides": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "required": ["file", "version"],
                "properties": {"file": STRING, "version": STRING, "abstract": STRING, "docfile": STRING},
                "patternProperties": CUSTOM,
                "additionalProperties": False,
            },
        },
        "meta-spec": {
            "type": "object",
            "required": ["version"],
            "properties": {"version": {"const": "1.0.0"}, "url": {"type": "string"}},
            "patternProperties": CUSTOM,
            "additionalProperties": False,
        },
        "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 255}},
        "no_index": {
            "type": "object",
            "properties": {"file": STRINGS, "directory": STRINGS},
            "patternProperties": CUSTOM,
            "additionalProperties": False,
        },
        "prereqs": {
            "type": "object",
            "properties": {
                phase: PREREQ_RELATIONS for phase in ("configure", "build", "test", "runtime", "develop")
            },
            "patternProperties": CUSTOM,
            "additionalProperties": False,
        },
        "release_status": {"enum": ["stable", "testing", "unstable"]},
        "resources": {
            "type": "object",
            "properties": {
                "homepage": {"type": "string"},
                "bugtracker": {"type": "object", "properties": {"web": STRING, "mailto": STRING}},
                "repository": {"type": "object", "properties": {"url": STRING, "web": STRING, "type": STRING}},
            },
            "patternProperties": CUSTOM,
            "additionalProperties": False,
        },
    },
    "patternProperties": CUSTOM,
    "additionalProperties": False,
}

# A prerequisite's version: "0" (any), a version (that one or newer), or comma-separated
# comparisons such as ">= 15.0.0, < 19.0.0".
RANGE_PART = re.compile(r"^\s*(==|!=|>=|<=|>|<)?\s*(\S+)\s*$")


def main(root, control_version, make_version):
    errors = []

    def check(ok, message):
        if not ok:
            errors.append(message)

    with open(os.path.join(root, "META.json"), encoding="utf-8") as f:
        meta = json.load(f)
    for e in jsonschema.Draft7Validator(SCHEMA).iter_errors(meta):
        errors.append("META.json %s: %s" % ("/".join(map(str, e.absolute_path)) or "(top)", e.message))

    def semver(where, value):
        try:
            return SemVer(value)
        except ValueError as e:
            errors.append("META.json %s: %r is not a semantic version (%s)" % (where, value, e))

    semver("version", meta.get("version"))
    for ext, p in meta.get("provides", {}).items():
        semver("provides/%s/version" % ext, p.get("version"))
        for key in ("file", "docfile"):
            if key in p:
                check(os.path.isfile(os.path.join(root, p[key])),
                      "META.json provides/%s/%s: no file %s in the tree" % (ext, key, p[key]))
    for phase, relations in meta.get("prereqs", {}).items():
        for relation, reqs in relations.items():
            for name, spec in reqs.items():
                where = "prereqs/%s/%s/%s" % (phase, relation, name)
                if spec in (0, "0"):
                    continue
                for part in str(spec).split(","):
                    m = RANGE_PART.match(part)
                    if not m:
                        errors.append("META.json %s: %r is not a version range" % (where, spec))
                    else:
                        semver(where, m.group(2))
    postgres = meta.get("prereqs", {}).get("runtime", {}).get("requires", {}).get("PostgreSQL")
    check(postgres is not None, "META.json names no PostgreSQL in prereqs/runtime/requires")

    with open(os.path.join(root, "debian", "changelog"), encoding="utf-8") as f:
        debian_version = Changelog(f).upstream_version
    versions = {
        "META.json version": meta.get("version"),
        "META.json provides/ndd/version": meta.get("provides", {}).get("ndd", {}).get("version"),
        "ndd.control default_version": control_version,
        "Makefile EXTVERSION": make_version,
        "debian/changelog (upstream part)": debian_version,
    }
    check(len(set(versions.values())) == 1,
          "the versions differ: " + ", ".join("%s %s" % kv for kv in versions.items()))
    with open(os.path.join(root, "CHANGELOG.md"), encoding="utf-8") as f:
        headings = [line.split()[1] for line in f if line.startswith("## ") and len(line.split()) > 1]
    check(meta.get("version") in headings,
          "CHANGELOG.md has no section \"## %s\" (its sections: %s)" % (meta.get("version"), ", ".join(headings)))

    with open(os.path.join(root, "LICENSE"), encoding="utf-8") as f:
        title, _, notice, _, *body = f.read().rstrip("\n").split("\n")
    with open(os.path.join(root, "debian", "copyright"), encoding="utf-8") as f:
        copyright = Copyright(f)
    files = copyright.find_files_paragraph("Makefile")
    check(files is not None and files.license.synopsis == "PostgreSQL",
          "debian/copyright: the license of the source files is not PostgreSQL")
    # LICENSE says "Copyright (c) 2025-2026, The ndd authors", DEP-5 "2025-2026 The ndd authors"
    check(files is not None and files.copyright == re.sub(r"^Copyright \(c\) ([^,]*), ", r"\1 ", notice),
          "debian/copyright: Copyright %r is not LICENSE's %r" % (files and files.copyright, notice))
    licenses = [p for p in copyright.all_license_paragraphs() if p.license.synopsis == "PostgreSQL"]
    check(len(licenses) == 1 and licenses[0].license.text == "\n".join(body),
          "debian/copyright: the text of License: PostgreSQL is not LICENSE's")
    check(title == "PostgreSQL License" and meta.get("license") == "postgresql",
          "LICENSE is %r and META.json's license %r: not the PostgreSQL License" % (title, meta.get("license")))

    for e in errors:
        print("FAIL:", e)
    if not errors:
        print("META.json is valid PGXN metadata (Meta Spec 1.0.0); version %s everywhere (%s); "
              "debian/copyright carries LICENSE" % (meta["version"], ", ".join(versions)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
