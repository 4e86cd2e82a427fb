# numalens build. `make help` lists the targets.
# Everything builds into build/; downloaded sources are cached in cache/,
# which `make clean` and `make distclean` leave alone (`make cacheclean` empties it).

CLANG    ?= clang-19
LLVMSTRIP?= llvm-strip-19
BPFTOOL  ?= bpftool
CC       ?= gcc
ARCH     := x86
B        ?= build
DEPS     := $(B)/deps
CACHE    ?= cache

CFLAGS   ?= -O2 -g
CFLAGS   += -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE \
            -I$(B) -I$(DEPS)/include -Itools/lib -Ibpf
LDLIBS   := $(DEPS)/lib/libbpf.a $(DEPS)/lib/libcjson.a $(DEPS)/lib/libmicrohttpd.a -lelf -lz -lncursesw -ltinfo -lm -lpthread
# Static, so the same binary runs in the VM guest (tests/vm).
LDFLAGS  ?= -static

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(B)/bpf/%.bpf.o,$(BPF_SRCS))
SKELS    := $(patsubst bpf/%.bpf.c,$(B)/%.skel.h,$(BPF_SRCS))
LIB_SRCS := $(wildcard tools/lib/*.c)
LIB_OBJS := $(patsubst tools/lib/%.c,$(B)/lib/%.o,$(LIB_SRCS))
# The CLI: numalens.c dispatches, cli.c is shared, cmd_<name>.c per subcommand.
CLI_SRCS := $(wildcard tools/*.c)
CLI_OBJS := $(patsubst tools/%.c,$(B)/cli/%.o,$(CLI_SRCS))
UNIT_SRCS:= $(wildcard tests/unit/test_*.c)
UNIT_BINS:= $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS))
WORK_SRCS:= $(wildcard tests/workload/*.c)
WORK_BINS:= $(patsubst tests/workload/%.c,$(B)/tests/%,$(WORK_SRCS))
# Live-test helpers that link the library (tests/live/*.c).
LIVE_SRCS:= $(wildcard tests/live/*.c)
LIVE_BINS:= $(patsubst tests/live/%.c,$(B)/tests/live/%,$(LIVE_SRCS))

.PHONY: all deps run test unittest livetest vmtest bench verify vmlinux clean distclean cacheclean help install
.DELETE_ON_ERROR:
.SECONDARY:

all: $(B)/numalens $(UNIT_BINS) $(WORK_BINS) $(LIVE_BINS)

help:
	@echo "make deps      install packages (root) and build static libbpf/cJSON"
	@echo "make           build build/numalens, unit tests and test workloads"
	@echo "make run       deps + build, then 'numalens top' on the live kernel (root)"
	@echo "make test      deps + build, then unit, live (root) and VM tests"
	@echo "make unittest | livetest | vmtest   one layer of the tests"
	@echo "make bench     benchmarks (report, not pass/fail), written to build/bench/"
	@echo "make verify    verifier budget of every BPF program (host and VM guest kernels), build/bench/verify.txt"
	@echo "make install   copy numalens and scx_cling to \$$(PREFIX)/sbin, the docs to \$$(PREFIX)/share/doc/numalens (PREFIX=/usr/local)"
	@echo "make vmlinux   regenerate vmlinux/$(ARCH)/vmlinux.h (BTF=path to use a BTF file)"

# --- dependencies ---------------------------------------------------------
deps: $(DEPS)/.stamp
$(DEPS)/.stamp: scripts/setup.sh scripts/build-deps.sh
	@if [ "$$(id -u)" = 0 ]; then bash scripts/setup.sh; \
	 else echo "make deps: not root, skipping package install (run 'sudo make deps' once)" >&2; fi
	@bash scripts/build-deps.sh $(CACHE) $(DEPS)
	@touch $@

# --- BPF ------------------------------------------------------------------
$(B)/bpf/%.bpf.o: bpf/%.bpf.c bpf/*.h vmlinux/$(ARCH)/vmlinux.h | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Ivmlinux/$(ARCH) \
		-I$(DEPS)/include -Ibpf -Wno-missing-declarations -c $< -o $@
	$(LLVMSTRIP) -g $@

$(B)/%.skel.h: $(B)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name nl_$* > $@

# --- user space -----------------------------------------------------------
$(B)/lib/%.o: tools/lib/%.c tools/lib/*.h bpf/nl_types.h bpf/*.h $(SKELS) | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

$(B)/cli/%.o: tools/%.c tools/*.h tools/lib/*.h $(SKELS) | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itools -c $< -o $@

$(B)/numalens: $(CLI_OBJS) $(LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Unit tests link the library objects but not the BPF loader parts they
# don't call (the linker drops unused objects from the archive).
$(B)/libnl.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(B)/tests/test_%: tests/unit/test_%.c $(B)/libnl.a tests/unit/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(B)/libnl.a $(LDLIBS:-lpthread=) -lcmocka -lpthread

$(B)/tests/live/%: tests/live/%.c $(B)/libnl.a tests/unit/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -Itests/unit -o $@ $< $(B)/libnl.a $(LDLIBS)

$(B)/tests/%: tests/workload/%.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -static -o $@ $< -lpthread

# --- install ---------------------------------------------------------------
PREFIX ?= /usr/local
install: $(B)/numalens $(B)/scx_cling
	install -d $(DESTDIR)$(PREFIX)/sbin
	install -m 0755 $(B)/numalens $(B)/scx_cling $(DESTDIR)$(PREFIX)/sbin/
	install -d $(DESTDIR)$(PREFIX)/share/doc/numalens/docs
	install -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/numalens/
	install -m 0644 docs/json.md $(DESTDIR)$(PREFIX)/share/doc/numalens/docs/

# --- run and test ---------------------------------------------------------
run: all
	@bash scripts/ensure-fs.sh
	$(B)/numalens top

test: all $(B)/vm/nljq
	@bash tests/run-all.sh

unittest: all
	@bash tests/run-all.sh unit
livetest: all $(B)/vm/nljq
	@bash tests/run-all.sh live
vmtest: all
	@bash tests/run-all.sh vm

bench: all $(B)/tests/bench_export_render verify
	@bash tests/bench/run.sh

# verified instructions and time per BPF program, on the host and in the
# VM guest (NL_VERIFY_VM=0: host only)
verify: all $(B)/tests/verify_stats
	@B=$(B) CACHE=$(CACHE) bash tests/bench/verify.sh

$(B)/tests/verify_stats: tests/bench/verify_stats.c | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Wno-unused-parameter -I$(DEPS)/include -static -o $@ $< \
		$(DEPS)/lib/libbpf.a -lelf -lz

# export's render benchmark links the library and the synthetic snapshot
$(B)/tests/bench_export_render: tests/bench/export_render.c $(B)/cli/export_synth.o $(B)/libnl.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itools -static -o $@ $< $(B)/cli/export_synth.o $(B)/libnl.a $(LDLIBS)

# --- vmlinux.h --------------------------------------------------------------
# From a BTF file when BTF= is given (e.g. BTF=/sys/kernel/btf/vmlinux), else
# from Debian's linux-bpf-dev of the newest sched_ext-capable kernel.
vmlinux:
	@bash scripts/gen-vmlinux.sh $(ARCH) $(CACHE) $(BTF)

clean:
	rm -rf $(B)/bpf $(B)/lib $(B)/cli $(B)/tests $(B)/*.o $(B)/*.skel.h $(B)/numalens $(B)/libnl.a $(B)/bench
distclean:
	rm -rf $(B)
cacheclean:
	rm -rf $(CACHE)

# The VM harness adds its own targets (kernel, initramfs, guest programs).
-include tests/vm/vm.mk
-include sched_ext/cling.mk
