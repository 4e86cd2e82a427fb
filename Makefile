# numalens build. `make help` lists the targets.
# Everything builds into build/; downloaded sources are cached in cache/,
# which `make clean` and `make distclean` leave alone (`make cacheclean` empties it).

CLANG    ?= clang-19
LLVMSTRIP?= llvm-strip-19
BPFTOOL  ?= bpftool
CC       ?= gcc
ARCH     := x86
B        ?= build
DEPS     ?= $(B)/deps
CACHE    ?= cache
# BPF objects and skeletons (the ASan build of the tests reuses the main ones)
BPFB     ?= $(B)

# `make V=1` prints every command in full; the default prints one line each.
ifeq ($(V),1)
Q   :=
say  =
else
Q   := @
say  = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif

# The layers of tools/, lowest first (docs/architecture.md). Each folder is
# compiled with -I for itself and the layers below it only, so including a
# header from a higher layer fails to compile. bpf/include/ (types shared
# with the BPF programs) and sched_ext/ for scx_cling.h (the scheduler's
# interface, which its statistics reader includes) sit under everything. Skeletons ($(B)/skel) are
# visible to the source layer only: it alone touches BPF maps and pins.
INC_core    := bpf/include sched_ext tools/core
INC_source  := $(INC_core) tools/source $(BPFB)/skel
INC_model   := $(INC_source) tools/model
INC_view    := $(INC_model) tools/view
INC_prom    := $(INC_view) tools/prom
INC_reclaim := $(INC_model) tools/reclaim
# The commands (tools/*.c) and the tests see every layer.
INC_cmd     := $(INC_prom) tools/reclaim tools
LAYERS      := core source model view prom reclaim

CWARN    := -Wall -Wextra -Wno-unused-parameter -Werror=implicit-function-declaration
# CI=true turns warnings into errors; a developer's newer compiler does not.
ifeq ($(CI),true)
CWARN    += -Werror
endif
CFLAGS   ?= -O2 -g
CFLAGS   += $(CWARN) -std=gnu11 -D_GNU_SOURCE -I$(DEPS)/include
# Per-file header dependencies, written next to each output (.d).
DEPFLAGS  = -MMD -MP -MF $@.d -MT $@
# libmicrohttpd serves HTTPS through the GnuTLS (and nettle) built in
# $(DEPS); libyaml reads the web configuration, libxcrypt checks bcrypt.
LDLIBS   := $(DEPS)/lib/libbpf.a $(DEPS)/lib/libcjson.a $(DEPS)/lib/libmicrohttpd.a \
	    $(DEPS)/lib/libgnutls.a $(DEPS)/lib/libhogweed.a $(DEPS)/lib/libnettle.a -lgmp \
	    -lyaml -lcrypt -lelf -lz -lncursesw -ltinfo -lm -lpthread
# Static, so the same binary runs in the VM guest (tests/vm).
LDFLAGS  ?= -static
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Wno-missing-declarations \
	      -Ivmlinux/$(ARCH) -I$(DEPS)/include -Ibpf/include
ifeq ($(CI),true)
BPF_CFLAGS += -Werror
endif

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(BPFB)/bpf/%.bpf.o,$(BPF_SRCS))
SKELS    := $(patsubst bpf/%.bpf.c,$(BPFB)/skel/%.skel.h,$(BPF_SRCS))
LIB_SRCS := $(foreach l,$(LAYERS),$(wildcard tools/$(l)/*.c))
LIB_OBJS := $(patsubst tools/%.c,$(B)/obj/%.o,$(LIB_SRCS))
# The CLI: numalens.c dispatches, cli.c is shared, cmd_<name>.c per subcommand.
CLI_SRCS := $(wildcard tools/*.c)
CLI_OBJS := $(patsubst tools/%.c,$(B)/cmd/%.o,$(CLI_SRCS))
UNIT_SRCS:= $(wildcard tests/unit/test_*.c)
UNIT_BINS:= $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS))
WORK_SRCS:= $(wildcard tests/workload/*.c)
WORK_BINS:= $(patsubst tests/workload/%.c,$(B)/tests/%,$(WORK_SRCS))
# Live-test helpers that link the library (tests/live/*.c).
LIVE_SRCS:= $(wildcard tests/live/*.c)
LIVE_BINS:= $(patsubst tests/live/%.c,$(B)/tests/live/%,$(LIVE_SRCS))

.PHONY: all tests-build deps test-deps bench-deps run test unittest unittest-asan unittest-asan-bins check-layers livetest vmtest bench bench-soak bench-cling bench-seeds verify vmlinux clean distclean cacheclean help install uninstall deb image
.DELETE_ON_ERROR:
# The BPF objects are only a step to the skeletons: keep them anyway.
.SECONDARY: $(BPF_OBJS)

# `make` builds the programs; the tests' binaries need the test toolchain
# (cmocka), which only `make test` and friends install.
all: $(B)/numalens
tests-build: all $(UNIT_BINS) $(WORK_BINS) $(LIVE_BINS)

help:
	@echo "make deps      install what numalens needs to build and run (root), build static libbpf/cJSON/libmicrohttpd"
	@echo "make test-deps deps + the test toolchain (cmocka, qemu, stress-ng; Prometheus unpacked, not installed)"
	@echo "make           build build/numalens and build/scx_cling (make tests-build: the test binaries too)"
	@echo "make run       deps + build, then 'numalens top' on the live kernel (root)"
	@echo "make test      deps + build, then unit, live (root) and VM tests"
	@echo "make unittest | livetest | vmtest   one layer of the tests"
	@echo "make unittest-asan   the unit tests under ASan+UBSan (also part of make unittest)"
	@echo "make unittest-asan-bins   only build the ASan+UBSan unit test binaries (build/asan/)"
	@echo "make check-layers   the include rules between the source layers (docs/architecture.md)"
	@echo "make V=1       print full commands; CI=true makes warnings errors"
	@echo "make bench-deps   what make bench compares with: bpftrace, perf, procps (root); node_exporter unpacked"
	@echo "make bench     benchmarks (report, not pass/fail), written to build/bench/"
	@echo "make bench-soak   export scraped for an hour under process and cgroup churn (NL_SOAK_SECS=), build/bench/soak.txt"
	@echo "make bench-cling   scx_cling vs the default scheduler on a guest whose remote memory costs (LOADS=, ROUNDS=)"
	@echo "make bench-seeds   placement throughput (page faults, a memory walk) and the scheduling patches' table on that guest"
	@echo "make verify    verifier budget of every BPF program (host and VM guest kernels), build/bench/verify.txt"
	@echo "make install   binaries to \$$(PREFIX)/sbin, man pages, bash completion, the systemd unit (not enabled), dashboard, docs (PREFIX=/usr/local)"
	@echo "make uninstall remove what make install put there (same PREFIX and DESTDIR)"
	@echo "make image     an OCI image (FROM scratch, the static binaries) with podman or buildah: localhost/numalens:VERSION and $(B)/image/*.oci.tar"
	@echo "make deb       a Debian package in $(B)/deb/ (dpkg-buildpackage; needs 'make test-deps')"
	@echo "make vmlinux   regenerate vmlinux/$(ARCH)/vmlinux.h (BTF=path to use a BTF file)"
	@echo "make all       the same as make"
	@echo "make clean     remove the build outputs, keeping the built libraries (build/deps); make distclean: all of build/; make cacheclean: cache/ (downloads)"
	@echo "make help      this list"

# --- dependencies ---------------------------------------------------------
# Two sets: what building and running numalens needs (`make run`), and the
# test toolchain on top (`make test`), so a user who only wants `numalens
# top` gets no emulator or test tools.
deps: $(DEPS)/.stamp
$(DEPS)/.stamp: scripts/setup.sh scripts/build-deps.sh
	@if [ "$$(id -u)" = 0 ]; then CLANG=$(CLANG) LLVMSTRIP=$(LLVMSTRIP) BPFTOOL=$(BPFTOOL) bash scripts/setup.sh run; \
	 else echo "make deps: not root, skipping package install (run 'sudo make deps' once)" >&2; fi
	+@bash scripts/build-deps.sh $(CACHE) $(DEPS)
	@touch $@
test-deps: $(DEPS)/.test-stamp
$(DEPS)/.test-stamp: scripts/setup.sh scripts/test-tools.sh | $(DEPS)/.stamp
	@if [ "$$(id -u)" = 0 ]; then CLANG=$(CLANG) LLVMSTRIP=$(LLVMSTRIP) BPFTOOL=$(BPFTOOL) bash scripts/setup.sh test; \
	 else echo "make test-deps: not root, skipping package install (run 'sudo make test-deps' once)" >&2; fi
	@bash scripts/test-tools.sh $(CACHE) $(B)/test-tools
	@touch $@

# `make bench` also installs what it compares numalens with (bpftrace, perf)
bench-deps: $(DEPS)/.bench-stamp
$(DEPS)/.bench-stamp: scripts/setup.sh scripts/bench-tools.sh | $(DEPS)/.test-stamp
	@if [ "$$(id -u)" = 0 ]; then CLANG=$(CLANG) LLVMSTRIP=$(LLVMSTRIP) BPFTOOL=$(BPFTOOL) bash scripts/setup.sh bench; \
	 else echo "make bench-deps: not root, skipping package install (run 'sudo make bench-deps' once)" >&2; fi
	@bash scripts/bench-tools.sh $(CACHE) $(B)/test-tools || echo "make bench-deps: no node_exporter: the bench leaves its scrape out" >&2
	@touch $@

# --- BPF ------------------------------------------------------------------
$(BPFB)/bpf/%.bpf.o: bpf/%.bpf.c vmlinux/$(ARCH)/vmlinux.h | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(call say,BPF,$@)$(CLANG) $(BPF_CFLAGS) -Ibpf $(DEPFLAGS) -c $< -o $@
	$(Q)$(LLVMSTRIP) -g $@

$(BPFB)/skel/%.skel.h: $(BPFB)/bpf/%.bpf.o
	@mkdir -p $(@D)
	$(call say,SKEL,$@)$(BPFTOOL) gen skeleton $< name nl_$* > $@

# --- user space -----------------------------------------------------------
# One rule for every layer: the folder name picks the -I set (INC_<layer>).
$(B)/obj/%.o: tools/%.c | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(addprefix -I,$(INC_$(firstword $(subst /, ,$*)))) \
		$(DEPFLAGS) -c $< -o $@

# The source layer includes the skeletons: generate them first.
$(filter $(B)/obj/source/%,$(LIB_OBJS)): | $(SKELS)

$(B)/cmd/%.o: tools/%.c | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(addprefix -I,$(INC_cmd)) $(DEPFLAGS) -c $< -o $@

$(B)/numalens: $(CLI_OBJS) $(LIB_OBJS)
	$(call say,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Unit tests link the library objects but not the BPF loader parts they
# don't call (the linker drops unused objects from the archive).
$(B)/libnl.a: $(LIB_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(B)/tests/test_%: tests/unit/test_%.c $(B)/libnl.a | $(DEPS)/.test-stamp
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(addprefix -I,$(INC_cmd)) -Itests/unit $(DEPFLAGS) \
		-o $@ $< $(B)/libnl.a $(LDLIBS:-lpthread=) -lcmocka -lpthread

$(B)/tests/live/%: tests/live/%.c $(B)/libnl.a
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(LDFLAGS) $(addprefix -I,$(INC_cmd)) -Itests/unit $(DEPFLAGS) \
		-o $@ $< $(B)/libnl.a $(LDLIBS)

$(B)/tests/%: tests/workload/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) -O2 -Wall -static $(DEPFLAGS) -o $@ $< -lpthread

# --- install ---------------------------------------------------------------
# Binaries, man pages, bash completion, the systemd unit (installed, never
# enabled), the Grafana dashboard and the docs. DESTDIR stages for packaging.
PREFIX     ?= /usr/local
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
DOCDIR     ?= $(PREFIX)/share/doc/numalens
MANPAGES   := $(wildcard man/*.8)
DOCS       := $(wildcard docs/*.md)
install: $(B)/numalens $(B)/scx_cling
	install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/share/man/man8 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(SYSTEMDDIR) $(DESTDIR)$(PREFIX)/share/numalens/dashboards \
		$(DESTDIR)$(DOCDIR)/docs
	install -m 0755 $(B)/numalens $(B)/scx_cling $(DESTDIR)$(PREFIX)/sbin/
	install -m 0644 $(MANPAGES) $(DESTDIR)$(PREFIX)/share/man/man8/
	install -m 0644 packaging/bash-completion/numalens $(DESTDIR)$(PREFIX)/share/bash-completion/completions/numalens
	ln -sf numalens $(DESTDIR)$(PREFIX)/share/bash-completion/completions/scx_cling
	sed 's|/usr/local/sbin/|$(PREFIX)/sbin/|' packaging/numalens-export.service \
		> $(DESTDIR)$(SYSTEMDDIR)/numalens-export.service
	chmod 0644 $(DESTDIR)$(SYSTEMDDIR)/numalens-export.service
	install -m 0644 dashboards/numalens.json $(DESTDIR)$(PREFIX)/share/numalens/dashboards/
	install -m 0644 packaging/prometheus.yml $(DESTDIR)$(DOCDIR)/prometheus.yml.example
	install -m 0644 packaging/prometheus-rules.yml $(DESTDIR)$(DOCDIR)/prometheus-rules.yml
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/docs/
	@echo "installed under $(DESTDIR)$(PREFIX); the export service is not enabled:" \
	      "systemctl daemon-reload && systemctl enable --now numalens-export"

# The reverse of install, with the same PREFIX, DESTDIR, SYSTEMDDIR and
# DOCDIR: removes every file install puts there, then numalens' own
# directories (dashboards, docs), never the shared ones (sbin, man8, ...).
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/sbin/numalens $(DESTDIR)$(PREFIX)/sbin/scx_cling
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/share/man/man8/,$(notdir $(MANPAGES)))
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/numalens \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/scx_cling
	rm -f $(DESTDIR)$(SYSTEMDDIR)/numalens-export.service
	rm -rf $(DESTDIR)$(PREFIX)/share/numalens $(DESTDIR)$(DOCDIR)
	@echo "removed numalens from $(DESTDIR)$(PREFIX); if the export service was enabled:" \
	      "systemctl disable --now numalens-export && systemctl daemon-reload"

# A Debian package built by dpkg-buildpackage/debhelper from this tree
# (packaging/debian), everything under $(B)/deb: the .deb lands there.
deb: $(B)/numalens $(B)/scx_cling
	@CACHE=$(CACHE) bash scripts/build-deb.sh $(B)

# The container image (packaging/Containerfile) with podman or buildah,
# which `make test-deps` installs; docs/kubernetes.md deploys it.
image: $(B)/numalens $(B)/scx_cling
	@bash scripts/build-image.sh $(B)

# --- run and test ---------------------------------------------------------
run: $(B)/numalens
	@bash scripts/ensure-fs.sh
	$(B)/numalens top

test: tests-build $(B)/vm/nljq
	@bash tests/run-all.sh

unittest: tests-build
	@bash tests/run-all.sh unit
# The unit tests again with AddressSanitizer (leaks included) and
# UndefinedBehaviorSanitizer, in build/asan/ (the library rebuilt with the
# same flags; BPF skeletons shared). tests/run-all.sh's unit layer builds
# and runs them; `make unittest-asan` does only that.
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
ASAN_BINS   = $(patsubst $(B)/%,$(B)/asan/%,$(UNIT_BINS))
unittest-asan-bins: $(SKELS) | $(DEPS)/.test-stamp
	$(Q)CFLAGS="$(ASAN_FLAGS)" LDFLAGS= $(MAKE) --no-print-directory B=$(B)/asan DEPS=$(DEPS) \
		BPFB=$(BPFB) $(ASAN_BINS)
unittest-asan: unittest-asan-bins
	@bash tests/run-all.sh asan
# The include rules of the layers (also part of `make unittest`).
check-layers:
	@bash tests/unit/check_layers.sh
livetest: tests-build $(B)/vm/nljq
	@bash tests/run-all.sh live
vmtest: tests-build
	@bash tests/run-all.sh vm

bench: bench-deps tests-build $(B)/tests/bench_export_render $(BPFB)/tests/bench_empty.bpf.o verify
	@bash tests/bench/run.sh

# export for an hour (NL_SOAK_SECS) under 100 forks/s and a cgroup made and
# removed every 0.25 s, scraped every 2 s: pass/fail on RSS, fds, BPF map
# fill, series and missed scrapes, and export's CPU per hour. The 10-minute
# version runs beside the live layer of `make test`.
bench-soak: tests-build $(B)/vm/nljq
	@mkdir -p $(B)/bench && NL_SOAK_SECS=$${NL_SOAK_SECS:-3600} NL_SOAK_LOG=$(B)/bench/soak.samples \
		bash -o pipefail -c 'bash tests/soak/export_churn.sh 2>&1 | tee $(B)/bench/soak.txt'

# scx_cling on the costed machine (the numa_cost plugin): paired arms per
# load, tests/bench/cling_cost.sh (LOADS=..., ROUNDS=..., WALK=...)
bench-cling: tests-build $(B)/scx_cling
	@bash tests/bench/cling_cost.sh

# the seeds' throughput tables on the costed machine: seed 004's page-fault
# and stream runs (tests/bench/seed_cost.sh), then seed 003's cling table
# (six loads of tests/bench/cling_cost.sh, the default scheduler against
# scx_cling). Output in $(B)/bench/seed_cost.txt and cling_cost_seed*.txt.
SEED_LOADS ?= seed8-1 seed8-2 seed8-3 seed16-1 seed16-2 seed16-3
bench-seeds: tests-build $(B)/scx_cling
	@mkdir -p $(B)/bench && bash tests/bench/seed_cost.sh | tee $(B)/bench/seed_cost.txt
	@LOADS="$(SEED_LOADS)" NOBAL=0 ARMS=default_cling WALK=$${WALK:-8} bash tests/bench/cling_cost.sh

# verified instructions and time per BPF program, on the host and in the
# VM guest (NL_VERIFY_VM=0: host only)
verify: all $(B)/tests/verify_stats
	@B=$(B) CACHE=$(CACHE) bash tests/bench/verify.sh

$(B)/tests/verify_stats: tests/bench/verify_stats.c | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Wno-unused-parameter -I$(DEPS)/include -static -o $@ $< \
		$(DEPS)/lib/libbpf.a -lelf -lz

# The bench's floor: empty programs on numalens' tracepoints (cost.sh)
$(BPFB)/tests/bench_empty.bpf.o: tests/bench/empty.bpf.c vmlinux/$(ARCH)/vmlinux.h | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(call say,BPF,$@)$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c $< -o $@

# export's render benchmark links the library and the synthetic snapshot
$(B)/tests/bench_export_render: tests/bench/export_render.c $(B)/cmd/export_synth.o $(B)/libnl.a
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CFLAGS) $(addprefix -I,$(INC_cmd)) $(DEPFLAGS) -static -o $@ $< \
		$(B)/cmd/export_synth.o $(B)/libnl.a $(LDLIBS)

# --- vmlinux.h --------------------------------------------------------------
# From a BTF file when BTF= is given (e.g. BTF=/sys/kernel/btf/vmlinux), else
# from Debian's linux-bpf-dev of the newest sched_ext-capable kernel.
vmlinux:
	@bash scripts/gen-vmlinux.sh $(ARCH) $(CACHE) $(BTF)

clean:
	rm -rf $(B)/asan $(B)/bpf $(B)/skel $(B)/obj $(B)/cmd $(B)/tests $(B)/sched_ext $(B)/numalens $(B)/scx_cling $(B)/libnl.a $(B)/bench
distclean:
	rm -rf $(B)
cacheclean:
	rm -rf $(CACHE)

# The VM harness adds its own targets (kernel, initramfs, guest programs).
-include tests/vm/vm.mk
-include sched_ext/cling.mk

# Header dependencies recorded by -MMD (absent before the first build).
-include $(shell find $(B) -name '*.d' -not -path '$(DEPS)/*' 2>/dev/null)
