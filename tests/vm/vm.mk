# VM harness targets (included by the main Makefile). tests/vm/README.md
# tells how the harness works.
#   make vm-bins      guest programs: nlwork, nlpty, nljq, the scx_smoke scheduler
#   make vm-kernel    download/extract the guest kernel and modules (cached)
#   make vm-initramfs pack $(B)/vm/initrd.cpio
#   make vmtest       (main Makefile) build everything and run the VM tests
.PHONY: vm-bins vm-kernel vm-initramfs

VM_DIR := $(B)/vm

# `make` builds the guest programs too: the live tests also use nljq.
all: $(VM_DIR)/nljq $(VM_DIR)/scx_smoke

# The numa_cost plugin comes last: it needs qemu's source package (for
# its header), and a machine that cannot have it still gets the rest.
vm-bins: $(B)/tests/nlwork $(B)/tests/nlcaps $(B)/tests/nlpty $(VM_DIR)/nljq $(VM_DIR)/scx_smoke $(B)/tests/verify_stats $(VM_DIR)/libnuma_cost.so

vm-kernel:
	@bash tests/vm/kernel.sh $(CACHE) $(VM_DIR)/kernel

vm-initramfs: vm-bins vm-kernel
	bash tests/vm/initramfs.sh $(VM_DIR)/initrd.cpio $(VM_DIR)/kernel \
		$(B)/numalens $(B)/tests/nlwork $(B)/tests/nlcaps $(B)/tests/nlpty $(VM_DIR)/nljq $(VM_DIR)/scx_smoke $(B)/scx_cling

# nljq: a tiny JSON-lines query tool for guest tests (static, cJSON).
$(VM_DIR)/nljq: tests/vm/guest/nljq.c | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -static -I$(DEPS)/include -o $@ $< $(DEPS)/lib/libcjson.a -lm

# scx_smoke: the tests' own trivial sched_ext scheduler and its loader.
$(VM_DIR)/scx_smoke.bpf.o: tests/vm/scx_smoke/scx_smoke.bpf.c vmlinux/$(ARCH)/vmlinux.h | $(DEPS)/.stamp
	@mkdir -p $(@D)
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Wno-missing-declarations -Ivmlinux/$(ARCH) \
		-I$(DEPS)/include -c $< -o $@

$(VM_DIR)/scx_smoke.skel.h: $(VM_DIR)/scx_smoke.bpf.o
	$(BPFTOOL) gen skeleton $< name scx_smoke > $@

$(VM_DIR)/scx_smoke: tests/vm/scx_smoke/scx_smoke.c $(VM_DIR)/scx_smoke.skel.h
	$(CC) -O2 -Wall -Wextra -static -I$(VM_DIR) -I$(DEPS)/include -o $@ $< \
		$(DEPS)/lib/libbpf.a -lelf -lz

# numa_cost: the TCG plugin that makes guest memory cost by NUMA distance
# (tests/vm/numa_cost/), built against the plugin header of the installed
# qemu's own source package (header.sh; glib's headers for its types).
$(VM_DIR)/qemu-plugin/qemu-plugin.h: tests/vm/numa_cost/header.sh $(wildcard /usr/bin/qemu-system-x86_64)
	@bash tests/vm/numa_cost/header.sh $(CACHE) $(@D)
	@touch $@

$(VM_DIR)/libnuma_cost.so: tests/vm/numa_cost/numa_cost.c $(VM_DIR)/qemu-plugin/qemu-plugin.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -shared -fPIC -fvisibility=hidden $$(pkg-config --cflags glib-2.0) \
		-I$(VM_DIR)/qemu-plugin -o $@ $< -lpthread
