# scx_cling: the sched_ext scheduler and its loader, included by the main
# Makefile. Static like the other guest binaries (tests/vm).
#   build/scx_cling               the loader with the BPF object embedded
#   build/tests/test_cling*       unit tests (via the main test rule)
# The loader sits beside the commands: it may include the core and source
# layers (topology, procfs, the cling_stats reader) and its own skeleton.
# The BPF object is one compilation unit: scx_cling.bpf.c includes its
# parts (*.bpf.h), so one skeleton and one rule cover it.
INC_cling := $(INC_source) sched_ext sched_ext/include $(B)/sched_ext
CLING_OBJS := $(addprefix $(B)/sched_ext/,scx_cling.o cling_run.o cling_groups.o \
	      cling_report.o cling_sys.o)

all: $(B)/scx_cling
vm-bins: $(B)/scx_cling

$(B)/sched_ext/scx_cling.bpf.o: sched_ext/scx_cling.bpf.c vmlinux/$(ARCH)/vmlinux.h | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(call say,BPF,$@)$(CLANG) $(BPF_CFLAGS) -Isched_ext -Isched_ext/include $(DEPFLAGS) -c $< -o $@
	$(Q)$(LLVMSTRIP) -g $@

$(B)/sched_ext/scx_cling.skel.h: $(B)/sched_ext/scx_cling.bpf.o
	$(call say,SKEL,$@)$(BPFTOOL) gen skeleton $< name scx_cling > $@

$(CLING_OBJS): $(B)/sched_ext/%.o: sched_ext/%.c $(B)/sched_ext/scx_cling.skel.h | $(DEPS)/.stamp
	$(call say,CC,$@)$(CC) $(CFLAGS) $(addprefix -I,$(INC_cling)) $(DEPFLAGS) -c $< -o $@

$(B)/scx_cling: $(CLING_OBJS) $(B)/libnl.a
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLING_OBJS) $(B)/libnl.a $(LDLIBS)
