# ndd: PGXS build of the extension plus the core's unit tests.
#
#   make                 build ndd.so and the install script
#   make install         install into the PostgreSQL found by PG_CONFIG
#   make unit            build and run the GoogleTest unit tests of src/core
#   make installcheck    the pg_regress tests against the running server of PG_CONFIG
#   make prove_installcheck   the TAP tests (test/t), each with its own servers
#   scripts/test.sh      everything (unit + pg_regress + script + TAP tests, on every major it
#                        finds), see doc/reference.md, "Tests"
#
# Source files are picked up by wildcard: add a file, not a Makefile line.

EXTENSION   = ndd
EXTVERSION  = 0.2.0
MODULE_big  = ndd

CORE_SRCS   = $(sort $(wildcard src/core/*.cpp))
SQL_SRCS    = $(sort $(wildcard src/*.c))
OBJS        = $(SQL_SRCS:.c=.o) $(CORE_SRCS:.cpp=.o)

# The install script is assembled from numbered pieces, one per area (types, fingerprints, index,
# workflows), so that each area's SQL lives next to nothing else.
SCRIPT_PARTS = $(sort $(wildcard src/sql/*.sql))
DATA_built  = $(EXTENSION)--$(EXTVERSION).sql
# Released install scripts (frozen as shipped) and the upgrade scripts between releases: every
# released version must reach the current one by ALTER EXTENSION ndd UPDATE.
DATA        = $(wildcard sql/$(EXTENSION)--*.sql)

# Every file in test/sql/ is a pg_regress test; test/expected/ holds its output (`make installcheck`).
REGRESS     = $(sort $(basename $(notdir $(wildcard test/sql/*.sql))))
# --no-locale: the expected output is the C locale's (to_tsvector's parser follows LC_CTYPE), so
# `make installcheck` passes against a cluster of any locale, e.g. Debian's C.UTF-8 one.
# --encoding=UTF8: the tests' texts are UTF-8; without it the database takes template0's encoding,
# SQL_ASCII in a cluster made without a locale (a shell without LANG, as in containers and
# debootstrap roots, e.g. the package build's throwaway cluster of dh_pgxs_test).
REGRESS_OPTS = --inputdir=test --load-extension=$(EXTENSION) --no-locale --encoding=UTF8

# The TAP tests (test/t/*.pl, PostgreSQL::Test::Cluster): `make prove_installcheck`, as a user other
# than root (initdb refuses root). Not part of `make installcheck` (no TAP_TESTS): they start their
# own servers, for several minutes. scripts/test.sh runs both.
PROVE_TESTS = $(sort $(wildcard test/t/*.pl))

# No -mpopcnt or -march: a package built here must run on any CPU of its architecture. The bit
# count instruction is chosen at run time (src/core/popcount.h).
# NDD_EXTVERSION: the version the library reports in its magic block (PostgreSQL 18, src/pg_compat.h).
PG_CPPFLAGS = -I$(srcdir)/src -I$(srcdir)/src/core -DNDD_EXTVERSION='"$(EXTVERSION)"'
# libxml2's headers: the HTML parser of src/core/html_blocks.cpp
PG_CPPFLAGS += $(shell xml2-config --cflags)
PG_CXXFLAGS = -std=c++17 -fPIC -O2 -fvisibility=hidden
# ICU: the word boundaries of the tokenizer 'unicode' (src/core/word_breaks.cpp)
SHLIB_LINK  = -lxxhash -licuuc -lstdc++
SHLIB_LINK += -lxml2
# URLs (src/core/url.cpp): uriparser parses and normalizes (RFC 3986), libidn2 maps host names (IDNA).
URL_LIBS    = -luriparser -lidn2
SHLIB_LINK += $(URL_LIBS)

# No JIT bitcode: PGXS would compile the C++ core with clang++ without our C++ flags, and
# inlining these functions into JIT-compiled expressions buys nothing. `override`, because
# Makefile.global (included below) assigns with_llvm = yes again.
override with_llvm = no

PG_CONFIG  ?= pg_config
PGXS       := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks no header dependencies (unless PostgreSQL was configured with --enable-depend), and an
# object compiled against an older struct links without complaint and crashes (html_blocks.hpp's
# chunk size did): every object depends on every header of ours. Coarse, and always correct.
$(OBJS): $(wildcard src/*.h src/core/*.h src/core/*.hpp)

$(DATA_built): $(SCRIPT_PARTS)
	cat $^ > $@

prove_installcheck:
	$(prove_installcheck)

# ---- ndd-load (loader/, doc/loader.md): the program that loads files, archives and mail into a
# table. Its libraries (libarchive, libmagic, poppler, ...) are not the extension's: `make` builds it
# when they are all present and otherwise says which are missing and goes on. NDD_LOADER=required
# makes a missing library an error (the tests), NDD_LOADER=no leaves the loader out (debian/rules,
# in its loop over the majors: it builds the loader once, into the binary package ndd-load).
NDD_LOADER ?= auto
all: loader
install: install-loader
uninstall: uninstall-loader
clean: clean-loader

loader install-loader:
	@if [ "$(NDD_LOADER)" = no ] || [ ! -f loader/Makefile ]; then exit 0; fi; \
	missing=$$($(MAKE) -s --no-print-directory -C loader missing); \
	if [ -n "$$missing" ]; then \
		echo "ndd-load is not built: $$missing"; \
		[ "$(NDD_LOADER)" != required ]; exit $$?; \
	fi; \
	$(MAKE) --no-print-directory -C loader PG_CONFIG='$(PG_CONFIG)' $(if $(filter install-loader,$@),install)

uninstall-loader:
	@if [ -f loader/Makefile ]; then $(MAKE) -s --no-print-directory -C loader uninstall PG_CONFIG='$(PG_CONFIG)'; fi

clean-loader:
	@if [ -f loader/Makefile ]; then $(MAKE) -s --no-print-directory -C loader clean; fi

.PHONY: loader install-loader uninstall-loader clean-loader

.PHONY: prove_installcheck

# ---- unit tests of the pure C++ core (no PostgreSQL involved) ----
UNIT_SRCS   = $(sort $(wildcard test/unit/*.cpp))
UNIT_BIN    = build/unit_tests
UNIT_CXXFLAGS = -std=c++17 -O2 -g -Wall -Wextra -Isrc/core
UNIT_CXXFLAGS += $(shell xml2-config --cflags)
UNIT_LIBS   = -lgtest -lgtest_main -lxxhash -licuuc -pthread
UNIT_LIBS  += -lxml2
UNIT_LIBS  += $(URL_LIBS)

$(UNIT_BIN): $(CORE_SRCS) $(UNIT_SRCS) $(wildcard src/core/*.hpp src/core/*.h)
	@mkdir -p build
	$(CXX) $(UNIT_CXXFLAGS) -o $@ $(CORE_SRCS) $(UNIT_SRCS) $(UNIT_LIBS)

unit: $(UNIT_BIN)
	./$(UNIT_BIN)

.PHONY: unit
EXTRA_CLEAN = build $(DATA_built)

# ---- PGXN distribution: `make dist` -> ndd-$(EXTVERSION).zip, the committed tree at HEAD under
# ndd-$(EXTVERSION)/ (uncommitted changes are not in it). META.json describes it (doc/install.md).
DIST = $(EXTENSION)-$(EXTVERSION)

dist:
	git archive --format=zip --prefix=$(DIST)/ --output=$(DIST).zip HEAD

.PHONY: dist
