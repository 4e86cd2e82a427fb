# scx_cling: the sched_ext scheduler and its loader, included by the main
# Makefile. Static like the other guest binaries (tests/vm).
#   build/scx_cling               the loader with the BPF object embedded
#   build/tests/test_cling*       unit tests (via the main test rule)
# The loader sits beside the commands: it may include the core and source
# layers (topology, procfs, the cling_stats reader) and its own skeleton.
INC_cling := $(INC_source) sched_ext $(B)/sched_ext

all: $(B)/scx_cling
vm-bins: $(B)/scx_cling

$(B)/sched_ext/scx_cling.bpf.o: sched_ext/scx_cling.bpf.c vmlinux/$(ARCH)/vmlinux.h | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(call say,BPF,$@)$(CLANG) $(BPF_CFLAGS) -Isched_ext $(DEPFLAGS) -c $< -o $@
	$(Q)$(LLVMSTRIP) -g $@

$(B)/sched_ext/scx_cling.skel.h: $(B)/sched_ext/scx_cling.bpf.o
	$(call say,SKEL,$@)$(BPFTOOL) gen skeleton $< name scx_cling > $@

$(B)/scx_cling: sched_ext/scx_cling.c $(B)/sched_ext/scx_cling.skel.h $(B)/libnl.a
	$(call say,CC,$@)$(CC) $(CFLAGS) $(addprefix -I,$(INC_cling)) $(DEPFLAGS) $(LDFLAGS) \
		-o $@ sched_ext/scx_cling.c $(B)/libnl.a $(LDLIBS)
