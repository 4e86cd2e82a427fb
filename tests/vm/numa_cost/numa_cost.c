// SPDX-License-Identifier: GPL-2.0-only
/*
 * numa_cost: a QEMU TCG plugin that makes a guest's memory cost what its
 * NUMA distance says, so that a placement policy's effect on throughput can
 * be measured in an emulated machine (in plain TCG a remote page costs
 * exactly what a local one does).
 *
 * Model. Every guest load and store goes through a small per-vCPU cache of
 * 64-byte lines (physically indexed, set-associative, FIFO within a set). A hit costs nothing
 * extra. A miss to RAM is charged by spinning the vCPU's host thread for
 *     local_ns * SLIT[cpu node][page node] / 10
 * nanoseconds: local misses cost too, so that the emulated memory latency,
 * not TCG's own per-access overhead, sets a memory-bound loop's speed, and
 * its throughput local : near : far then approaches the distances' inverse
 * (10 : 16 : 22 gives 1 : 0.63 : 0.45). The guest's clock is the host's,
 * so the guest sees the time spent.
 *
 * Ground truth. Per vCPU: accesses, cache hits, misses per page node and
 * the nanoseconds charged, written to out= every second and at exit (a
 * whole new file each time, renamed into place, so a reader never sees a
 * half-written one).
 *
 * Arguments (qemu splits -plugin's arguments at commas, so lists use ':'):
 *   cpus=C0:C1:..   vCPUs per node, in node order (0: a memory-only node)
 *   mem=M0:M1:..    MiB of RAM per node, in node order (qemu lays RAM out
 *                   node after node; the pc machine puts what lies beyond
 *                   3 GiB at 4 GiB when there is 3.5 GiB or more)
 *   dist=R0/R1/..   the SLIT, one row per node, ':' between columns
 *                   (default: 10 on the diagonal, 20 elsewhere, qemu's own)
 *   local_ns=N      nanoseconds a local line miss costs (default 500)
 *   cache_kib=K     per-vCPU cache size (default 2048), ways=W (default 16)
 *   out=FILE        where the counts go (default: none)
 * Needs a qemu that returns guest physical addresses from
 * qemu_plugin_hwaddr_phys_addr (qemu 7.2 does not, for guests with one
 * memory backend per node; 10.0 does).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define LINE_SHIFT 6
#define MIB_SHIFT 20
#define LOW_MAX (3584ull << MIB_SHIFT)	/* pc: RAM below 4 GiB when less than this */
#define LOW_SPLIT (3072ull << MIB_SHIFT)	/* else this much below, the rest at 4 GiB */
#define HIGH_BASE (4096ull << MIB_SHIFT)

/* One vCPU's cache and counters. Only that vCPU's thread writes it; the
 * writer thread reads the counters without a lock (a count a moment old is
 * as good as exact for a once-a-second file). */
struct vcpu {
	unsigned node;		/* the node this vCPU belongs to */
	uint64_t last_line;	/* the line of the last access, + 1 (0: none) */
	uint64_t *tags;		/* sets * ways line numbers + 1 (0: empty) */
	uint8_t *next_way;	/* per set: the way the next miss replaces */
	uint64_t accesses, hits, charged_ns;
	uint64_t *miss;		/* misses per page node; [nodes]: not node RAM */
};

static unsigned nr_nodes, nr_vcpus;
static unsigned *cpus_per_node;	/* [nr_nodes] */
static uint64_t *node_mib;	/* [nr_nodes] */
static uint64_t total_bytes, low_bytes;
static uint16_t *node_of_mib;	/* RAM offset >> 20 -> node */
static unsigned *dist;		/* [nr_nodes * nr_nodes] */
static uint64_t local_ns = 500;
static unsigned cache_kib = 2048, ways = 16, set_bits;
static const char *out_path;
static struct vcpu *vcpus;
static uint64_t start_ns;

static pthread_t writer;
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stop_cond = PTHREAD_COND_INITIALIZER;
static bool stopping, writer_started;

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* node_of_pa: the node whose RAM holds guest physical address pa, or
 * nr_nodes for anything else (ROM, the hole below 4 GiB, MMIO). */
static unsigned node_of_pa(uint64_t pa)
{
	uint64_t off;

	if (pa < low_bytes)
		off = pa;
	else if (pa >= HIGH_BASE && pa - HIGH_BASE < total_bytes - low_bytes)
		off = pa - HIGH_BASE + low_bytes;
	else
		return nr_nodes;
	return node_of_mib[off >> MIB_SHIFT];
}

/* lookup: true on a hit in vCPU v's cache; on a miss the line is filled,
 * replacing the set's oldest. The set comes from the physical address'
 * low bits, as in a real physically indexed cache: lines at one offset of
 * many pages share few sets, so a walk that touches one line per page
 * misses as it would on hardware instead of fitting the cache. */
static bool lookup(struct vcpu *v, uint64_t line)
{
	uint64_t set = line & ((1ull << set_bits) - 1);
	uint64_t *t = v->tags + set * ways;

	for (unsigned w = 0; w < ways; w++)
		if (t[w] == line + 1)
			return true;
	t[v->next_way[set]] = line + 1;
	v->next_way[set] = (uint8_t)((v->next_way[set] + 1) % ways);
	return false;
}

static void spin(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void on_mem(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;
	struct vcpu *v;
	uint64_t pa, line;
	unsigned pn;

	(void)udata;
	if (vcpu_index >= nr_vcpus)
		return;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	v = &vcpus[vcpu_index];
	v->accesses++;
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	line = pa >> LINE_SHIFT;
	/* a load and the store back to the same line are one miss at most */
	if (v->last_line == line + 1 || lookup(v, line)) {
		v->last_line = line + 1;
		v->hits++;
		return;
	}
	v->last_line = line + 1;
	pn = node_of_pa(pa);
	v->miss[pn]++;
	if (pn < nr_nodes) {
		uint64_t ns = local_ns * dist[v->node * nr_nodes + pn] / 10;

		v->charged_ns += ns;
		spin(ns);
	}
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++)
		qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), on_mem,
						 QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
}

/* write_counts: the counts to out_path, through a temporary file renamed
 * into place. Called by the writer thread and once at exit. */
static void write_counts(void)
{
	char tmp[4096];
	FILE *f;

	if (!out_path)
		return;
	pthread_mutex_lock(&write_lock);
	snprintf(tmp, sizeof(tmp), "%s.tmp", out_path);
	f = fopen(tmp, "w");
	if (!f)
		goto out;
	fprintf(f, "numa_cost nodes %u vcpus %u local_ns %" PRIu64 " cache_kib %u ways %u seconds %.3f\n",
		nr_nodes, nr_vcpus, local_ns, cache_kib, ways, (now_ns() - start_ns) / 1e9);
	for (unsigned c = 0; c < nr_vcpus; c++) {
		struct vcpu *v = &vcpus[c];
		uint64_t loc = v->miss[v->node], rem = 0;

		for (unsigned n = 0; n < nr_nodes; n++)
			rem += n == v->node ? 0 : v->miss[n];
		fprintf(f, "vcpu %u node %u accesses %" PRIu64 " hits %" PRIu64 " local_miss %" PRIu64
			" remote_miss %" PRIu64 " other_miss %" PRIu64 " charged_ns %" PRIu64 " miss_by_node ",
			c, v->node, v->accesses, v->hits, loc, rem, v->miss[nr_nodes], v->charged_ns);
		for (unsigned n = 0; n < nr_nodes; n++)
			fprintf(f, "%s%" PRIu64, n ? ":" : "", v->miss[n]);
		fputc('\n', f);
	}
	if (fclose(f) == 0)
		rename(tmp, out_path);
out:
	pthread_mutex_unlock(&write_lock);
}

static void *writer_main(void *arg)
{
	struct timespec until;

	(void)arg;
	pthread_mutex_lock(&write_lock);
	while (!stopping) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&stop_cond, &write_lock, &until);
		if (stopping)
			break;
		pthread_mutex_unlock(&write_lock);
		write_counts();
		pthread_mutex_lock(&write_lock);
	}
	pthread_mutex_unlock(&write_lock);
	return NULL;
}

static void on_exit_cb(qemu_plugin_id_t id, void *p)
{
	(void)id;
	(void)p;
	if (writer_started) {
		pthread_mutex_lock(&write_lock);
		stopping = true;
		pthread_cond_signal(&stop_cond);
		pthread_mutex_unlock(&write_lock);
		pthread_join(writer, NULL);
	}
	write_counts();
}

/* parse_list: "a:b:c" into n unsigned values (n set to their count);
 * -1 on anything but digits and colons. */
static int parse_list(const char *s, uint64_t **vals, unsigned *n)
{
	unsigned cnt = 1;
	char *end;

	for (const char *p = s; *p; p++)
		cnt += *p == ':';
	*vals = calloc(cnt, sizeof(**vals));
	if (!*vals)
		return -1;
	for (unsigned i = 0; i < cnt; i++) {
		errno = 0;
		(*vals)[i] = strtoull(s, &end, 10);
		if (end == s || errno || (*end && *end != ':'))
			return -1;
		s = end + (*end == ':');
	}
	*n = cnt;
	return 0;
}

static int fail(const char *what, const char *val)
{
	fprintf(stderr, "numa_cost: bad argument %s='%s' (see the comment at the top of numa_cost.c)\n",
		what, val);
	return -1;
}

static int setup(void)
{
	uint64_t off = 0;
	unsigned c = 0, sets;

	if (!nr_nodes)
		return fail("cpus", "(missing)");
	total_bytes = 0;
	for (unsigned n = 0; n < nr_nodes; n++)
		total_bytes += node_mib[n] << MIB_SHIFT;
	low_bytes = total_bytes < LOW_MAX ? total_bytes : LOW_SPLIT;
	node_of_mib = calloc(total_bytes >> MIB_SHIFT, sizeof(*node_of_mib));
	if (!node_of_mib)
		return -1;
	for (unsigned n = 0; n < nr_nodes; n++)
		for (uint64_t m = 0; m < node_mib[n]; m++)
			node_of_mib[off++] = (uint16_t)n;
	if (!dist) {
		dist = calloc((size_t)nr_nodes * nr_nodes, sizeof(*dist));
		if (!dist)
			return -1;
		for (unsigned i = 0; i < nr_nodes; i++)
			for (unsigned j = 0; j < nr_nodes; j++)
				dist[i * nr_nodes + j] = i == j ? 10 : 20;
	}
	sets = cache_kib * 1024u / 64u / ways;
	if (!ways || ways > 255 || !sets || (sets & (sets - 1)))
		return fail("cache_kib/ways", "(cache_kib * 16 / ways must be a power of two)");
	for (set_bits = 0; (1u << set_bits) < sets; set_bits++)
		;
	nr_vcpus = 0;
	for (unsigned n = 0; n < nr_nodes; n++)
		nr_vcpus += cpus_per_node[n];
	vcpus = calloc(nr_vcpus, sizeof(*vcpus));
	if (!vcpus)
		return -1;
	for (unsigned n = 0; n < nr_nodes; n++)
		for (unsigned k = 0; k < cpus_per_node[n]; k++, c++) {
			vcpus[c].node = n;
			vcpus[c].tags = calloc((size_t)sets * ways, sizeof(uint64_t));
			vcpus[c].next_way = calloc(sets, 1);
			vcpus[c].miss = calloc(nr_nodes + 1, sizeof(uint64_t));
			if (!vcpus[c].tags || !vcpus[c].next_way || !vcpus[c].miss)
				return -1;
		}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	uint64_t *vals;
	unsigned n;

	if (!info->system_emulation) {
		fprintf(stderr, "numa_cost: needs full-system emulation\n");
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		char *key = argv[i], *val = strchr(key, '=');

		if (!val)
			return fail(key, "");
		*val++ = 0;
		if (!strcmp(key, "cpus")) {
			if (parse_list(val, &vals, &n))
				return fail(key, val);
			if (nr_nodes && n != nr_nodes)
				return fail(key, val);
			nr_nodes = n;
			cpus_per_node = calloc(n, sizeof(*cpus_per_node));
			for (unsigned k = 0; k < n; k++)
				cpus_per_node[k] = (unsigned)vals[k];
			free(vals);
		} else if (!strcmp(key, "mem")) {
			if (parse_list(val, &node_mib, &n) || (nr_nodes && n != nr_nodes))
				return fail(key, val);
			nr_nodes = n;
		} else if (!strcmp(key, "dist")) {
			unsigned rows = 1, k = 0;
			char *row, *save = NULL;

			for (char *p = val; *p; p++)
				rows += *p == '/';
			dist = calloc((size_t)rows * rows, sizeof(*dist));
			for (row = strtok_r(val, "/", &save); row; row = strtok_r(NULL, "/", &save)) {
				if (parse_list(row, &vals, &n) || n != rows)
					return fail(key, row);
				for (unsigned j = 0; j < n; j++)
					dist[k * rows + j] = (unsigned)vals[j];
				free(vals);
				k++;
			}
			if (k != rows || (nr_nodes && rows != nr_nodes))
				return fail(key, "(one row per node, as many columns as rows)");
			nr_nodes = rows;
		} else if (!strcmp(key, "local_ns")) {
			local_ns = strtoull(val, NULL, 10);
		} else if (!strcmp(key, "cache_kib")) {
			cache_kib = (unsigned)strtoul(val, NULL, 10);
		} else if (!strcmp(key, "ways")) {
			ways = (unsigned)strtoul(val, NULL, 10);
		} else if (!strcmp(key, "out")) {
			out_path = strdup(val);
		} else {
			return fail(key, val);
		}
	}
	if (!cpus_per_node || !node_mib)
		return fail("cpus and mem", "(both are needed)");
	if (setup())
		return -1;
	start_ns = now_ns();
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
	if (out_path && pthread_create(&writer, NULL, writer_main, NULL) == 0)
		writer_started = true;
	return 0;
}
