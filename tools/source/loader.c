// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Loading and attaching numalens' BPF objects; see loader.h. */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "loader.h"
#include "load_common.h"
#include "kbtf.h"
#include "load_vmscan.h"
#include "node_exact.h"
#include "page_layout.h"
#include "pfn_lookup.h"
#include "sched.skel.h"
#include "alloc.skel.h"
#include "migrate.skel.h"
#include "vmscan.skel.h"
#include "caps.h"
#include "names.h"
#include "topology.h"

#define BPFFS_MAGIC	0xcafe4a11
#define TRACEFS_MAGIC	0x74726163
#define TRACEFS		"/sys/kernel/tracing"
#define DEFAULT_BUDGET	(32u << 20)

static bool verbose;

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* libbpf's log, warnings included, only behind --verbose: the
	 * loader reports what is missing in its own words */
	if (!verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

const char *nl_bpf_caps_missing(void)
{
	bool bpf = nl_cap_effective(CAP_BPF), perf = nl_cap_effective(CAP_PERFMON);

	/* CAP_SYS_ADMIN stands in for both (the kernel accepts it for each) */
	if (nl_cap_effective(CAP_SYS_ADMIN) || (bpf && perf))
		return NULL;
	return !bpf && !perf ? "CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN)"
	       : !bpf ? "CAP_BPF (or CAP_SYS_ADMIN)" : "CAP_PERFMON (or CAP_SYS_ADMIN)";
}

/* Mount @type on @dir unless a filesystem with @magic is already there. */
static int ensure_fs(const char *type, const char *dir, long magic)
{
	struct statfs st;

	if (!statfs(dir, &st) && (long)st.f_type == magic)
		return 0;
	if (mount(type, dir, type, 0, NULL))
		return -errno;
	return 0;
}

/* The kernel's own BTF parsed from a mapping of NL_KERNEL_BTF (kernels
 * from 6.16 map it read-only), else read as libbpf reads it. The mapping
 * spares the read buffer: 5+ MiB of fresh heap, a page fault per 4 KiB,
 * that the parse copies from and frees at once. NULL with errno set. */
static struct btf *kernel_btf(void)
{
	struct btf *vm = NULL;
	struct stat st;
	void *p = MAP_FAILED;
	int fd = open(NL_KERNEL_BTF, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && !fstat(fd, &st) && st.st_size > 0)
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED)
		return btf__load_vmlinux_btf();
	vm = btf__new(p, (__u32)st.st_size);
	munmap(p, (size_t)st.st_size);
	return vm ? vm : btf__load_vmlinux_btf();
}

int nl_bpf_btf_check(const char *path, struct btf **out, char *err, size_t errlen)
{
	struct btf *vm;
	char shown[512];	/* --btf as the messages echo it: cleaned */
	int e;

	if (out)
		*out = NULL;
	nl_name_clean(shown, sizeof(shown), path ? path : NL_KERNEL_BTF,
		      strlen(path ? path : NL_KERNEL_BTF), 0, NULL);
	if (path && access(path, R_OK)) {
		e = errno;
		snprintf(err, errlen, "--btf %s: cannot read it (%s): give a BTF file of the running kernel, e.g. a vmlinux built with BTF",
			 shown, strerror(e));
		return NL_EXIT_USAGE;
	}
	if (!path && access(NL_KERNEL_BTF, R_OK)) {
		snprintf(err, errlen, "this kernel has no BTF (" NL_KERNEL_BTF "): use a kernel built with CONFIG_DEBUG_INFO_BTF=y, or give a BTF file of this kernel with --btf PATH");
		return NL_EXIT_KERNEL;
	}
	vm = path ? btf__parse(path, NULL) : kernel_btf();
	e = errno;
	if (!vm) {
		char why[128];

		libbpf_strerror(e, why, sizeof(why));	/* also libbpf's own codes (4000+) */
		snprintf(err, errlen, "%s%s is not BTF libbpf can read (%s)%s", path ? "--btf " : "the kernel's BTF ",
			 shown, why,
			 path ? ": give a BTF file of the running kernel" : ": is it readable by root?");
		return path ? NL_EXIT_USAGE : NL_EXIT_KERNEL;
	}
	/* CO-RE reads task_struct fields: BTF without it is not a kernel's */
	if (btf__find_by_name_kind(vm, "task_struct", BTF_KIND_STRUCT) <= 0) {
		snprintf(err, errlen, "%s%s has no struct task_struct: not the BTF of a kernel",
			 path ? "--btf " : "the kernel's BTF ", shown);
		btf__free(vm);
		return path ? NL_EXIT_USAGE : NL_EXIT_KERNEL;
	}
	if (out)
		*out = vm;
	else
		btf__free(vm);
	return 0;
}

/* Inode number of our own pid namespace, 0 for the initial one (whose
 * number is fixed: PROC_PID_INIT_INO) or when it cannot be read. */
static uint32_t own_pidns_inum(void)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st) || st.st_ino == 0xeffffffcu)
		return 0;
	return (uint32_t)st.st_ino;
}

static bool tp_exists(const char *cat, const char *name)
{
	char p[256];

	snprintf(p, sizeof(p), TRACEFS "/events/%s/%s/id", cat, name);
	/* AT_EACCESS: plain access() drops the capabilities of a non-root
	 * user, so CAP_DAC_READ_SEARCH would not count */
	return faccessat(AT_FDCWD, p, R_OK, AT_EACCESS) == 0;
}

void nl_bpf_set_numa_balancing(struct nl_bpf *b, bool on)
{
	if (b->sched && b->sched->bss)
		b->sched->bss->nl_numa_balancing_on = on;
}

void nl_bpf_set_sched_ext(struct nl_bpf *b, bool on)
{
	if (!b->sched || !b->sched->bss)
		return;
	/* a new interval first, so no slice of it is judged by the old one */
	b->sched->bss->nl_collect_seq++;
	b->sched->bss->nl_sched_ext_on = on;
}

void nl_bpf_set_alloc_sample(struct nl_bpf *b, uint32_t period)
{
	if (!b->alloc || !b->alloc->data)
		return;
	/* the weight rides above an entry's order byte (24 bits) and a
	 * gap is drawn below 2 x period: keep both in range */
	if (period > NL_ALLOC_SAMPLE_LIMIT)
		period = NL_ALLOC_SAMPLE_LIMIT;
	b->alloc->data->nl_sample_period = period ? period : 1;
}

static int open_sched(struct nl_bpf *b, const struct nl_bpf_opts *o, const struct nl_kbtf *kb,
		      const struct nl_load_sizes *sz)
{
	struct nl_sched *s;
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = o->btf_path);

	if (!nl_kbtf_has_tp(kb, "sched_switch")) {
		nl_load_missing(b, "on-CPU time and locality: tracepoint sched_switch is missing");
		return 0;
	}
	s = nl_sched__open_opts(&oo);
	if (!s)
		return -errno;
	s->rodata->nl_cgroup_mode = o->cgroup_mode;
	s->rodata->nl_pidns_inum = b->pidns_inum;
	s->rodata->nl_rdonly_cast = kb->rdonly_cast;
	s->rodata->nl_nr_nodes = (u32)b->nr_nodes;
	bpf_program__set_autoload(s->progs.handle_process_exit,
				  nl_kbtf_has_tp(kb, "sched_process_exit"));
	if (bpf_map__set_value_size(s->maps.sched_stats, (u32)nl_sched_val_size(b->nr_nodes))) {
		nl_sched__destroy(s);
		return -EINVAL;
	}
	nl_load_size_percpu(s->maps.sched_stats, b->nr_cpus, nl_sched_val_size(b->nr_nodes),
			    sz->budget, sz->ids);
	if (nl_sched__load(s)) {
		int e = -errno;

		nl_load_missing(b, "on-CPU time and locality: BPF load failed (%s)",
			    nl_load_why(o, e));
		nl_sched__destroy(s);
		return 0;
	}
	b->sched = s;
	/* without it, a process that lives < 1 interval shows unnamed */
	if (nl_exit_names_open(&b->exit_names, bpf_map__fd(s->maps.exit_ring),
			       bpf_map__fd(s->maps.exit_pos)))
		nl_load_missing(b, "names of processes that exited within an interval: out of memory");
	nl_load_attach_all(b, s->obj);
	b->have_sched = true;
	return 0;
}

/* Slots per CPU of the alloc slot table that fit @budget bytes: a power
 * of two from 64 to NL_ALLOC_SLOTS_MAX. */
static uint32_t alloc_slots_per_cpu(int cpus, size_t budget)
{
	uint32_t n = NL_ALLOC_SLOTS_MAX;

	while (n > 64 && (size_t)n * (size_t)cpus * sizeof(struct nl_alloc_slot) > budget)
		n >>= 1;
	return n;
}

/* Map the alloc slot table into our memory: reads without system calls.
 * Returns 0 or a negative errno. */
static int map_alloc_slots(struct nl_bpf *b)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)b->nr_cpus * b->alloc_slots_per_cpu * sizeof(struct nl_alloc_slot);
	void *p;

	len = (len + (size_t)pg - 1) & ~((size_t)pg - 1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(b->alloc->maps.alloc_slots), 0);
	if (p == MAP_FAILED)
		return -errno;
	b->alloc_slots = p;
	b->alloc_slots_len = len;
	return 0;
}

/* Open and load the alloc object, with the tp_btf programs when @by_page
 * (layout @kb->pl), else the classic ones; @lru: the class join too. Returns
 * the loaded object, or NULL with errno set. */
static struct nl_alloc *load_alloc(struct nl_bpf *b, const struct nl_bpf_opts *o,
				   const struct nl_kbtf *kb, bool by_page, bool lru,
				   const struct nl_load_sizes *sz)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = o->btf_path);
	struct nl_alloc *a = nl_alloc__open_opts(&oo);
	int e;

	if (!a)
		return NULL;
	a->rodata->nl_cgroup_mode = o->cgroup_mode;
	a->rodata->nl_pidns_inum = b->pidns_inum;
	a->rodata->nl_track_class = lru;
	if (by_page) {
		a->rodata->nl_node_shift = kb->pl.node_shift;
		a->rodata->nl_node_mask = kb->pl.node_mask;
		a->rodata->nl_zone_shift = kb->pl.zone_shift;
		a->rodata->nl_zone_mask = kb->pl.zone_mask;
	}
	bpf_program__set_autoload(a->progs.handle_page_alloc, by_page);
	bpf_program__set_autoload(a->progs.handle_lru_insertion, by_page && lru);
	bpf_program__set_autoload(a->progs.handle_page_alloc_pfn, !by_page);
	bpf_program__set_autoload(a->progs.handle_lru_insertion_pfn, !by_page && lru);
	nl_load_size_percpu(a->maps.alloc_stats, b->nr_cpus, sizeof(struct nl_alloc_val), sz->budget,
			    sz->alloc);
	b->alloc_slots_per_cpu = alloc_slots_per_cpu(b->nr_cpus, sz->budget);
	a->rodata->nl_slot_mask = b->alloc_slots_per_cpu - 1;
	bpf_map__set_max_entries(a->maps.alloc_slots, (unsigned)b->nr_cpus * b->alloc_slots_per_cpu);
	/* NL_PENDING_SLOTS, NL_PENDING_HOT and one pending_seq line per CPU,
	 * the CPU in the index (alloc.bpf.c) */
	bpf_map__set_max_entries(a->maps.pending, (unsigned)b->nr_cpus * NL_PENDING_SLOTS);
	bpf_map__set_max_entries(a->maps.pending_hot, (unsigned)b->nr_cpus * NL_PENDING_HOT);
	bpf_map__set_max_entries(a->maps.pending_seq, (unsigned)b->nr_cpus);
	nl_node_exact_size(a, b->nr_cpus, b->nr_nodes);
	if (nl_alloc__load(a)) {
		e = errno;
		nl_alloc__destroy(a);
		errno = e;
		return NULL;
	}
	return a;
}

static int open_alloc(struct nl_bpf *b, const struct nl_bpf_opts *o, const struct nl_kbtf *kb,
		      const struct nl_load_sizes *sz)
{
	bool by_page = kb->by_page;
	struct nl_alloc *a;
	bool lru = o->track_class && tp_exists("pagemap", "mm_lru_insertion");
	int e;

	if (!tp_exists("kmem", "mm_page_alloc")) {
		if (errno == EACCES)
			nl_load_missing(b, "page allocations: tracefs is not readable (%s): needs CAP_DAC_READ_SEARCH",
				    TRACEFS);
		else
			nl_load_missing(b, "page allocations: tracepoint kmem:mm_page_alloc is missing");
		return 0;
	}
	if (o->track_class && !lru)
		nl_load_missing(b, "anon/file/shmem split: tracepoint pagemap:mm_lru_insertion is missing");
	a = load_alloc(b, o, kb, by_page, by_page ? lru && nl_kbtf_has_tp(kb, "mm_lru_insertion") : lru,
		       sz);
	/* a verifier that refuses the struct page reads (older kernels) still
	 * takes the classic programs and the pfn table */
	if (!a && by_page) {
		if (verbose)
			fprintf(stderr, "numalens: the tp_btf allocation programs did not load (%s); using the pfn table\n",
				strerror(errno));
		by_page = false;
		a = load_alloc(b, o, kb, false, lru, sz);
	}
	if (!a) {
		e = -errno;
		nl_load_missing(b, "page allocations: BPF load failed (%s)", nl_load_why(o, e));
		return 0;
	}
	if (by_page)
		lru = lru && nl_kbtf_has_tp(kb, "mm_lru_insertion");
	b->alloc = a;
	e = map_alloc_slots(b);
	if (!e)
		e = nl_node_exact_map(b);
	if (e) {
		if (b->alloc_slots)
			munmap(b->alloc_slots, b->alloc_slots_len);
		b->alloc_slots = NULL;
		nl_load_missing(b, "page allocations: cannot map the counters (%s)", strerror(-e));
		nl_alloc__destroy(a);
		b->alloc = NULL;
		return 0;
	}
	nl_load_attach_all(b, a->obj);
	b->have_alloc = true;
	b->have_alloc_class = lru;
	b->alloc_page_flags = by_page;
	return 0;
}

static int open_migrate(struct nl_bpf *b, const struct nl_bpf_opts *o, const struct nl_kbtf *kb,
			const struct nl_load_sizes *sz)
{
	static const char *const tps[] = { "sched_move_numa", "sched_swap_numa",
					   "sched_stick_numa", "mm_migrate_pages" };
	struct nl_migrate *m;
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = o->btf_path);
	struct bpf_program *progs[4];
	int ok = 0;

	m = nl_migrate__open_opts(&oo);
	if (!m)
		return -errno;
	progs[0] = m->progs.handle_move_numa;
	progs[1] = m->progs.handle_swap_numa;
	progs[2] = m->progs.handle_stick_numa;
	progs[3] = m->progs.handle_migrate_pages;
	for (int i = 0; i < 4; i++) {
		bool have = nl_kbtf_has_tp(kb, tps[i]);

		bpf_program__set_autoload(progs[i], have);
		if (have)
			ok++;
		else
			nl_load_missing(b, "migrations: tracepoint %s is missing", tps[i]);
	}
	if (!ok) {
		nl_migrate__destroy(m);
		return 0;
	}
	m->rodata->nl_cgroup_mode = o->cgroup_mode;
	m->rodata->nl_pidns_inum = b->pidns_inum;
	m->rodata->nl_rdonly_cast = kb->rdonly_cast;
	nl_load_size_percpu(m->maps.migrate_stats, b->nr_cpus, sizeof(struct nl_migrate_val),
			    sz->budget / 2, sz->ids);
	if (nl_migrate__load(m)) {
		int e = -errno;

		nl_load_missing(b, "migrations: BPF load failed (%s)", nl_load_why(o, e));
		nl_migrate__destroy(m);
		return 0;
	}
	b->migrate = m;
	nl_load_attach_all(b, m->obj);
	b->have_migrate = true;
	return 0;
}

/*
 * The heap while the objects load. libbpf parses the kernel's BTF (5+ MiB
 * here) again for each object, into two buffers it frees after the load.
 * glibc's adaptive thresholds handed those back to the kernel each time
 * (mmap, or a trim of the heap's top), so every parse faulted its buffers
 * in afresh: a page fault per 4 KiB, more CPU than the parse itself. Held,
 * the next parse reuses the pages of the last. libbpf 1.5 has no way to
 * give an object a BTF parsed already, which would spare the parses.
 */
static void heap_hold(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);	/* glibc's largest */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

/* After the loads: give the held memory back, and leave the thresholds
 * where glibc's adaptive rule would have put them (mmap from the size of
 * the largest block freed, the BTF buffer of @btf_bytes; trim at twice
 * that), so that the rest of the run allocates as it did before. */
static void heap_release(size_t btf_bytes)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t mmap_at = (btf_bytes + 2 * sizeof(size_t) + pg - 1) & ~(pg - 1);

	malloc_trim(0);
	if (mmap_at < (128u << 10))
		mmap_at = 128u << 10;	/* glibc's default */
	if (mmap_at > (32u << 20))
		mmap_at = 32u << 20;
	mallopt(M_MMAP_THRESHOLD, (int)mmap_at);
	mallopt(M_TRIM_THRESHOLD, (int)(2 * mmap_at));
}

static int bpf_open(struct nl_bpf *b, const struct nl_bpf_opts *o, char *err, size_t errlen);

int nl_bpf_open(struct nl_bpf *b, const struct nl_bpf_opts *o, char *err, size_t errlen)
{
	struct stat st;
	int r;

	heap_hold();
	r = bpf_open(b, o, err, errlen);
	heap_release(stat(o->btf_path ? o->btf_path : NL_KERNEL_BTF, &st) ? 0 : (size_t)st.st_size);
	return r;
}

/* nl_bpf_open() within heap_hold() and heap_release(). */
static int bpf_open(struct nl_bpf *b, const struct nl_bpf_opts *o, char *err, size_t errlen)
{
	struct nl_load_sizes sz;
	struct btf *btf;
	struct nl_kbtf k;
	int e;

	memset(b, 0, sizeof(*b));
	b->stats_fd = -1;
	verbose = o->verbose;
	libbpf_set_print(print_fn);

	if (nl_bpf_caps_missing()) {
		snprintf(err, errlen, "loading BPF programs needs %s, which this process lacks: run it as root or grant it",
			 nl_bpf_caps_missing());
		return NL_EXIT_PRIV;
	}
	e = nl_bpf_btf_check(o->btf_path, &btf, err, errlen);
	if (e)
		return e;
	e = nl_kbtf_read(&k, btf, o);
	btf__free(btf);
	if (e) {
		snprintf(err, errlen, "cannot read the kernel's BTF (%s)", strerror(-e));
		return NL_EXIT_FAIL;
	}
	e = ensure_fs("tracefs", TRACEFS, TRACEFS_MAGIC);
	if (e) {
		snprintf(err, errlen, "tracefs is not mounted on " TRACEFS " and mounting it failed (%s): run 'mount -t tracefs nodev " TRACEFS "' (in a container: mount the host's " TRACEFS ")",
			 strerror(-e));
		nl_kbtf_free(&k);
		return NL_EXIT_KERNEL;
	}
	e = ensure_fs("bpf", "/sys/fs/bpf", BPFFS_MAGIC);
	if (e)
		nl_load_missing(b, "scx_cling's pinned statistics: bpffs is not mounted on /sys/fs/bpf and mounting it failed (%s)",
			    strerror(-e));

	b->pidns_inum = own_pidns_inum();
	b->nr_cpus = libbpf_num_possible_cpus();
	if (b->nr_cpus <= 0) {
		snprintf(err, errlen, "cannot read the number of possible CPUs (%s)", strerror(-b->nr_cpus));
		nl_kbtf_free(&k);
		return NL_EXIT_FAIL;
	}
	b->nr_nodes = nl_topo_node_possible("/sys");
	if (b->nr_nodes < 1 || b->nr_nodes > NL_MAX_NODES) {
		/* nl_cli_open() has refused more nodes than that already */
		snprintf(err, errlen, "cannot read the possible NUMA nodes from /sys/devices/system/node (%s)",
			 b->nr_nodes < 0 ? strerror(-b->nr_nodes) : "out of range");
		nl_kbtf_free(&k);
		return NL_EXIT_FAIL;
	}
	nl_load_sizes_read(&sz, b->nr_nodes, b->nr_cpus,
			   o->map_budget_bytes ? o->map_budget_bytes : DEFAULT_BUDGET);
	e = o->vmscan_only ? 0 : open_sched(b, o, &k, &sz);
	if (!e && !o->vmscan_only)
		e = open_alloc(b, o, &k, &sz);
	if (!e && !o->vmscan_only)
		e = open_migrate(b, o, &k, &sz);
	if (!e)
		e = nl_load_vmscan(b, o, &k, &sz);
	nl_kbtf_free(&k);
	if (e) {
		snprintf(err, errlen, "cannot open BPF objects (%s)", strerror(-e));
		nl_bpf_close(b);
		return NL_EXIT_FAIL;
	}
	if (!b->have_sched && !b->have_alloc && !b->have_migrate && !b->have_vmscan) {
		snprintf(err, errlen, "no tracepoint numalens needs could be attached: %s", b->missing);
		nl_bpf_close(b);
		return NL_EXIT_KERNEL;
	}
	/* Per-program run time for the self figures, only when asked: the
	 * kernel turns it off again when this fd closes. */
	if (o->self_cost)
		b->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	return NL_EXIT_OK;
}

int nl_bpf_set_pfn_table(struct nl_bpf *b, const struct nl_pfn_range *r, int n)
{
	struct nl_pfn_table t = {};
	unsigned key = 0;

	if (n < 0 || n > NL_MAX_PFN_RANGES)
		return -EINVAL;
	if (!b->alloc)
		return 0;
	t.n = (unsigned)n;
	memcpy(t.r, r, (size_t)n * sizeof(*r));
	if (bpf_map__update_elem(b->alloc->maps.pfn_table, &key, sizeof(key), &t, sizeof(t), 0))
		return -errno;
	return 0;
}

bool nl_bpf_stats_on(const struct nl_bpf *b)
{
	FILE *f;
	int v = 0;

	if (b->stats_fd >= 0)
		return true;
	f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v == 1;
}

int nl_bpf_prog_stats(const struct nl_bpf *b, char names[][64], unsigned long long *run_cnt,
		      unsigned long long *run_time_ns, int max)
{
	struct bpf_object *objs[4] = {
		b->sched ? b->sched->obj : NULL,
		b->alloc ? b->alloc->obj : NULL,
		b->migrate ? b->migrate->obj : NULL,
		b->vmscan ? b->vmscan->obj : NULL,
	};
	int n = 0;

	for (int i = 0; i < 4; i++) {
		struct bpf_program *p;

		if (!objs[i])
			continue;
		bpf_object__for_each_program(p, objs[i]) {
			struct bpf_prog_info info = {};
			__u32 len = sizeof(info);
			int fd = bpf_program__fd(p);

			if (fd < 0 || n >= max)
				continue;
			if (bpf_prog_get_info_by_fd(fd, &info, &len))
				continue;
			snprintf(names[n], 64, "%s", bpf_program__name(p));
			run_cnt[n] = info.run_cnt;
			run_time_ns[n] = info.run_time_ns;
			n++;
		}
	}
	return n;
}

static void add_drops(const struct nl_bpf *b, struct bpf_map *m, unsigned long long drops[NL_NR_DROPS])
{
	unsigned long long vals[b->nr_cpus];

	for (unsigned k = 0; k < NL_NR_DROPS; k++) {
		if (bpf_map__lookup_elem(m, &k, sizeof(k), vals, sizeof(vals), 0))
			continue;
		for (int c = 0; c < b->nr_cpus; c++)
			drops[k] += vals[c];
	}
}

void nl_bpf_drops(const struct nl_bpf *b, unsigned long long drops[NL_NR_DROPS])
{
	memset(drops, 0, sizeof(unsigned long long) * NL_NR_DROPS);
	if (b->sched)
		add_drops(b, b->sched->maps.drops, drops);
	if (b->alloc)
		add_drops(b, b->alloc->maps.drops, drops);
	if (b->migrate)
		add_drops(b, b->migrate->maps.drops, drops);
	if (b->vmscan)
		add_drops(b, b->vmscan->maps.drops, drops);
}

/* Is @p one of the vmscan object's programs? */
static bool vmscan_prog(const struct nl_bpf *b, const struct bpf_program *p)
{
	struct bpf_program *q;

	if (!b->vmscan)
		return false;
	bpf_object__for_each_program(q, b->vmscan->obj)
		if (q == p)
			return true;
	return false;
}

int nl_bpf_pause(struct nl_bpf *b, bool pause)
{
	int e = 0;

	if (pause == b->paused)
		return 0;
	/* the vmscan programs stay attached and return at once (a flag):
	 * detaching and attaching them again patched the kernel's text at
	 * each of their tracepoints, each time */
	if (b->vmscan && b->vmscan->bss)
		b->vmscan->bss->nl_vs_paused = pause;
	for (int i = 0; i < b->nr_links; i++) {
		if (b->vmscan && b->vmscan->bss && vmscan_prog(b, b->link_progs[i]))
			continue;
		if (pause) {
			bpf_link__destroy(b->links[i]);
			b->links[i] = NULL;
		} else if (!b->links[i] && !(b->links[i] = bpf_program__attach(b->link_progs[i])) && !e) {
			e = -errno;
		}
	}
	b->paused = pause;
	return e;
}

void nl_bpf_close(struct nl_bpf *b)
{
	for (int i = 0; i < b->nr_links; i++)
		bpf_link__destroy(b->links[i]);
	b->nr_links = 0;
	nl_exit_names_free(b->exit_names);
	b->exit_names = NULL;
	nl_sched__destroy(b->sched);
	if (b->alloc_slots)
		munmap(b->alloc_slots, b->alloc_slots_len);
	b->alloc_slots = NULL;
	nl_node_exact_unmap(b);
	nl_alloc__destroy(b->alloc);
	nl_migrate__destroy(b->migrate);
	nl_vmscan__destroy(b->vmscan);
	b->vmscan = NULL;
	b->sched = NULL;
	b->alloc = NULL;
	b->migrate = NULL;
	if (b->stats_fd >= 0)
		close(b->stats_fd);
	b->stats_fd = -1;
}
