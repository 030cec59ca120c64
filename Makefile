# drvm build.  `make` builds ./drvm; `make test` builds and runs every test;
# `make asan` runs the tests under AddressSanitizer + UBSan; `make bench`
# compares drvm with `java -Xint`.
CC ?= cc
WARN = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
OPT ?= -O2 -g
FPFLAGS = -ffp-contract=off
CPPFLAGS += -D_POSIX_C_SOURCE=200809L
CFLAGS += $(WARN) $(OPT) $(FPFLAGS)
LDLIBS += -lm
BUILD ?= build

SRCS := $(wildcard compiler/*.c) $(wildcard vm/*.c)
MAIN_SRC := vm/main.c
LIB_SRCS := $(filter-out $(MAIN_SRC),$(SRCS))
OBJS := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS)) $(BUILD)/gen/prelude.o
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRCS))

all: drvm

drvm: $(OBJS) $(BUILD)/vm/main.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# The prelude (drvm's library in DL) is embedded as a C string.
$(BUILD)/gen/prelude.c: vm/prelude.dl
	@mkdir -p $(dir $@)
	{ echo '/* generated from vm/prelude.dl */'; echo 'const char dr_prelude_source[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; echo '0};'; } > $@

$(BUILD)/gen/prelude.o: $(BUILD)/gen/prelude.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-variable-declarations -c -o $@ $<

$(BUILD)/unit/%: tests/unit/%.c $(OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ $(LDLIBS)

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do $$t; done

test: drvm $(UNIT_BINS)
	@python3 tests/runner.py --drvm ./drvm $(addprefix --unit ,$(UNIT_BINS))

asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" drvm-asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 python3 tests/runner.py --drvm ./drvm-asan --no-jdk

drvm-asan: $(OBJS) $(BUILD)/vm/main.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

bench: drvm
	python3 tests/bench/run.py --drvm ./drvm

demo: drvm
	./drvm run lang-examples/life.dl

clean:
	rm -rf build build-asan drvm drvm-asan

.PHONY: all test unit asan bench demo clean
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
