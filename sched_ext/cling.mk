# scx_cling (issue 6): the sched_ext scheduler and its loader, included by
# the main Makefile. Static like the other guest binaries (tests/vm).
#   build/scx_cling               the loader with the BPF object embedded
#   build/tests/test_cling*       unit tests (via the main test rule)
CLING_HDRS := sched_ext/cling.h sched_ext/cling_stats.h bpf/nl_types.h bpf/pfn_lookup.h

all: $(B)/scx_cling
vm-bins: $(B)/scx_cling

$(B)/sched_ext/scx_cling.bpf.o: sched_ext/scx_cling.bpf.c $(CLING_HDRS) vmlinux/$(ARCH)/vmlinux.h | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Ivmlinux/$(ARCH) \
		-I$(DEPS)/include -Ibpf -Isched_ext -Wno-missing-declarations -c $< -o $@
	$(LLVMSTRIP) -g $@

$(B)/sched_ext/scx_cling.skel.h: $(B)/sched_ext/scx_cling.bpf.o
	$(BPFTOOL) gen skeleton $< name scx_cling > $@

$(B)/scx_cling: sched_ext/scx_cling.c sched_ext/*.h $(B)/sched_ext/scx_cling.skel.h $(B)/libnl.a
	$(CC) $(CFLAGS) -Isched_ext -I$(B)/sched_ext $(LDFLAGS) -o $@ sched_ext/scx_cling.c \
		$(B)/libnl.a $(LDLIBS)

# The unit tests include sched_ext/ headers.
$(B)/tests/test_cling: CFLAGS += -Isched_ext
$(B)/tests/test_cling: sched_ext/cling.h sched_ext/cling_stats.h
$(B)/lib/cling_stats.o: sched_ext/cling.h sched_ext/cling_stats.h
