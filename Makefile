# EmberHarmony for C -- the one build entry point.
#
#   make          libeh (static + shared) and every tool
#   make test     build and run every test
#   make asan     the same tests under ASan + UBSan + LSan (clang), then make tsan
#   make tsan     the thread tests under ThreadSanitizer, on every backend
#   make demo     run the examples on every backend, then migrate examples/legacy
#   make install  PREFIX=/usr/local
#   make deps     install missing Debian packages (needs root)
#
# Sources are found by directory, so adding a file needs no edit here.

BUILD     ?= build
PREFIX    ?= /usr/local
CC        ?= cc
OPT       ?= -O2
SANITIZE  ?=
NODEPS    ?=
# Where emberlint's SARIF points for its documentation (informationUri,
# each rule's helpUri): the pages `make install` puts under share/doc.
DOCS_URI  ?= file://$(PREFIX)/share/doc/emberharmony/

VERSION   := 0.1.0
SOVERSION := 0

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS += -Ilibeh/include -D_POSIX_C_SOURCE=200809L
# -fno-math-errno: libeh never reads errno, and without it sqrt and friends
# keep a scalar libm fallback branch that stops vectorization.
# -ffp-contract=off: no fused multiply-adds the source did not write, so the
# per-ISA builds of a kernel (below) compute the same bits (random numbers
# must be identical on every machine and backend; docs/random.md).
MATHFLAGS := -fno-math-errno -ffp-contract=off
CFLAGS   += -std=c11 $(OPT) -g -fPIC -fvisibility=hidden $(MATHFLAGS) $(WARN) $(SANITIZE)
LDFLAGS  += $(SANITIZE)
LIBS     := -lm -lpthread

# Backends: ref always; the others when their directory exists.
BACKENDS := ref $(notdir $(wildcard backends/blas backends/lazy))
CPPFLAGS += $(foreach b,$(filter-out ref,$(BACKENDS)),-DEH_HAVE_$(shell echo $(b) | tr a-z A-Z))
LIB_SRCS := $(wildcard libeh/src/*.c) $(foreach b,$(BACKENDS),$(wildcard backends/$(b)/*.c))
ifneq ($(filter blas,$(BACKENDS)),)
LIBS     := -llapacke -lopenblas -lfftw3 -lfftw3f -lsleef $(LIBS)
endif
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)

# Kernels compiled once per instruction set (docs/backends/blas.md, "One
# build for every x86-64"): every .c in a simd/ folder of libeh/src or of a
# backend becomes one object per ISA, with EH_ISA_SUFFIX naming its
# symbols; libeh/src/isa.c picks one at run time.  No -march=native: the
# same library runs on any x86-64, with AVX-512 or AVX2 where the CPU has
# them.  Elsewhere the simd/ files are built once, for the baseline.
SIMD_SRCS := $(wildcard libeh/src/simd/*.c) $(foreach b,$(BACKENDS),$(wildcard backends/$(b)/simd/*.c))
ifeq ($(shell $(CC) -dumpmachine 2>/dev/null | grep -c '^x86_64'),1)
SIMD_ISAS := sse2 avx2 avx512
else
SIMD_ISAS := sse2
endif
ISA_FLAGS_sse2   :=
ISA_FLAGS_avx2   := -march=x86-64-v3 -mtune=generic
ISA_FLAGS_avx512 := -march=x86-64-v4 -mtune=generic -mprefer-vector-width=512
# simd/ loops are meant to vectorize: gcc's -O2 cost model ("very cheap")
# refuses loops that need a remainder; clang vectorizes them at -O2.
SIMD_VECT := $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),,-fvect-cost-model=dynamic)
# Their generic vectors are 64 bytes wide in every build; gcc warns that
# passing those between (static, inlined) functions changes the ABI below
# AVX-512, which concerns no exported function.
SIMD_VECT += -Wno-psabi
LIB_OBJS += $(foreach i,$(SIMD_ISAS),$(SIMD_SRCS:%.c=$(BUILD)/obj/%.$(i).o))

TEST_SUPPORT_SRCS := $(wildcard tests/support/*.c)
TEST_SUPPORT_OBJS := $(TEST_SUPPORT_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_SRCS := $(wildcard tests/libeh/test_*.c)
TEST_BINS := $(TEST_SRCS:tests/libeh/%.c=$(BUILD)/tests/%)
# Tests that iterate the backends themselves (or pin one) run once; the
# others run once per backend with EH_TEST_BACKEND set.
ONCE_TESTS = $(filter $(addprefix $(BUILD)/tests/,test_conformance% test_lazy test_backend_env test_ehinfo test_custom_op test_custom_dynamic test_plugin test_plugin_blis lint/% migrate/%),$(TEST_BINS))
EACH_TESTS = $(filter-out $(ONCE_TESTS),$(TEST_BINS))

EXAMPLE_SRCS := $(wildcard examples/*.c)
EXAMPLE_BINS := $(EXAMPLE_SRCS:examples/%.c=$(BUILD)/examples/%)

STATIC := $(BUILD)/lib/libeh.a
SHARED := $(BUILD)/lib/libeh.so.$(VERSION)

DEPS_STAMP := $(if $(NODEPS),,deps)

.PHONY: all lib tests examples test asan tsan demo install deps clean
.SECONDARY:

all: $(DEPS_STAMP) lib examples

lib: $(STATIC) $(SHARED)

deps:
	@sh mk/deps.sh

# Objects depend on the flags they were built with: adding a backend
# directory (a new -DEH_HAVE_*) or changing CC/CFLAGS rebuilds them.
FLAGS_STAMP := $(BUILD)/.flags
FLAGS_NOW = $(CC) $(CPPFLAGS) $(CFLAGS)
$(FLAGS_STAMP): FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' | cmp -s - $@ || \
	  printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' > $@
.PHONY: FORCE
FORCE:

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

define SIMD_RULE
$$(BUILD)/obj/%.$(1).o: %.c $$(FLAGS_STAMP) | $$(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CPPFLAGS) -DEH_ISA_SUFFIX=$(1) $$(CFLAGS) $$(ISA_FLAGS_$(1)) $$(SIMD_VECT) -MMD -MP -c $$< -o $$@
endef
$(foreach i,$(SIMD_ISAS),$(eval $(call SIMD_RULE,$(i))))

$(STATIC): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(SHARED): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libeh.so.$(SOVERSION) $(if $(SANITIZE),,-Wl,--no-undefined) $(LDFLAGS) -o $@ $^ $(LIBS)
	ln -sf libeh.so.$(VERSION) $(BUILD)/lib/libeh.so.$(SOVERSION)
	ln -sf libeh.so.$(VERSION) $(BUILD)/lib/libeh.so

# -rdynamic: backend plugins a test loads call libeh through the test's symbols
$(BUILD)/tests/%: tests/libeh/%.c $(TEST_SUPPORT_OBJS) $(STATIC) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/support $(CFLAGS) $(LDFLAGS) -rdynamic -o $@ $< $(TEST_SUPPORT_OBJS) $(STATIC) -lcmocka $(LIBS)

$(BUILD)/examples/%: examples/%.c $(STATIC) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC) $(LIBS)

tests: $(TEST_BINS)
examples: $(EXAMPLE_BINS)

test: $(DEPS_STAMP) lib tests examples
	@sh mk/run-tests.sh $(BUILD) "$(BACKENDS)" --each $(EACH_TESTS) --once $(ONCE_TESTS)
	@sh tests/install/run.sh $(BUILD) "$(MAKE)"

# Same tests, instrumented.  clang here so every commit also builds
# warning-free under a second compiler.
asan: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory NODEPS=1 BUILD=$(BUILD)/asan CC=clang OPT=-O1 \
	  SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  lib tests
	@ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:abort_on_error=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  sh mk/run-tests.sh $(BUILD)/asan "$(BACKENDS)" --each $(EACH_TESTS:$(BUILD)/%=$(BUILD)/asan/%) \
	    --once $(ONCE_TESTS:$(BUILD)/%=$(BUILD)/asan/%)
	@$(MAKE) --no-print-directory NODEPS=1 tsan

# Data races: libeh and the tests that share tensors between threads
# (test_threads on each backend, test_lazy), built with ThreadSanitizer in
# $(BUILD)/tsan; the first report fails the run.  A race is reported only
# where it happens, so these tests, not the whole suite, are what it runs.
# ignore_noninstrumented_modules=1: OpenBLAS's own worker threads (a
# large matmul; their number follows EH_NUM_THREADS, backends/blas/
# openblas.c, so OPENBLAS_NUM_THREADS cannot turn them off) are not
# instrumented and hand results over by spinning on plain memory, which
# TSan cannot see; it does see their memset/memcpy (interceptors) and
# reports those against libeh's reads of the result: false positives.
# The option drops what uninstrumented libraries (OpenBLAS, LAPACKE, FFTW)
# do through interceptors, so both thread pools keep running and every
# access of libeh's own code is still checked.  (EH_NUM_THREADS=1 would
# silence them too, but also stop libeh's pool, whose races matter.)
# The tests run with address-space randomization off (setarch -R, where
# it works): ThreadSanitizer of gcc 12 / clang 14 cannot start ("unexpected
# memory mapping") on kernels with vm.mmap_rnd_bits above 28.
TSAN_EACH := test_threads
TSAN_ONCE := test_lazy
tsan: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory NODEPS=1 BUILD=$(BUILD)/tsan OPT=-O1 \
	  SANITIZE="-fsanitize=thread -fno-omit-frame-pointer" \
	  $(addprefix $(BUILD)/tsan/tests/,$(TSAN_EACH) $(TSAN_ONCE))
	@norand=$$(setarch $$(uname -m) -R true 2>/dev/null && echo "setarch $$(uname -m) -R"); \
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1 \
	  $$norand sh mk/run-tests.sh $(BUILD)/tsan "$(BACKENDS)" --each $(addprefix $(BUILD)/tsan/tests/,$(TSAN_EACH)) \
	    --once $(addprefix $(BUILD)/tsan/tests/,$(TSAN_ONCE))

# (its tool prerequisites and the check `make test` runs: the demo section
# at the end of this file)
demo: $(DEPS_STAMP) lib examples
	@sh mk/demo.sh $(BUILD) "$(BACKENDS)"

install: lib $(BUILD)/bin/ehinfo $(BUILD)/bin/emberlint $(BUILD)/bin/ember-migrate
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/eh $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/bin/ehinfo $(BUILD)/bin/emberlint $(BUILD)/bin/ember-migrate $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libeh.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libeh.so.$(SOVERSION)
	ln -sf libeh.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libeh.so
	install -m 644 $(PUBLIC_HEADERS) libeh/ops.def $(DESTDIR)$(PREFIX)/include/eh/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS@|$(LIBS)|' mk/eh.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/eh.pc

clean:
	rm -rf $(BUILD)

# The build tree mirrors the install layout: the public headers (of the
# backend-author ones only backend_api.h, which out-of-tree backends build
# against) and ops.def are staged in $(BUILD)/include/eh/, next to
# $(BUILD)/bin, where emberlint and ember-migrate look first when a
# project's flags do not find <eh/eh.h> (lint/engine/libeh_headers.c).
PUBLIC_HEADERS := $(filter-out $(filter-out libeh/include/eh/backend_api.h,$(wildcard libeh/include/eh/backend_*.h)),\
                               $(wildcard libeh/include/eh/*.h))
STAGED_HEADERS := $(PUBLIC_HEADERS:libeh/include/eh/%=$(BUILD)/include/eh/%) $(BUILD)/include/eh/ops.def
# (prerequisites of the phony goals: a missing file is restaged even when
# the binaries are up to date, which .SECONDARY would not do for them)
all tests lint-dogfood demo demo-check bench bench-smoke: $(STAGED_HEADERS)
$(BUILD)/include/eh/%.h: libeh/include/eh/%.h
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/include/eh/ops.def: libeh/ops.def
	@mkdir -p $(dir $@)
	cp $< $@

# ---- tools (build/bin/ehinfo), make bench, make docs ----
# tools/<name>.c -> $(BUILD)/bin/<name>, built by `make` and before the tests
# (tests/libeh/test_ehinfo.c runs ehinfo).  Every bench/*.c is a bench
# section (bench/README.md); bench-smoke runs it tiny in `make test`.
TOOL_BINS  := $(patsubst tools/%.c,$(BUILD)/bin/%,$(wildcard tools/*.c))
BENCH_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out bench/reference/parse_only.c,$(wildcard bench/*.c bench/reference/*.c)))
BENCH_BIN  := $(BUILD)/bench/eh-bench
BENCH_LIBS += -ljson-c

.PHONY: bench bench-smoke docs
all tests: $(TOOL_BINS)
test: bench-smoke

# -rdynamic: ehinfo --plugin loads plugins that call libeh through it
$(BUILD)/bin/%: tools/%.c $(STATIC) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -rdynamic -o $@ $< $(STATIC) $(LIBS)

$(BENCH_BIN): $(BENCH_OBJS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(BENCH_OBJS) $(STATIC) $(BENCH_LIBS) $(LIBS)

bench: $(DEPS_STAMP) $(BENCH_BIN)
	@sh bench/reference/install-deps.sh
	$(BENCH_BIN) --build-dir $(BUILD) --json $(BUILD)/bench/results.json \
	  --markdown docs/performance.md --cflags "$(strip $(CFLAGS))"

bench-smoke: $(BENCH_BIN)
	@$(BENCH_BIN) --quick --build-dir $(BUILD) --json $(BUILD)/bench/quick.json \
	  > $(BUILD)/bench/quick.log 2>&1 && echo "bench: smoke run ok (eh-bench --quick)" \
	  || { cat $(BUILD)/bench/quick.log; echo "bench: FAIL: eh-bench --quick"; exit 1; }

# How far the vector math is from ref, in ulps (docs/conformance.md).
.PHONY: ulp-survey
ulp-survey: $(BUILD)/bin/ulp-survey
	$(BUILD)/bin/ulp-survey
$(BUILD)/bin/ulp-survey: tests/conformance/ulp_survey.c tests/conformance/tolerances.def $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC) $(LIBS)

# docs/support-matrix.md is generated, never typed; test_ehinfo fails when stale.
docs: $(BUILD)/bin/ehinfo
	$(BUILD)/bin/ehinfo --format markdown > docs/support-matrix.md.tmp
	mv docs/support-matrix.md.tmp docs/support-matrix.md

-include $(BENCH_OBJS:.o=.d)

-include $(LIB_OBJS:.o=.d) $(TEST_SUPPORT_OBJS:.o=.d)

# ---- emberlint (build/bin/emberlint) and tests/lint ----
# lint/ is in layers, one folder each, bottom to top (docs/architecture.md
# has the map):
#   base      strings, maps, memory, hashing, paths, UTF-8, options,
#             embedded data, text edits
#   engine    libclang parsing, sources, flags, configuration, cache,
#             suppressions, rule metadata, the rule API and the walk
#   change    changing files: diffs, the all-or-nothing changeset, fix
#             selection and --fix, re-parse checks, call rewrites
#   analysis  what several rules share (storage data flow, separation)
#   report    the output formats
#   rules     one rule a file (the registry is generated from the folder)
# and the emberlint program itself (main.c, cli.c) at lint/ top level.
# A layer's objects get the include paths of the layers it may use, and no
# others, so an #include the wrong way fails to build; migrate/ gets base,
# engine and change.  `make test` proves it (layer-check).
# rules/*.json and docs/rules/*.md are embedded.  `make test` also lints
# libeh/ and examples/*.c and wants zero findings.
LLVM_CONFIG ?= llvm-config-14
CLANG_INC := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null || echo /usr/lib/llvm-14/include)
CLANG_LIB := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null || echo /usr/lib/llvm-14/lib)
LINT_BIN  := $(BUILD)/bin/emberlint
LINT_GEN  := $(BUILD)/gen/lint
LINT_LIB  := $(BUILD)/lint/libemberlint.a
LINT_LAYERS := base engine change analysis report rules
# What each layer may include, besides itself.
LINT_USES_base     :=
LINT_USES_engine   := base
LINT_USES_change   := base engine
LINT_USES_analysis := base engine
LINT_USES_report   := base engine
LINT_USES_rules    := base engine change analysis
LINT_USES_cli      := $(LINT_LAYERS)
LINT_USES_migrate  := base engine change
# -I flags for a list of layers
lint_inc = $(foreach l,$(1),-Ilint/$(l))
LINT_FLAGS := -isystem $(CLANG_INC) -I$(LINT_GEN) -D_XOPEN_SOURCE=700 -DEL_VERSION=\"$(VERSION)\"
# PREFIX reaches only the two files that use it, through their own stamp:
# `make install PREFIX=...` (the install test) rebuilds two objects, not
# all of them.  `private`: the flags stamp must not inherit them.
PREFIX_STAMP := $(BUILD)/.prefix
PREFIX_NOW = $(PREFIX) $(DOCS_URI)
$(PREFIX_STAMP): FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' '$(PREFIX_NOW)' | cmp -s - $@ || printf '%s\n' '$(PREFIX_NOW)' > $@
PREFIX_OBJS := $(BUILD)/obj/lint/engine/libeh_headers.o $(BUILD)/obj/lint/report/report_sarif.o
$(PREFIX_OBJS): $(PREFIX_STAMP)
$(BUILD)/obj/lint/engine/libeh_headers.o: private CPPFLAGS += -DEL_PREFIX=\"$(PREFIX)\"
$(BUILD)/obj/lint/report/report_sarif.o: private CPPFLAGS += -DEL_DOCS_URI=\"$(DOCS_URI)\"
LINT_LAYER_FLAGS_cli := $(call lint_inc,$(LINT_USES_cli)) -Ilint
$(foreach l,$(LINT_LAYERS),$(eval LINT_LAYER_FLAGS_$(l) := $(call lint_inc,$(LINT_USES_$(l)) $(l))))
# A layer's sources: its folder, and subfolders for the parts of one file
# (lint/rules/backend_branch/: EH103's; the registry takes lint/rules/*.c).
$(foreach l,$(LINT_LAYERS),$(eval LINT_OBJS_$(l) := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard lint/$(l)/*.c lint/$(l)/*/*.c))))
LINT_OBJS_cli := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out lint/main.c,$(wildcard lint/*.c)))
LINT_OBJS := $(foreach l,$(LINT_LAYERS) cli,$(LINT_OBJS_$(l))) \
             $(LINT_GEN)/registry.o $(LINT_GEN)/embedded_data.o
# libclang is not linked: lint/engine/clang_api.c loads it on the first
# call (a run the cache answers never does), through the functions
# gen_clang_api.sh finds named in these sources.
LINT_LIBS := -ljson-c -lpthread -ldl
# Under the sanitizers libclang is linked as well, so it is loaded at start
# and clang_api.c's dlopen finds it there: LeakSanitizer (LLVM 14) crashes
# at exit ("Tracer caught signal 11") scanning the thread-local storage of
# a library dlopen'd on glibc 2.36 (test_kill, every run; LSAN_OPTIONS=
# use_tls=0 avoids it too, at the price of not scanning TLS for roots).
ifneq ($(SANITIZE),)
LINT_LIBS += -L$(CLANG_LIB) -Wl,-rpath,$(CLANG_LIB) -Wl,--push-state,--no-as-needed -lclang -Wl,--pop-state
endif
CLANG_API_SRCS := $(wildcard lint/*.[ch] lint/*/*.[ch] lint/*/*/*.[ch] migrate/*.[ch] tests/lint/*.c \
                    tests/migrate/*.c tests/fuzz/*.c)
CLANG_API_GEN := $(LINT_GEN)/clang_api_gen.h
$(CLANG_API_GEN): lint/engine/gen_clang_api.sh $(CLANG_API_SRCS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo "sh lint/engine/gen_clang_api.sh $(CLANG_LIB)/libclang.so ... > $@"
	@sh lint/engine/gen_clang_api.sh $(CLANG_LIB)/libclang.so $(CLANG_API_SRCS) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
LINT_TEST_DEFS := -Itests/lint -DEMBERLINT=\"$(abspath $(LINT_BIN))\" -DLINT_SRCDIR=\"$(CURDIR)\"
LINT_TEST_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out tests/lint/test_%,$(wildcard tests/lint/*.c)))
LINT_TEST_BINS := $(patsubst tests/lint/%.c,$(BUILD)/tests/lint/%,$(wildcard tests/lint/test_*.c))
TEST_BINS += $(LINT_TEST_BINS)
# A change of a layer's include paths rebuilds (the flags stamp).
FLAGS_NOW += $(foreach l,$(LINT_LAYERS) cli,$(l):$(LINT_LAYER_FLAGS_$(l)))

.PHONY: lint-dogfood
all: $(LINT_BIN)
tests: $(LINT_TEST_BINS)
test: lint-dogfood

$(foreach l,$(LINT_LAYERS) cli,$(eval $(LINT_OBJS_$(l)): CPPFLAGS += $(LINT_FLAGS) $(LINT_LAYER_FLAGS_$(l))))
$(BUILD)/obj/lint/main.o: CPPFLAGS += $(LINT_FLAGS) $(LINT_LAYER_FLAGS_cli)
$(LINT_TEST_OBJS): CPPFLAGS += $(LINT_FLAGS) $(LINT_LAYER_FLAGS_cli) $(LINT_TEST_DEFS)
# The registry names every rule, so it sits with the rules; the embedded
# data is base's.
$(LINT_GEN)/registry.o: CPPFLAGS += $(LINT_FLAGS) $(LINT_LAYER_FLAGS_rules)
$(LINT_GEN)/embedded_data.o: CPPFLAGS += $(LINT_FLAGS) $(LINT_LAYER_FLAGS_base)

$(LINT_GEN)/registry.c: lint/rules/gen_registry.sh $(wildcard lint/rules/*.c)
	@mkdir -p $(dir $@)
	sh lint/rules/gen_registry.sh $(wildcard lint/rules/*.c) > $@
# rules/storage_accessors.json is generated from <eh/tensor.h>'s one list
# of storage accessors (lint/base/gen_accessors.sh), then embedded under
# that name like the files in rules/.
$(LINT_GEN)/storage_accessors.json: lint/base/gen_accessors.sh libeh/include/eh/tensor.h
	@mkdir -p $(dir $@)
	sh lint/base/gen_accessors.sh libeh/include/eh/tensor.h > $@.tmp && mv $@.tmp $@
$(LINT_GEN)/embedded_data.c: lint/base/embed.sh $(wildcard rules/*.json docs/rules/*.md) $(LINT_GEN)/storage_accessors.json
	@mkdir -p $(dir $@)
	sh lint/base/embed.sh $(wildcard rules/*.json docs/rules/*.md) \
	  rules/storage_accessors.json=$(LINT_GEN)/storage_accessors.json > $@
$(LINT_GEN)/%.o: $(LINT_GEN)/%.c | $(DEPS_STAMP)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(LINT_LIB): $(LINT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(LINT_BIN): $(BUILD)/obj/lint/main.o $(LINT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LINT_LIBS)

$(BUILD)/tests/lint/%: tests/lint/%.c $(LINT_TEST_OBJS) $(LINT_LIB) $(LINT_BIN) | $(CLANG_API_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(LINT_FLAGS) $(LINT_LAYER_FLAGS_cli) $(LINT_TEST_DEFS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
	  $(LINT_TEST_OBJS) $(LINT_LIB) -lcmocka $(LINT_LIBS)

# examples/legacy/ is left out: it is the migration demo's "before" tree,
# with findings on purpose (mk/demo.sh checks them).
lint-dogfood: $(LINT_BIN)
	@$(LINT_BIN) --cache-dir $(BUILD)/lint-cache libeh $(EXAMPLE_SRCS) examples/plugin examples/custom_op -- $(filter -I% -D%,$(CPPFLAGS)) \
	  && echo "lint: libeh/, examples/*.c, examples/plugin/ and examples/custom_op/ have no findings (emberlint)"

# The bench's lint section runs emberlint and its baseline, bare libclang
# parsing (bench/reference/parse_only.c: a program of its own, not in eh-bench).
BENCH_PARSE_ONLY := $(BUILD)/bench/parse-only
bench bench-smoke: $(LINT_BIN) $(BENCH_PARSE_ONLY)
$(BENCH_PARSE_ONLY): bench/reference/parse_only.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -isystem $(CLANG_INC) $(CFLAGS) $(LDFLAGS) -o $@ $< -L$(CLANG_LIB) -Wl,-rpath,$(CLANG_LIB) -lclang

-include $(LINT_OBJS:.o=.d) $(BUILD)/obj/lint/main.d $(LINT_TEST_OBJS:.o=.d)

# ---- ember-migrate (build/bin/ember-migrate) and tests/migrate ----
# migrate/*.c on top of the linter's base, engine and change layers
# (libemberlint.a): the same parsing, configuration, file walking and
# fixes.  tests/migrate/ holds the golden before/after trees and the
# failure-injection tests.
MIGRATE_BIN  := $(BUILD)/bin/ember-migrate
MIGRATE_LIB  := $(BUILD)/migrate/libembermigrate.a
MIGRATE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out migrate/main.c,$(wildcard migrate/*.c)))
MIGRATE_FLAGS := $(LINT_FLAGS) $(call lint_inc,$(LINT_USES_migrate)) -Imigrate
MIGRATE_TEST_DEFS := -Itests/migrate -Itests/lint -DEMBER_MIGRATE=\"$(abspath $(MIGRATE_BIN))\" \
                     -DMIGRATE_SRCDIR=\"$(CURDIR)\" -DEMBERLINT=\"$(abspath $(LINT_BIN))\"
# tests/lint/tool_test.c: the helpers both tools' tests share
MIGRATE_TEST_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out tests/migrate/test_%,$(wildcard tests/migrate/*.c))) \
                     $(BUILD)/obj/tests/lint/tool_test.o
MIGRATE_TEST_BINS := $(patsubst tests/migrate/%.c,$(BUILD)/tests/migrate/%,$(wildcard tests/migrate/test_*.c))
TEST_BINS += $(MIGRATE_TEST_BINS)
FLAGS_NOW += migrate:$(MIGRATE_FLAGS)
# (the bench times ember-migrate plan beside emberlint: built first)
bench bench-smoke: $(MIGRATE_BIN)

all: $(MIGRATE_BIN)
tests: $(MIGRATE_TEST_BINS)

$(MIGRATE_OBJS) $(BUILD)/obj/migrate/main.o: CPPFLAGS += $(MIGRATE_FLAGS)
$(filter-out $(LINT_TEST_OBJS),$(MIGRATE_TEST_OBJS)): CPPFLAGS += $(MIGRATE_FLAGS) $(MIGRATE_TEST_DEFS)

$(MIGRATE_LIB): $(MIGRATE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(MIGRATE_BIN): $(BUILD)/obj/migrate/main.o $(MIGRATE_LIB) $(LINT_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LINT_LIBS)

$(BUILD)/tests/migrate/%: tests/migrate/%.c $(MIGRATE_TEST_OBJS) $(MIGRATE_LIB) $(LINT_LIB) $(MIGRATE_BIN) $(LINT_BIN)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(MIGRATE_FLAGS) $(MIGRATE_TEST_DEFS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
	  $(MIGRATE_TEST_OBJS) $(MIGRATE_LIB) $(LINT_LIB) -lcmocka $(LINT_LIBS)

-include $(MIGRATE_OBJS:.o=.d) $(BUILD)/obj/migrate/main.d $(MIGRATE_TEST_OBJS:.o=.d)
# Every object of the tools and their tests may include clang_api.h.
$(LINT_OBJS) $(BUILD)/obj/lint/main.o $(MIGRATE_OBJS) $(BUILD)/obj/migrate/main.o $(LINT_TEST_OBJS) $(MIGRATE_TEST_OBJS) $(LINT_GEN)/registry.o $(LINT_GEN)/embedded_data.o \
  $(BUILD)/obj/tests/fuzz/emberlint_main.o: | $(CLANG_API_GEN)

# test_custom_run builds a migrated application against this libeh (same
# compiler, same sanitizers) and runs it on every backend ehinfo lists.
$(BUILD)/tests/migrate/test_custom_run: $(SHARED) $(TOOL_BINS)
$(BUILD)/tests/migrate/test_custom_run: MIGRATE_TEST_DEFS += -DMT_CC=\"$(CC)\" \
  '-DMT_SANITIZE="$(SANITIZE)"' -DMT_LIBDIR=\"$(abspath $(BUILD)/lib)\" \
  -DEHINFO=\"$(abspath $(BUILD)/bin/ehinfo)\"

# ---- make demo and its check (mk/demo.sh, docs/migration.md) ----
# After the examples, the demo migrates the legacy application
# examples/legacy/ (on a copy under $(BUILD)/demo/) with the tools.
# `make test` runs the same sequence quietly and fails on any broken claim,
# such as the legacy and migrated outputs differing on some backend.
.PHONY: demo-check
demo demo-check: $(LINT_BIN) $(MIGRATE_BIN)
test: demo-check
demo-check: lib
	@sh mk/demo.sh --check $(BUILD) "$(BACKENDS)"

# ---- backend plugins (docs/extending.md) ----
# A plugin is a shared object built against <eh/backend_api.h> and not
# linked with libeh: it binds to the libeh of the process that loads it.
# tests/plugins/tplug.c is built once per variant for test_plugin (load
# errors); examples/plugin/ is the BLIS backend, with its own test.
TEST_PLUGIN_DIR := $(BUILD)/tests/plugins
TEST_PLUGINS := tplug tplug_again tplug_ref tplug_abi tplug_size tplug_delegate tplug_silent \
                tplug_undefined tplug_noinit
TPLUG_FLAGS_tplug :=
TPLUG_FLAGS_tplug_again :=
TPLUG_FLAGS_tplug_ref := -DTPLUG_NAME='"ref"'
TPLUG_FLAGS_tplug_abi := -DTPLUG_ABI=99 -DTPLUG_NAME='"tplug_abi"'
TPLUG_FLAGS_tplug_size := -DTPLUG_SIZE_DELTA=8 -DTPLUG_NAME='"tplug_size"'
TPLUG_FLAGS_tplug_delegate := -DTPLUG_DELEGATE='"nope"' -DTPLUG_NAME='"tplug_delegate"'
TPLUG_FLAGS_tplug_silent := -DTPLUG_FAIL_SILENTLY
TPLUG_FLAGS_tplug_undefined := -DTPLUG_UNDEFINED -DTPLUG_NAME='"tplug_undefined"'
TPLUG_FLAGS_tplug_noinit := -DTPLUG_NO_INIT
TEST_PLUGIN_LIBS := $(TEST_PLUGINS:%=$(TEST_PLUGIN_DIR)/libeh-%.so)

tests: $(TEST_PLUGIN_LIBS)
$(BUILD)/tests/test_plugin $(BUILD)/tests/test_ehinfo: $(TEST_PLUGIN_LIBS)

$(TEST_PLUGIN_DIR)/libeh-%.so: tests/plugins/tplug.c $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TPLUG_FLAGS_$*) -shared $(LDFLAGS) -o $@ $<

# examples/plugin/: the BLIS backend as a plugin (libeh-blis.so, linked
# with BLIS only), and an application that loads it (plugin-demo, linked
# with libeh.a and -rdynamic so the plugin finds libeh's symbols).
# test_plugin_blis loads it, compares it with ref, and runs the
# conformance binaries with it loaded for the ops it implements.
# BLIS's pthread build (Debian libblis-pthread-dev), by path: libeh's own
# threads are pthreads, and LeakSanitizer cannot stop OpenMP's threads.
BLIS_ARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
BLIS_INC := /usr/include/$(or $(BLIS_ARCH),x86_64-linux-gnu)/blis-pthread
BLIS_LIB := /usr/lib/$(or $(BLIS_ARCH),x86_64-linux-gnu)/blis-pthread
PLUGIN_BLIS := $(BUILD)/examples/plugin/libeh-blis.so
PLUGIN_DEMO := $(BUILD)/examples/plugin/plugin-demo
PLUGIN_BLIS_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard examples/plugin/plugins/blis/*.c))

examples: $(PLUGIN_BLIS) $(PLUGIN_DEMO)
tests: $(PLUGIN_BLIS) $(PLUGIN_DEMO)
$(BUILD)/tests/test_plugin_blis: $(PLUGIN_BLIS) $(PLUGIN_DEMO) $(BUILD)/tests/test_conformance \
                                 $(BUILD)/tests/test_conformance_numeric

$(PLUGIN_BLIS_OBJS): CPPFLAGS += -isystem $(BLIS_INC)
$(PLUGIN_BLIS): $(PLUGIN_BLIS_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared $(LDFLAGS) -o $@ $^ -L$(BLIS_LIB) -Wl,-rpath,$(BLIS_LIB) -lblis

$(PLUGIN_DEMO): examples/plugin/demo.c $(STATIC) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -rdynamic -o $@ $< $(STATIC) $(LIBS)

-include $(PLUGIN_BLIS_OBJS:.o=.d)

# ---- structure-check: the layers and the absence of circles ----
# mk/check-layers.sh compiles throwaway files with the commands make runs
# for each layer's objects: an include of a layer it may not use must fail
# to build, the headers it may use must build.  mk/check-circles.sh fails
# when files of a folder call (nm) or include each other in a circle; the
# lint/ and migrate/ layers are also checked together, across folders.
# tests/structure/run.sh shows that the circle check catches circles, and
# mk/check-map.sh holds docs/architecture.md's map of the tree to the tree
# and to LINT_USES_*.
LAYER_SPECS := $(foreach l,$(LINT_LAYERS),'lint/$(l)=$(addprefix lint/,$(LINT_USES_$(l)))') \
               'lint=$(addprefix lint/,$(LINT_USES_cli))' 'migrate=$(addprefix lint/,$(LINT_USES_migrate))'
# libeh/src, each backend, each lint layer and migrate/, then lint/ and
# migrate/ as one group (the registry is generated: $(LINT_GEN)).
CIRCLE_DIRS := libeh/src $(addprefix backends/,$(BACKENDS)) $(addprefix lint/,$(LINT_LAYERS)) migrate
TOOL_OBJS := $(LINT_OBJS) $(BUILD)/obj/lint/main.o $(MIGRATE_OBJS) $(BUILD)/obj/migrate/main.o
CIRCLE_GROUPS := $(foreach d,$(CIRCLE_DIRS),'$(d)=$(filter $(BUILD)/obj/$(d)/%,$(LIB_OBJS) $(TOOL_OBJS))') \
                 'lint/ and migrate/=$(TOOL_OBJS)'
STRUCTURE_FIXTURE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/structure/*/*.c))

.PHONY: structure-check
test: structure-check
structure-check: $(LIB_OBJS) $(TOOL_OBJS) $(STRUCTURE_FIXTURE_OBJS)
	@sh mk/check-layers.sh "$(MAKE)" $(BUILD) $(LAYER_SPECS)
	@sh mk/check-circles.sh $(BUILD) $(CIRCLE_GROUPS)
	@sh tests/structure/run.sh $(BUILD)
	@sh mk/check-map.sh $(LAYER_SPECS)

-include $(STRUCTURE_FIXTURE_OBJS:.o=.d)

# examples/custom_op/: an application with ops of its own (geo.sqdist with
# ref and blas kernels, geo.softclip by a per-element function); the code
# docs/extending.md quotes.  test_custom_op runs it on every backend.
CUSTOM_OP_DEMO := $(BUILD)/examples/custom-op
CUSTOM_OP_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard examples/custom_op/*.c examples/custom_op/backends/*/*.c))

examples tests: $(CUSTOM_OP_DEMO)
$(BUILD)/tests/test_custom_op: $(CUSTOM_OP_DEMO)

$(CUSTOM_OP_DEMO): $(CUSTOM_OP_OBJS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(CUSTOM_OP_OBJS) $(STATIC) $(LIBS)

-include $(CUSTOM_OP_OBJS:.o=.d)

# ---- installed like a C tool and library (issue 14) ----
# Beside what `install` above puts in place: the CMake package
# (lib/cmake/eh: ehConfig.cmake with eh::eh, eh::eh_shared, eh::eh_static,
# and its version file), the man pages (docs/man/*.N -> share/man/manN)
# and the documentation SARIF points to (DOCS_URI: share/doc/emberharmony, with the rest of docs/).
# tests/install/run.sh builds a CMake project against them and lints the
# man pages; tests/lint/sarif_validate.sh and tests/lint/precommit.sh run
# the SARIF Multitool and pre-commit (make deps installs both).
MAN_PAGES := $(wildcard docs/man/*.[1-9])
DOC_DIR   := $(PREFIX)/share/doc/emberharmony
empty :=
space := $(empty) $(empty)
CMAKE_LIBS = $(subst $(space),;,$(strip $(patsubst -l%,%,$(LIBS))))
.PHONY: install-cmake install-man install-docs ci-tools-check
install: install-cmake install-man install-docs
test: ci-tools-check

install-cmake:
	install -d $(DESTDIR)$(PREFIX)/lib/cmake/eh
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@SOVERSION@|$(SOVERSION)|g' -e 's|@CMAKE_LIBS@|$(CMAKE_LIBS)|g' \
	  mk/ehConfig.cmake.in > $(DESTDIR)$(PREFIX)/lib/cmake/eh/ehConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' mk/ehConfigVersion.cmake.in \
	  > $(DESTDIR)$(PREFIX)/lib/cmake/eh/ehConfigVersion.cmake

install-man:
	@for p in $(MAN_PAGES); do \
	  sec=$${p##*.}; \
	  install -d $(DESTDIR)$(PREFIX)/share/man/man$$sec && \
	  install -m 644 $$p $(DESTDIR)$(PREFIX)/share/man/man$$sec/ || exit 1; \
	done

# Every page of docs/: the tools' pages link to the guides (migration.md,
# extending.md, ...) and those to the rest (tests/install/run.sh checks
# that the links between installed pages resolve).
DOC_SUBDIRS := $(patsubst docs/%/,%,$(sort $(dir $(wildcard docs/*/*.md))))
install-docs:
	install -d $(DESTDIR)$(DOC_DIR) $(addprefix $(DESTDIR)$(DOC_DIR)/,$(DOC_SUBDIRS))
	install -m 644 $(wildcard docs/*.md) $(DESTDIR)$(DOC_DIR)/
	@for d in $(DOC_SUBDIRS); do \
	  install -m 644 docs/$$d/*.md $(DESTDIR)$(DOC_DIR)/$$d/ || exit 1; \
	done

ci-tools-check: $(LINT_BIN) | $(DEPS_STAMP)
	@sh tests/lint/sarif_validate.sh $(BUILD)
	@sh tests/lint/precommit.sh $(BUILD)

# ---- compiler arguments: tests/lint/test_args_policy.c runs both tools ----
$(BUILD)/tests/lint/test_args_policy: $(MIGRATE_BIN)

# ---- fuzzing (tests/fuzz/) ----
# Each tests/fuzz/fuzz_<name>.c is a libFuzzer harness with a seed corpus
# in tests/fuzz/corpus/<name>/.  `make test` (and `make asan`) run every
# harness over its seeds with a plain driver (tests/fuzz/standalone.c): a
# regression test.  `make fuzz FUZZ_SECONDS=N` builds them with clang's
# libFuzzer, ASan and UBSan under $(BUILD)/fuzz and fuzzes each for N
# seconds (niced), new inputs in $(BUILD)/fuzz/corpus/<name>, findings in
# $(BUILD)/fuzz/findings/ (tests/fuzz/run.sh; tests/fuzz/README.md).
FUZZ_SECONDS ?= 60
FUZZ_ENGINE  ?=
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(filter-out tests/fuzz/fuzz_util.c,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_BINS    := $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/fuzz_%)
FUZZ_DRIVER  := $(if $(FUZZ_ENGINE),,tests/fuzz/standalone.c)
FUZZ_LINK    := $(if $(FUZZ_ENGINE),-fsanitize=fuzzer,)
FUZZ_DEFS     = -Itests/fuzz -DFUZZ_CORPUS=\"$(CURDIR)/tests/fuzz/corpus/$(patsubst fuzz_%,%,$(notdir $@))\" -DFUZZ_SRCDIR=\"$(CURDIR)\"
FUZZ_LINT_FLAGS := $(LINT_FLAGS) $(LINT_LAYER_FLAGS_cli)
TEST_BINS  += $(FUZZ_BINS)
ONCE_TESTS += $(FUZZ_BINS)
tests: $(FUZZ_BINS)
.PHONY: fuzz fuzz-bins
fuzz-bins: $(FUZZ_BINS)

# (the harnesses compile with their driver in one command, and emberlint's
# main below is compiled apart from the others: a header they read,
# changed, rebuilds them all)
FUZZ_HEADERS := $(wildcard lint/*.h lint/*/*.h tests/fuzz/*.h libeh/include/eh/*.h)

# emberlint's main, renamed, for the command-line harness
$(BUILD)/obj/tests/fuzz/emberlint_main.o: lint/main.c $(FUZZ_HEADERS) $(FLAGS_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(FUZZ_LINT_FLAGS) $(CFLAGS) -Wno-missing-prototypes -Dmain=emberlint_main -c $< -o $@

$(BUILD)/tests/fuzz/fuzz_libeh_ops: tests/fuzz/fuzz_libeh_ops.c $(FUZZ_DRIVER) $(STATIC) $(FUZZ_HEADERS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(FUZZ_DEFS) $(CFLAGS) $(LDFLAGS) $(FUZZ_LINK) -o $@ $< $(FUZZ_DRIVER) $(STATIC) $(LIBS)

$(BUILD)/tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.c $(FUZZ_DRIVER) $(LINT_LIB) \
                            $(BUILD)/obj/tests/fuzz/emberlint_main.o $(FUZZ_HEADERS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(FUZZ_LINT_FLAGS) $(FUZZ_DEFS) $(CFLAGS) $(LDFLAGS) $(FUZZ_LINK) -o $@ $< \
	  tests/fuzz/fuzz_util.c $(FUZZ_DRIVER) $(if $(filter cli,$*),$(BUILD)/obj/tests/fuzz/emberlint_main.o) \
	  $(LINT_LIB) $(LINT_LIBS)

fuzz: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory NODEPS=1 BUILD=$(BUILD)/fuzz CC=clang OPT=-O1 FUZZ_ENGINE=libfuzzer \
	  SANITIZE="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  fuzz-bins
	@sh tests/fuzz/run.sh $(BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_NAMES)
