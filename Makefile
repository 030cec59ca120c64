# drvm build.  `make` builds ./drvm; `make test` builds and runs every test;
# `make asan` runs the tests under AddressSanitizer + UBSan; `make bench`
# compares drvm with `java -Xint`.
CC ?= cc
WARN = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
OPT ?= -O2 -g
FPFLAGS = -ffp-contract=off
CPPFLAGS += -D_POSIX_C_SOURCE=200809L
CFLAGS += $(WARN) $(OPT) $(FPFLAGS)
LDLIBS += -lffi -ldl -lm
# the command line's REPL reads commands with GNU readline; the library does not
CLI_LIBS = -lreadline -lpthread
BUILD ?= build

# The library (libdrvm.a, libdrvm.so: include/drvm.h) is the compiler,
# the VM core, the schedulers and the detectors; the command line (cli/)
# is a host of it like any other.
LIB_SRCS := $(wildcard compiler/*.c) $(wildcard vm/*.c) $(wildcard scheduler/*.c) $(wildcard detector/*.c)
CLI_SRCS := $(wildcard cli/*.c)
OBJS := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS)) $(BUILD)/gen/prelude.o
CLI_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(CLI_SRCS)) $(BUILD)/gen/timeline_page.o
PIC_OBJS := $(patsubst $(BUILD)/%,$(BUILD)/pic/%,$(OBJS))
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRCS))
API_SRCS := $(wildcard tests/api/*.c)
API_BINS := $(patsubst tests/api/%.c,$(BUILD)/api/%,$(API_SRCS))

all: drvm libdrvm.a libdrvm.so

drvm: $(CLI_OBJS) $(BUILD)/libdrvm.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(CLI_LIBS)

# any build directory's own binary: make BUILD=build-x build-x/drvm
$(BUILD)/drvm: $(CLI_OBJS) $(BUILD)/libdrvm.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(CLI_LIBS)

$(BUILD)/libdrvm.a: $(OBJS)
	rm -f $@
	$(AR) rcs $@ $^

libdrvm.a: $(BUILD)/libdrvm.a
	cp $< $@

libdrvm.so: $(PIC_OBJS)
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -MMD -MP -c -o $@ $<

$(BUILD)/pic/gen/prelude.o: $(BUILD)/gen/prelude.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c -o $@ $<

# tests/api: hosts that use include/drvm.h only, linked with the library
$(BUILD)/api/%: tests/api/%.c tests/api/check.h tests/unit/check.h docs/embedding_example.c include/drvm.h $(BUILD)/libdrvm.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Iinclude $(LDFLAGS) -o $@ $< $(BUILD)/libdrvm.a $(LDLIBS)

# every API test runs, then the suite fails if any did
API_RUN = st=0; for t in $(1); do $$t || { echo "FAIL $$t"; st=1; }; done; exit $$st

api: $(API_BINS)
	@$(call API_RUN,$(API_BINS))

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The prelude (drvm's library in DL) is embedded as a C string.
$(BUILD)/gen/prelude.c: vm/prelude.dl
	@mkdir -p $(dir $@)
	{ echo '/* generated from vm/prelude.dl */'; echo 'const char dr_prelude_source[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; echo '0};'; } > $@

# The timeline page (HTML, CSS, script) too: the command line fills in
# each run's data (cli/timeline_html.c).
$(BUILD)/gen/timeline_page.c: cli/timeline_page.html
	@mkdir -p $(dir $@)
	{ echo '/* generated from cli/timeline_page.html */'; echo 'const char dr_timeline_page[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; echo '0};'; } > $@

$(BUILD)/gen/timeline_page.o: $(BUILD)/gen/timeline_page.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-variable-declarations -c -o $@ $<

$(BUILD)/gen/prelude.o: $(BUILD)/gen/prelude.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-variable-declarations -c -o $@ $<

$(BUILD)/unit/%: tests/unit/%.c $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do $$t; done

# the C library that tests/ffi's native methods call (the same path for
# every build: the tests name it)
FFI_TEST_LIB := build/ffi/libdrtest.so
$(FFI_TEST_LIB): $(wildcard tests/ffi/*.c)
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O2 -Wall -Wextra -Werror -o $@ $^

test: drvm $(UNIT_BINS) $(API_BINS) $(FFI_TEST_LIB)
	@$(call API_RUN,$(API_BINS))
	@python3 tests/runner.py --drvm ./drvm $(addprefix --unit ,$(UNIT_BINS)) tests/lang tests/threads tests/races \
	  tests/ffi
	@python3 tests/cli/check.py ./drvm
	@python3 tests/robustness/run.py --drvm ./drvm
	@python3 tests/filter/check.py --drvm ./drvm --seeds 1
	@python3 tests/hunt_test.py ./drvm
	@python3 tests/racefuzzer/check.py ./drvm
	@python3 tests/hunting.py ./drvm
	@python3 tests/explore/check.py ./drvm
	@python3 tests/challenge/check.py ./drvm
	@python3 tests/repl/run.py --drvm ./drvm
	@python3 tests/repl/tty_test.py --drvm ./drvm
	@python3 tests/timeline/check.py --drvm ./drvm
	@python3 tests/timeline/browser.py --drvm ./drvm --shots $(BUILD)/timeline-shots

asan: $(FFI_TEST_LIB)
	$(MAKE) BUILD=build-asan OPT="-O1 -g -DDR_DEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" drvm-asan $(patsubst $(BUILD)/%,build-asan/%,$(UNIT_BINS) $(API_BINS))
	@export ASAN_OPTIONS=detect_leaks=1; $(call API_RUN,$(patsubst $(BUILD)/%,build-asan/%,$(API_BINS)))
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 python3 tests/runner.py --drvm ./drvm-asan --no-jdk \
	  --timeout 120 $(addprefix --unit ,$(patsubst $(BUILD)/%,build-asan/%,$(UNIT_BINS))) tests/lang tests/threads tests/ffi
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 python3 tests/runner.py --drvm ./drvm-asan --no-jdk \
	  --timeout 120 --seeds 5 tests/races
	ASAN_OPTIONS=detect_leaks=1 python3 tests/cli/check.py ./drvm-asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 python3 tests/robustness/run.py --drvm ./drvm-asan
	ASAN_OPTIONS=detect_leaks=1 python3 tests/hunt_test.py ./drvm-asan
	ASAN_OPTIONS=detect_leaks=1 python3 tests/racefuzzer/check.py ./drvm-asan
	ASAN_OPTIONS=detect_leaks=1 python3 tests/hunting.py ./drvm-asan --seeds 2
	ASAN_OPTIONS=detect_leaks=1 python3 tests/explore/check.py ./drvm-asan --quick
	ASAN_OPTIONS=detect_leaks=1 python3 tests/challenge/check.py ./drvm-asan
	ASAN_OPTIONS=detect_leaks=1 python3 tests/repl/run.py --drvm ./drvm-asan
	ASAN_OPTIONS=detect_leaks=1 python3 tests/repl/tty_test.py --drvm ./drvm-asan
	ASAN_OPTIONS=detect_leaks=1 python3 tests/timeline/check.py --drvm ./drvm-asan
	$(MAKE) fuzz-smoke
	$(MAKE) asan-clang
	$(MAKE) tsan

# clang's sanitizers check what gcc's do not (a null pointer plus an
# offset, issue 18): the unit tests and the language, thread and race
# programs once more under a clang build (.ci/run installs clang).
CLANG := $(shell command -v clang 2>/dev/null)
asan-clang:
ifeq ($(CLANG),)
	@echo "make asan: clang is not installed: its sanitizers did not run"
else
	$(MAKE) CC=$(CLANG) BUILD=build-clang-asan OPT="-O1 -g -DDR_DEBUG -fsanitize=address,undefined \
	  -fsanitize=pointer-overflow,nullability -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" build-clang-asan/drvm $(patsubst $(BUILD)/%,build-clang-asan/%,$(UNIT_BINS))
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 python3 tests/runner.py \
	  --drvm build-clang-asan/drvm --no-jdk $(addprefix --unit ,$(patsubst $(BUILD)/%,build-clang-asan/%,$(UNIT_BINS))) \
	  tests/lang tests/threads tests/ffi
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 python3 tests/runner.py \
	  --drvm build-clang-asan/drvm --no-jdk --seeds 2 tests/races
	ASAN_OPTIONS=detect_leaks=1 python3 tests/filter/check.py --drvm build-clang-asan/drvm --seeds 1
endif

# ThreadSanitizer over the one place drvm uses a second thread: the REPL's
# copies for going back (cli/repl_stage.c).
tsan:
	$(MAKE) BUILD=build-tsan OPT="-O1 -g -fsanitize=thread" LDFLAGS="-fsanitize=thread" build-tsan/drvm
	@# TSan runs 5-15x slower: run_alone_budget's 2 million decisions pass 30 s on a loaded machine
	TSAN_OPTIONS=halt_on_error=1 python3 tests/repl/run.py --drvm build-tsan/drvm --timeout 300

# drvm with the event stream's hooks compiled out, for make bench to
# measure what they cost when no listener is attached.
drvm-nohooks:
	$(MAKE) BUILD=build-nohooks OPT="$(OPT) -DDR_NO_HOOKS" build-nohooks/drvm

# The build variants: switch dispatch (-DDR_NO_COMPUTED_GOTO) and a
# collection at every allocation with the internal checks on
# (-DDR_GC_STRESS -DDR_DEBUG), each running the language tests and the
# thread tests, and the API tests.
# Programs that build large heaps or deep stacks take minutes when every
# allocation collects: the GC-stress variant leaves them out.
STRESS_SLOW = --exclude gc/tree_churn --exclude gc/linked_list_survives --exclude gc/old_points_to_young \
  --exclude exceptions/stack_overflow
stress: $(FFI_TEST_LIB)
	$(MAKE) BUILD=build-switch OPT="-O2 -g -DDR_NO_COMPUTED_GOTO" build-switch/drvm $(patsubst $(BUILD)/%,build-switch/%,$(API_BINS))
	$(MAKE) BUILD=build-stress OPT="-O1 -g -DDR_GC_STRESS -DDR_DEBUG" build-stress/drvm $(patsubst $(BUILD)/%,build-stress/%,$(API_BINS))
	@$(call API_RUN,$(patsubst $(BUILD)/%,build-switch/%,$(API_BINS)) $(patsubst $(BUILD)/%,build-stress/%,$(API_BINS)))
	python3 tests/runner.py --drvm build-switch/drvm --no-jdk tests/lang tests/ffi
	python3 tests/runner.py --drvm build-switch/drvm --no-jdk tests/threads
	python3 tests/runner.py --drvm build-stress/drvm --no-jdk $(STRESS_SLOW) tests/lang tests/ffi
	python3 tests/runner.py --drvm build-stress/drvm --no-jdk tests/threads

drvm-asan: $(CLI_OBJS) $(BUILD)/libdrvm.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(CLI_LIBS)

# Fuzzing (tests/fuzz; docs/user-guide.md, "Fuzzing").  Four harnesses:
# fuzz_parse (lexer and parser), fuzz_check (the whole front end),
# fuzz_run (compile and run, two schedulers and detectors) and fuzz_files
# (recordings, relations, race pairs, JSON reports, goal comments, option
# texts).  `make fuzz-smoke` builds them as plain programs (-DDR_FUZZ_MAIN,
# any C compiler) under ASan + UBSan and runs each over its seeds and
# deterministic variants of each: fuzz_parse and fuzz_check over every
# tests/lang program and tests/fuzz/corpus/fuzz_check (what campaigns
# found) (FUZZ_PARSE_MUTATE and FUZZ_MUTATE variants each),
# fuzz_run over tests/fuzz/corpus/fuzz_run, tests/threads and tests/races
# (FUZZ_RUN_MUTATE), fuzz_files over tests/fuzz/corpus/fuzz_files
# (FUZZ_FILES_MUTATE).  Two at a time, a few minutes on two cores.  A
# crash leaves its input in $$TMPDIR/drvm-<harness>[-<shard>]-last.dl:
# pass that file to the harness to reproduce.
# Longer: make fuzz-smoke FUZZ_MUTATE=200 FUZZ_SEED=7
FUZZ_MUTATE ?= 20
FUZZ_PARSE_MUTATE ?= 200
FUZZ_RUN_MUTATE ?= 8
FUZZ_FILES_MUTATE ?= 300
FUZZ_SEED ?= 1
FUZZ_NAMES = fuzz_parse fuzz_check fuzz_run fuzz_files
FUZZ_BINS = $(patsubst %,$(BUILD)/fuzz/%,$(FUZZ_NAMES))
SAN_OPT = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

fuzz-smoke:
	$(MAKE) BUILD=build-fuzz OPT="$(SAN_OPT)" LDFLAGS="-fsanitize=address,undefined" \
	  FUZZ_CPPFLAGS=-DDR_FUZZ_MAIN fuzz-bins
	@lang=$$(find tests/lang tests/fuzz/corpus/fuzz_check -name '*.dl' | sort); \
	progs=$$(find tests/fuzz/corpus/fuzz_run tests/threads tests/races -name '*.dl' | sort); \
	files=$$(find tests/fuzz/corpus/fuzz_files -type f | sort); \
	export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1; \
	build-fuzz/fuzz/fuzz_parse --mutate $(FUZZ_PARSE_MUTATE) --seed $(FUZZ_SEED) $$lang & p1=$$!; \
	build-fuzz/fuzz/fuzz_check --mutate $(FUZZ_MUTATE) --seed $(FUZZ_SEED) $$lang; st=$$?; \
	wait $$p1 || st=1; \
	build-fuzz/fuzz/fuzz_files --mutate $(FUZZ_FILES_MUTATE) --seed $(FUZZ_SEED) $$files & p2=$$!; \
	build-fuzz/fuzz/fuzz_run --mutate $(FUZZ_RUN_MUTATE) --seed $(FUZZ_SEED) --timeout 60 $$progs || st=1; \
	wait $$p2 || st=1; exit $$st

# The libFuzzer binaries (clang only), in build-libfuzzer/fuzz/.  Run e.g.
#   mkdir -p fuzz-work/run
#   build-libfuzzer/fuzz/fuzz_run -dict=tests/fuzz/dl.dict -max_len=4096 -timeout=10 \
#     fuzz-work/run tests/fuzz/corpus/fuzz_run tests/threads tests/races
# (the first directory gets the new inputs; the others are only read).  A
# crash is saved as crash-<sha1>: pass that file to the binary to
# reproduce, or to the fuzz-smoke build, which needs no clang.
fuzz:
	@command -v clang >/dev/null || { echo "make fuzz needs clang with libFuzzer (make fuzz-smoke needs neither)"; exit 2; }
	$(MAKE) CC=clang BUILD=build-libfuzzer OPT="$(SAN_OPT) -fsanitize=fuzzer-no-link" \
	  LDFLAGS="-fsanitize=fuzzer,address,undefined" fuzz-bins

fuzz-bins: $(FUZZ_BINS)

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_main.h $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(FUZZ_CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(filter %.o,$^) $(LDLIBS)

# fuzz_files also reads goal comments (the command line's) and runs its
# files against tests/fuzz/bank.dl, embedded as the prelude is.
$(BUILD)/fuzz/fuzz_files: $(BUILD)/cli/goal.o $(BUILD)/gen/fuzz_bank.o

$(BUILD)/gen/fuzz_bank.c: tests/fuzz/bank.dl
	@mkdir -p $(dir $@)
	{ echo '/* generated from tests/fuzz/bank.dl */'; echo 'const char dr_fuzz_bank_source[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; echo '0};'; } > $@

$(BUILD)/gen/fuzz_bank.o: $(BUILD)/gen/fuzz_bank.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-variable-declarations -c -o $@ $<

bench: drvm drvm-nohooks
	python3 tests/bench/run.py --drvm ./drvm --nohooks build-nohooks/drvm
	python3 tests/bench/repl.py --drvm ./drvm
	python3 tests/bench/explore.py --drvm ./drvm
	python3 tests/bench/timeline.py --drvm ./drvm
	python3 tests/bench/compile.py --drvm ./drvm

demo: drvm
	./drvm run lang-examples/life.dl

clean:
	rm -rf build build-asan build-tsan build-fuzz build-libfuzzer build-nohooks build-stress build-switch drvm drvm-asan libdrvm.a libdrvm.so

.PHONY: all test unit api stress asan asan-clang tsan bench demo clean fuzz fuzz-smoke fuzz-bins
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
