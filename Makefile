# EmberHarmony for C -- the one build entry point.
#
#   make          libeh (static + shared) and every tool
#   make test     build and run every test
#   make asan     the same tests under ASan + UBSan + LSan (clang)
#   make demo     build and run the examples on every backend
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

VERSION   := 0.1.0
SOVERSION := 0

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS += -Ilibeh/include -D_POSIX_C_SOURCE=200809L
CFLAGS   += -std=c11 $(OPT) -g -fPIC -fvisibility=hidden $(WARN) $(SANITIZE)
LDFLAGS  += $(SANITIZE)
LIBS     := -lm -lpthread

# Backends: ref always; the others when their directory exists.
BACKENDS := ref $(notdir $(wildcard backends/blas backends/lazy))
CPPFLAGS += $(foreach b,$(filter-out ref,$(BACKENDS)),-DEH_HAVE_$(shell echo $(b) | tr a-z A-Z))
LIB_SRCS := $(wildcard libeh/src/*.c) $(foreach b,$(BACKENDS),$(wildcard backends/$(b)/*.c))
ifneq ($(filter blas,$(BACKENDS)),)
LIBS     := -llapacke -lopenblas -lfftw3 -lfftw3f $(LIBS)
endif
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)

TEST_SUPPORT_SRCS := $(wildcard tests/support/*.c)
TEST_SUPPORT_OBJS := $(TEST_SUPPORT_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_SRCS := $(wildcard tests/libeh/test_*.c)
TEST_BINS := $(TEST_SRCS:tests/libeh/%.c=$(BUILD)/tests/%)

EXAMPLE_SRCS := $(wildcard examples/*.c)
EXAMPLE_BINS := $(EXAMPLE_SRCS:examples/%.c=$(BUILD)/examples/%)

STATIC := $(BUILD)/lib/libeh.a
SHARED := $(BUILD)/lib/libeh.so.$(VERSION)

DEPS_STAMP := $(if $(NODEPS),,deps)

.PHONY: all lib tests examples test asan demo install deps clean
.SECONDARY:

all: $(DEPS_STAMP) lib examples

lib: $(STATIC) $(SHARED)

deps:
	@sh mk/deps.sh

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(STATIC): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(SHARED): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libeh.so.$(SOVERSION) $(if $(SANITIZE),,-Wl,--no-undefined) $(LDFLAGS) -o $@ $^ $(LIBS)
	ln -sf libeh.so.$(VERSION) $(BUILD)/lib/libeh.so.$(SOVERSION)
	ln -sf libeh.so.$(VERSION) $(BUILD)/lib/libeh.so

$(BUILD)/tests/%: tests/libeh/%.c $(TEST_SUPPORT_OBJS) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/support $(CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_SUPPORT_OBJS) $(STATIC) -lcmocka $(LIBS)

$(BUILD)/examples/%: examples/%.c $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC) $(LIBS)

tests: $(TEST_BINS)
examples: $(EXAMPLE_BINS)

test: $(DEPS_STAMP) lib tests examples
	@sh mk/run-tests.sh $(BUILD) "$(BACKENDS)" $(TEST_BINS)
	@sh tests/install/run.sh $(BUILD)

# Same tests, instrumented.  clang here so every commit also builds
# warning-free under a second compiler.
asan:
	@$(MAKE) --no-print-directory NODEPS=1 BUILD=$(BUILD)/asan CC=clang OPT=-O1 \
	  SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	  lib tests
	@ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:abort_on_error=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  sh mk/run-tests.sh $(BUILD)/asan "$(BACKENDS)" $(TEST_BINS:$(BUILD)/%=$(BUILD)/asan/%)

demo: $(DEPS_STAMP) lib examples
	@sh mk/demo.sh $(BUILD)

install: lib
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/eh $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libeh.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libeh.so.$(SOVERSION)
	ln -sf libeh.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libeh.so
	for h in libeh/include/eh/*.h; do \
	  case $$h in */backend_*.h) ;; *) install -m 644 $$h $(DESTDIR)$(PREFIX)/include/eh/ ;; esac; \
	done
	install -m 644 libeh/ops.def $(DESTDIR)$(PREFIX)/include/eh/ops.def
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS@|$(LIBS)|' mk/eh.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/eh.pc

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJS:.o=.d) $(TEST_SUPPORT_OBJS:.o=.d)
