/*
 * nlwork: a small static workload for numalens tests (host and VM guest).
 *
 * It pins itself to CPUs, binds its memory to a NUMA node with raw
 * set_mempolicy/mbind syscalls (no libnuma: the guest has none), then
 * allocates and touches anonymous, page-cache and shmem memory and/or spins,
 * in N threads. Optional after-work steps (new CPUs, default policy, a
 * re-walk of the anon memory) let NUMA-balancing tests move a task away
 * from its memory; --passes re-reads the anon and file working set a fixed
 * number of times (reclaim benchmarks, gated by --wait-file so several
 * processes run their passes together). `nlwork --help` lists the options.
 *
 * Output: one line at the end,
 *   nlwork pid=P anon_mib=M touched_pages=T cpu=LIST|- node=N|- ...
 *          cpu_ns=C spin_cpu_ns=S [walked=...]
 * cpu_ns is the CPU time the process really got (CLOCK_PROCESS_CPUTIME_ID,
 * all threads, at exit) and spin_cpu_ns the part its spinners got (each
 * thread's CLOCK_THREAD_CPUTIME_ID across its spin): on a busy host a spin
 * of S wall seconds gets less than S of CPU, so tests compare numalens with
 * these figures, never with the wall time asked for. --spin-cpu spins
 * until each thread has S seconds of its own CPU time instead.
 * Exit: 0 done; 1 a syscall failed (which one and which node is said);
 *       2 bad arguments. Errors are one line on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MPOL_DEFAULT 0
#define MPOL_PREFERRED 1
#define MPOL_BIND 2
#define MPOL_INTERLEAVE 3
#define MASK_LONGS 16 /* 1024 nodes */
#define MAX_THREADS 256

struct opts {
	const char *cpu;       /* --cpu list, NULL = leave affinity alone */
	const char *after_cpu; /* --after-cpu list */
	int node;              /* --node, -1 = no binding */
	int mode;              /* MPOL_BIND, or MPOL_PREFERRED with --preferred */
	int mode_flags;        /* --balancing: MPOL_F_NUMA_BALANCING */
	long anon_mib, file_mib, shmem_mib;
	long sysv_mib;         /* --sysv: touch this much System V shared memory */
	int interleave;        /* --interleave: process policy MPOL_INTERLEAVE over every node */
	int read_only;         /* --read: only read the existing --file-path (read(2)), no write */
	const char *file_path;
	int threads, repeat;
	double spin_s, hold_s, walk_s;
	double life_s;         /* --lifetime: hold the anon memory this long, then munmap it */
	double spin_cpu_s;     /* --spin-cpu: spin until each thread used this much CPU */
	int after_default;
	int pageout;           /* --pageout: MADV_PAGEOUT the anon memory after the work */
	int passes;            /* --passes: re-access anon + file this many times after the work */
	int file_exists;       /* --file-exists: --file names a file already written: no write */
	const char *ready_file;
	const char *wait_file; /* --wait-file: gate before the passes */
	const char *stop_file; /* --stop-file: ends the --walk early once it exists */
	const char *comm;      /* --comm: the process name to set */
	int access_stats;      /* --access-stats: count walked pages on another node */
	int page_nodes;        /* --page-nodes: say where the kept anon pages are */
	int split_node;        /* --split N:PCT: the last PCT% of each anon mapping on N */
	double split_pct;
	long stride;           /* --stride: the walk's step in bytes (default a page) */
	double nap_s;          /* --nap: sleep this long after each pass of the walk */
};

static struct opts o = { .node = -1, .mode = MPOL_BIND, .threads = 1, .repeat = 1, .split_node = -1 };
static long page_sz;
static long touched_pages; /* summed by threads under lock */
/* --lifetime: the shortest and longest life any anon page can have had,
 * as measured here (CLOCK_MONOTONIC): munmap start - touch end, and
 * munmap end - touch start, over the threads */
static long long life_min_ns = -1, life_max_ns;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *keep_anon[MAX_THREADS]; /* each thread's last anon slice */
static size_t keep_len[MAX_THREADS];
static unsigned long walked[MAX_THREADS]; /* pages rewritten by each thread's --walk */
/* Set by the main thread once --stop-file exists: the walkers end their pass
 * and stop (a test then knows the work ran for all of its window). */
static int walk_stop;
static long long spin_cpu_ns[MAX_THREADS]; /* CPU time each thread got while spinning, ns */
/* --access-stats: of walked[], the pages that sat on another node than the
 * CPU the thread ran on during that pass */
static unsigned long walked_remote[MAX_THREADS];
/* --access-stats with --node: of walked[], the pages rewritten while the
 * thread ran on a CPU of that node (its memory's first node, "home") */
static unsigned long walked_home[MAX_THREADS];
/* --walk: each thread's own CPU time during its walk (ns), so that work can
 * be set against the CPU it got rather than the wall time */
static long long walk_cpu_ns[MAX_THREADS];
/* --access-stats: pages rewritten by (node of the walking CPU, node of the
 * page), summed over the threads (under lock, at the end of each walk);
 * pages whose node move_pages could not tell are left out. Nodes seen:
 * matrix_nodes = the highest node id seen + 1. */
#define MATRIX_NODES 64
static unsigned long walked_matrix[MATRIX_NODES][MATRIX_NODES];
static int matrix_nodes;
/* With --walk the workers stay alive: after the work they wait at
 * work_done, main does the after-work steps, then all pass after_done and
 * the workers walk their own slices (the process stays multi-threaded,
 * which NUMA balancing treats differently from a single thread). */
static pthread_barrier_t work_done, after_done;

/* die: print "nlwork: <msg>" and exit with code. */
static void die(int code, const char *fmt, ...)
{
	va_list ap;
	fputs("nlwork: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

/* now_s: CLOCK_MONOTONIC in seconds. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* clock_ns: clock id's time in ns (thread or process CPU clocks here). */
static long long clock_ns(clockid_t id)
{
	struct timespec ts;
	if (clock_gettime(id, &ts))
		die(1, "clock_gettime(%d): %s", (int)id, strerror(errno));
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* spin: busy-loop until wall_s seconds of wall time pass (when > 0) and
 * until the calling thread has used cpu_s seconds of CPU (when > 0); return
 * the thread CPU time it used, ns. A --spin-cpu that cannot get its CPU time
 * (a stopped or starved thread) gives up after max(120 s, 100 x cpu_s) of
 * wall time; its output still says what it got. */
static long long spin(double wall_s, double cpu_s)
{
	long long c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), want = (long long)(cpu_s * 1e9);
	double t0 = now_s(), cap = cpu_s * 100 > 120 ? cpu_s * 100 : 120;
	volatile unsigned long x = 0;

	for (;;) {
		for (int i = 0; i < 10000; i++)
			x += i;
		double t = now_s();
		if (wall_s > 0 && t < t0 + wall_s)
			continue;
		if (cpu_s > 0 && clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0 < want && t < t0 + cap)
			continue;
		break;
	}
	return clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
}

/* parse_cpus: fill set from "1", "0-1" or "0,2-3"; return 0 or -1 on bad text. */
static int parse_cpus(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;
		if (end == s || a < 0 || a >= CPU_SETSIZE)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b >= CPU_SETSIZE)
				return -1;
		}
		for (long c = a; c <= b; c++)
			CPU_SET(c, set);
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return CPU_COUNT(set) ? 0 : -1;
}

/* pin: set the affinity of the whole process (threads inherit) to list. */
static void pin(const char *list)
{
	cpu_set_t set;
	if (parse_cpus(list, &set))
		die(2, "bad CPU list '%s'", list);
	if (sched_setaffinity(0, sizeof(set), &set))
		die(1, "sched_setaffinity(%s): %s", list, strerror(errno));
}

/* bind_region: MPOL_BIND [p, p+len) to o.node, or MPOL_DEFAULT when node < 0. */
static void bind_region(void *p, size_t len, int node)
{
	unsigned long mask[MASK_LONGS] = { 0 };
	if (node < 0) {
		if (syscall(SYS_mbind, p, len, MPOL_DEFAULT, NULL, 0, 0))
			die(1, "mbind(MPOL_DEFAULT): %s", strerror(errno));
		return;
	}
	mask[node / 64] = 1UL << (node % 64);
	if (syscall(SYS_mbind, p, len, o.mode | o.mode_flags, mask, MASK_LONGS * 64, 0))
		die(1, "mbind(%s, node %d): %s", o.mode == MPOL_BIND ? "MPOL_BIND" : "MPOL_PREFERRED",
		    node, strerror(errno));
}

/* set_policy: process policy MPOL_BIND to node, or MPOL_DEFAULT when node < 0. */
static void set_policy(int node)
{
	unsigned long mask[MASK_LONGS] = { 0 };
	if (node < 0) {
		if (syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0))
			die(1, "set_mempolicy(MPOL_DEFAULT): %s", strerror(errno));
		return;
	}
	mask[node / 64] = 1UL << (node % 64);
	if (syscall(SYS_set_mempolicy, o.mode | o.mode_flags, mask, MASK_LONGS * 64))
		die(1, "set_mempolicy(%s, node %d): %s", o.mode == MPOL_BIND ? "MPOL_BIND" : "MPOL_PREFERRED",
		    node, strerror(errno));
}

/* map_touch: mmap len bytes (flags), bind them, write every page; return the
 * mapping and add the pages to touched_pages. */
static char *map_touch(size_t len, int flags)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED)
		die(1, "mmap(%zu bytes): %s", len, strerror(errno));
	if (o.node >= 0 && o.split_node >= 0 && (flags & MAP_ANONYMOUS) && !(flags & MAP_SHARED)) {
		/* --split: whole pages, the remote part at the end */
		size_t far = (size_t)((double)(len / page_sz) * o.split_pct / 100.0 + 0.5) * page_sz;

		if (len - far)
			bind_region(p, len - far, o.node);
		if (far)
			bind_region(p + len - far, far, o.split_node);
	} else if (o.node >= 0)
		bind_region(p, len, o.node);
	for (size_t off = 0; off < len; off += page_sz)
		p[off] = (char)(off / page_sz + 1);
	pthread_mutex_lock(&lock);
	touched_pages += len / page_sz;
	pthread_mutex_unlock(&lock);
	return p;
}

/* page_nodes: the node of each of the n pages at p (move_pages with no
 * target nodes only queries), into nodes[]; -1 where unknown. */
static void page_nodes(char *p, size_t n, void **addr, int *nodes)
{
	for (size_t i = 0; i < n; i++)
		addr[i] = p + i * page_sz;
	if (syscall(SYS_move_pages, 0, n, addr, NULL, nodes, 0))
		for (size_t i = 0; i < n; i++)
			nodes[i] = -1;
}

/* count_anon_nodes: the kept anon pages of every thread by node, into
 * per_node[MATRIX_NODES] (move_pages only asks); return the highest node
 * seen + 1. Pages move_pages cannot place (not present, an error) are left
 * out, so the sum may be below touched_pages. */
static int count_anon_nodes(unsigned long *per_node)
{
	int seen = 0;

	for (int t = 0; t < o.threads; t++) {
		size_t n = keep_len[t] / page_sz;
		void **addr = malloc(n * sizeof(*addr) + 1);
		int *nodes = malloc(n * sizeof(*nodes) + 1);

		if (!addr || !nodes)
			die(1, "out of memory for --page-nodes");
		page_nodes(keep_anon[t], n, addr, nodes);
		for (size_t i = 0; i < n; i++)
			if (nodes[i] >= 0 && nodes[i] < MATRIX_NODES) {
				per_node[nodes[i]]++;
				if (nodes[i] >= seen)
					seen = nodes[i] + 1;
			}
		free(addr);
		free(nodes);
	}
	return seen;
}

/* walk: rewrite every page of thread id's kept anon slice until secs pass.
 * With --access-stats each pass also counts the pages that are not on the
 * node of the CPU the pass started on (getcpu), and adds the pass' pages to
 * the (CPU node, page node) matrix; the pages' nodes are asked again every
 * 0.5 s (NUMA balancing may move them), not per pass, so the counting
 * costs little beside the writes. */
static void walk(long id, double secs)
{
	double end = now_s() + secs, asked = 0;
	long long cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	size_t n = keep_len[id] / page_sz;
	void **addr = NULL;
	int *nodes = NULL;
	unsigned cpu, node;
	/* this thread's matrix, and its pages per node as last asked */
	static __thread unsigned long mine[MATRIX_NODES][MATRIX_NODES], per_node[MATRIX_NODES];
	int seen = 0;

	if (o.access_stats && n) {
		addr = malloc(n * sizeof(*addr));
		nodes = malloc(n * sizeof(*nodes));
		if (!addr || !nodes)
			die(1, "out of memory for --access-stats");
	}
	while (now_s() < end && !__atomic_load_n(&walk_stop, __ATOMIC_RELAXED)) {
		if (nodes && now_s() - asked >= 0.5) {
			page_nodes(keep_anon[id], n, addr, nodes);
			asked = now_s();
			memset(per_node, 0, sizeof(per_node));
			for (size_t i = 0; i < n; i++)
				if (nodes[i] >= 0 && nodes[i] < MATRIX_NODES) {
					per_node[nodes[i]]++;
					if (nodes[i] >= seen)
						seen = nodes[i] + 1;
				}
		}
		if (nodes && syscall(SYS_getcpu, &cpu, &node, NULL))
			die(1, "getcpu: %s", strerror(errno));
		for (size_t off = 0; off < keep_len[id]; off += (size_t)o.stride)
			keep_anon[id][off]++;
		walked[id] += n;
		if (nodes && o.node >= 0 && node == (unsigned)o.node)
			walked_home[id] += n;
		if (nodes)
			for (size_t i = 0; i < n; i++)
				walked_remote[id] += nodes[i] >= 0 && (unsigned)nodes[i] != node;
		if (nodes && node < MATRIX_NODES) {
			for (int k = 0; k < seen; k++)
				mine[node][k] += per_node[k];
			if ((int)node >= seen)
				seen = (int)node + 1;
		}
		if (o.nap_s > 0) {
			struct timespec ts = { (time_t)o.nap_s, (long)((o.nap_s - (time_t)o.nap_s) * 1e9) };

			nanosleep(&ts, NULL);
		}
	}
	walk_cpu_ns[id] = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	if (nodes) {
		pthread_mutex_lock(&lock);
		for (int c = 0; c < seen; c++)
			for (int k = 0; k < seen; k++)
				walked_matrix[c][k] += mine[c][k];
		if (seen > matrix_nodes)
			matrix_nodes = seen;
		pthread_mutex_unlock(&lock);
	}
	free(addr);
	free(nodes);
}

/* worker: one thread's share of the anon touch (o.repeat times) then spin. */
static void *worker(void *arg)
{
	long id = (long)arg;
	size_t pages = (size_t)o.anon_mib * (1 << 20) / page_sz;
	size_t mine = pages / o.threads + ((size_t)id < pages % o.threads);
	size_t len = mine * page_sz;

	for (int r = 0; len && r < o.repeat; r++) {
		long long t0 = clock_ns(CLOCK_MONOTONIC);
		char *p = map_touch(len, MAP_PRIVATE | MAP_ANONYMOUS);
		if (o.life_s > 0) {
			long long t1 = clock_ns(CLOCK_MONOTONIC), t2, t3;
			struct timespec ts = { (time_t)o.life_s,
					       (long)((o.life_s - (time_t)o.life_s) * 1e9) };

			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
			t2 = clock_ns(CLOCK_MONOTONIC);
			munmap(p, len);
			t3 = clock_ns(CLOCK_MONOTONIC);
			pthread_mutex_lock(&lock);
			if (life_min_ns < 0 || t2 - t1 < life_min_ns)
				life_min_ns = t2 - t1;
			if (t3 - t0 > life_max_ns)
				life_max_ns = t3 - t0;
			pthread_mutex_unlock(&lock);
			continue;
		}
		if (r + 1 < o.repeat)
			munmap(p, len);
		else
			keep_anon[id] = p, keep_len[id] = len;
	}
	if (o.spin_s > 0 || o.spin_cpu_s > 0)
		spin_cpu_ns[id] = spin(o.spin_s, o.spin_cpu_s);
	if (o.walk_s > 0) {
		pthread_barrier_wait(&work_done);
		pthread_barrier_wait(&after_done);
		if (o.after_cpu)
			pin(o.after_cpu); /* affinity is per thread */
		if (o.after_default)
			set_policy(-1); /* and so is the task mempolicy */
		walk(id, o.walk_s);
	}
	return NULL;
}

/* file_work: write then read back o.file_mib MiB at o.file_path (with
 * --read: only read it, as it is). */
static void file_work(void)
{
	static char buf[1 << 20];
	int fd = open(o.file_path, o.read_only ? O_RDONLY : O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(1, "open(%s): %s", o.file_path, strerror(errno));
	if (o.read_only) {
		for (long i = 0; i < o.file_mib; i++)
			if (read(fd, buf, sizeof(buf)) < 0)
				die(1, "read(%s): %s", o.file_path, strerror(errno));
		close(fd);
		return;
	}
	memset(buf, 'n', sizeof(buf));
	for (long i = 0; i < o.file_mib; i++)
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			die(1, "write(%s): %s", o.file_path, strerror(errno));
	if (lseek(fd, 0, SEEK_SET) < 0)
		die(1, "lseek(%s): %s", o.file_path, strerror(errno));
	for (long i = 0; i < o.file_mib; i++)
		if (read(fd, buf, sizeof(buf)) < 0)
			die(1, "read(%s): %s", o.file_path, strerror(errno));
	close(fd);
}

/* passes: o.passes rounds of rewriting every kept anon page and reading one
 * byte of every page of the --file through a read-only shared mapping, so
 * that pages reclaimed since the last round fault back in (major faults:
 * swap-in for anon, disk read for file) as in a build re-reading its
 * headers while its compilers keep their heaps hot. */
static void passes(void)
{
	char *f = NULL;
	size_t flen = (size_t)o.file_mib << 20;
	volatile unsigned long sum = 0;

	if (flen) {
		int fd = open(o.file_path, O_RDONLY);
		if (fd < 0)
			die(1, "open(%s): %s", o.file_path, strerror(errno));
		f = mmap(NULL, flen, PROT_READ, MAP_SHARED, fd, 0);
		if (f == MAP_FAILED)
			die(1, "mmap(%s): %s", o.file_path, strerror(errno));
		close(fd);
	}
	for (int r = 0; r < o.passes; r++) {
		for (int t = 0; t < o.threads; t++)
			for (size_t off = 0; off < keep_len[t]; off += page_sz)
				keep_anon[t][off]++;
		for (size_t off = 0; off < flen; off += page_sz)
			sum += (unsigned char)f[off];
	}
	if (f && o.hold_s <= 0)	/* with --hold the file stays mapped */
		munmap(f, flen);
}

/* write_ready: write "ready\n" to --ready-file, once. */
static void write_ready(void)
{
	static int done;
	FILE *f;

	if (!o.ready_file || done)
		return;
	f = fopen(o.ready_file, "w");
	if (!f || fputs("ready\n", f) < 0 || fclose(f))
		die(1, "cannot write ready file %s: %s", o.ready_file, strerror(errno));
	done = 1;
}

/* wait_file: poll every 10 ms until --wait-file exists; exit 1 after 600 s,
 * so a forgotten gate cannot hang a test. Lets several processes start
 * their passes together, each one's work done. */
static void wait_file(void)
{
	double end = now_s() + 600;
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	while (access(o.wait_file, F_OK)) {
		if (now_s() > end)
			die(1, "--wait-file %s: still missing after 600 s", o.wait_file);
		nanosleep(&ts, NULL);
	}
}

static void usage(FILE *f)
{
	fputs("usage: nlwork [options]\n"
	      "  --cpu LIST        pin to these CPUs (\"1\", \"0-1\", \"0,2-3\")\n"
	      "  --node N          bind memory to node N (MPOL_BIND) before allocating\n"
	      "  --preferred       with --node: prefer node N (MPOL_PREFERRED) instead of binding\n"
	      "  --anon MIB        allocate and write every page of MIB anonymous memory\n"
	      "  --file MIB        write then read a file of MIB (page cache); needs --file-path\n"
	      "  --file-path P     the file for --file\n"
	      "  --file-exists     the --file-path file is already written (clean page cache,\n"
	      "                    e.g. synced outside a memcg limit): only map it (--passes)\n"
	      "  --shmem MIB       touch MIB of MAP_SHARED|MAP_ANONYMOUS memory\n"
	      "  --sysv MIB        touch MIB of System V shared memory (shmget, removed at exit)\n"
	      "  --interleave      process policy MPOL_INTERLEAVE over every node with memory\n"
	      "  --read            with --file and --file-path: only read that file (read(2))\n"
	      "  --threads N       run the work (anon touch, spin) in N threads (anon split)\n"
	      "  --spin SECONDS    busy-loop for SECONDS of wall time (per thread)\n"
	      "  --spin-cpu SECONDS busy-loop until each thread used SECONDS of its own CPU\n"
	      "                    time (with --spin: both); spin_cpu_ns= says what it got\n"
	      "  --repeat N        touch the anon memory N times (munmap + mmap again)\n"
	      "  --ready-file P    write \"ready\\n\" to P once the work (and --after-*) is done\n"
	      "  --after-cpu LIST  after the work, move to these CPUs\n"
	      "  --after-default   after the work, reset the process and anon policy to default\n"
	      "  --pageout         after the work, madvise(MADV_PAGEOUT) the anon memory\n"
	      "  --passes N        after the work, N times: rewrite every anon page, then read\n"
	      "                    every page of the --file through a read-only mapping\n"
	      "                    (which stays mapped during --hold)\n"
	      "  --wait-file P     with --passes or --walk: write the --ready-file, then wait\n"
	      "                    until P exists before the passes or the walk (start\n"
	      "                    several processes together)\n"
	      "  --stop-file P     with --walk: stop walking once P exists (at most SECONDS);\n"
	      "                    a test that measures a window while the walk runs\n"
	      "                    creates P after the window, however slow the host\n"
	      "  --walk SECONDS    after the ready file, each thread rewrites its anon pages\n"
	      "                    for SECONDS (threads stay alive: use --threads 2 to keep\n"
	      "                    the process multi-threaded); the output line then ends\n"
	      "                    with walked=P1,P2,... (pages rewritten per thread)\n"
	      "  --access-stats    with --walk: also count the rewritten pages that sat on\n"
	      "                    another node than the thread's CPU (move_pages, getcpu):\n"
	      "                    the output line then ends with walked_remote=R1,R2,...\n"
	      "                    and, with --node, walked_home=H1,H2,... (pages rewritten\n"
	      "                    while on a CPU of that node)\n"
	      "                    and walked_matrix=R0/R1/..., row c = the pages rewritten\n"
	      "                    on a CPU of node c, column p = those on node p\n"
	      "  --split N:PCT     with --node: bind the last PCT% of each private anon\n"
	      "                    mapping (whole pages) to node N instead (a walker whose\n"
	      "                    memory is part local, part remote, in a known share)\n"
	      "  --balancing       with --node: bind with MPOL_F_NUMA_BALANCING, so NUMA\n"
	      "                    balancing scans the bound memory (hinting faults, fault\n"
	      "                    locality) yet cannot move it off the bound node\n"
	      "  --nap SECONDS     with --walk: sleep SECONDS after each pass (a task that\n"
	      "                    wakes often); walk_cpu_ns= says the CPU the walks got\n"
	      "  --stride BYTES    with --walk: rewrite one byte every BYTES (default a page;\n"
	      "                    64 touches every cache line); walked= still counts pages\n"
	      "  --page-nodes      after the work, ask where the kept anon pages are\n"
	      "                    (move_pages): the output line then ends with\n"
	      "                    anon_nodes=N0,N1,... (pages on node 0, 1, ...)\n"
	      "  --lifetime SECONDS after touching the anon memory, keep it SECONDS, then\n"
	      "                    munmap it (each --repeat); the output line then has\n"
	      "                    life_min_ns= and life_max_ns=, the shortest and longest\n"
	      "                    life a page can have had, as measured (CLOCK_MONOTONIC)\n"
	      "  --hold SECONDS    then sleep SECONDS with the memory still mapped\n"
	      "  --comm BYTES      prctl(PR_SET_NAME) to these bytes first, any bytes (the\n"
	      "                    kernel keeps 15)\n"
	      "  --help            this text\n"
	      "Prints 'nlwork pid=.. anon_mib=.. touched_pages=.. cpu=.. node=.. ...\n"
	      "cpu_ns=.. spin_cpu_ns=..' at the end: cpu_ns is the CPU time the process got\n"
	      "(all threads), spin_cpu_ns the part its spinners got; compare with these,\n"
	      "not with --spin, on a busy host.\n"
	      "Exit 0 ok, 1 a syscall failed, 2 bad arguments.\n", f);
}

/* num: parse a non-negative number for option name, or exit 2. */
static double num(const char *name, const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || v < 0)
		die(2, "--%s wants a non-negative number, got '%s'", name, s);
	return v;
}

static void parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "cpu", 1, 0, 'c' }, { "node", 1, 0, 'n' }, { "anon", 1, 0, 'a' },
		{ "file", 1, 0, 'f' }, { "file-path", 1, 0, 'F' }, { "shmem", 1, 0, 's' },
		{ "threads", 1, 0, 't' }, { "spin", 1, 0, 'S' }, { "hold", 1, 0, 'H' },
		{ "lifetime", 1, 0, 'L' }, { "sysv", 1, 0, 'V' }, { "interleave", 0, 0, 'I' },
		{ "read", 0, 0, 'B' },
		{ "spin-cpu", 1, 0, 'C' },
		{ "repeat", 1, 0, 'r' }, { "ready-file", 1, 0, 'R' },
		{ "after-cpu", 1, 0, 'A' }, { "after-default", 0, 0, 'D' },
		{ "walk", 1, 0, 'W' }, { "pageout", 0, 0, 'P' }, { "passes", 1, 0, 'p' },
		{ "wait-file", 1, 0, 'w' }, { "stop-file", 1, 0, 'Z' }, { "file-exists", 0, 0, 'E' }, { "comm", 1, 0, 'N' },
		{ "split", 1, 0, 'x' }, { "nap", 1, 0, 'z' }, { "balancing", 0, 0, 'b' }, { "stride", 1, 0, 'e' },
		{ "access-stats", 0, 0, 'X' }, { "preferred", 0, 0, 'M' }, { "page-nodes", 0, 0, 'G' }, { "help", 0, 0, 'h' }, { 0 }
	};
	int c;
	cpu_set_t set;

	opterr = 0; /* our own one-line message below */
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'c': o.cpu = optarg; break;
		case 'n': o.node = (int)num("node", optarg); break;
		case 'M': o.mode = MPOL_PREFERRED; break;
		case 'a': o.anon_mib = (long)num("anon", optarg); break;
		case 'f': o.file_mib = (long)num("file", optarg); break;
		case 'F': o.file_path = optarg; break;
		case 's': o.shmem_mib = (long)num("shmem", optarg); break;
		case 't': o.threads = (int)num("threads", optarg); break;
		case 'S': o.spin_s = num("spin", optarg); break;
		case 'C': o.spin_cpu_s = num("spin-cpu", optarg); break;
		case 'H': o.hold_s = num("hold", optarg); break;
		case 'L': o.life_s = num("lifetime", optarg); break;
		case 'V': o.sysv_mib = (long)num("sysv", optarg); break;
		case 'I': o.interleave = 1; break;
		case 'B': o.read_only = 1; break;
		case 'r': o.repeat = (int)num("repeat", optarg); break;
		case 'R': o.ready_file = optarg; break;
		case 'A': o.after_cpu = optarg; break;
		case 'D': o.after_default = 1; break;
		case 'W': o.walk_s = num("walk", optarg); break;
		case 'P': o.pageout = 1; break;
		case 'X': o.access_stats = 1; break;
		case 'G': o.page_nodes = 1; break;
		case 'E': o.file_exists = 1; break;
		case 'w': o.wait_file = optarg; break;
		case 'Z': o.stop_file = optarg; break;
		case 'p': o.passes = (int)num("passes", optarg); break;
		case 'N': o.comm = optarg; break;
		case 'x': {
			char *colon = strchr(optarg, ':');

			if (!colon)
				die(2, "--split wants NODE:PERCENT, got '%s'", optarg);
			*colon = 0;
			o.split_node = (int)num("split", optarg);
			o.split_pct = num("split", colon + 1);
			if (o.split_pct > 100 || o.split_node >= MASK_LONGS * 64 - 1)
				die(2, "--split wants NODE:PERCENT with PERCENT <= 100");
			break;
		}
		case 'b': o.mode_flags = 1 << 13; break; /* MPOL_F_NUMA_BALANCING */
		case 'z': o.nap_s = num("nap", optarg); break;
		case 'e': o.stride = (long)num("stride", optarg); break;
		case 'h': usage(stdout); exit(0);
		default: die(2, "bad or incomplete option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(2, "unexpected argument '%s' (see --help)", argv[optind]);
	if (o.threads < 1 || o.threads > MAX_THREADS)
		die(2, "--threads must be 1..%d", MAX_THREADS);
	if (o.repeat < 1)
		die(2, "--repeat must be >= 1");
	if (o.node >= MASK_LONGS * 64 - 1)
		die(2, "--node %d is out of range", o.node);
	if (o.file_mib && !o.file_path)
		die(2, "--file needs --file-path");
	if (o.mode_flags && (o.node < 0 || o.mode != MPOL_BIND))
		die(2, "--balancing needs --node (and not --preferred)");
	if (o.split_node >= 0 && o.node < 0)
		die(2, "--split needs --node (the local part's node)");
	if (o.stride == 0)
		o.stride = page_sz;
	if (o.cpu && parse_cpus(o.cpu, &set))
		die(2, "bad --cpu list '%s'", o.cpu);
	if (o.after_cpu && parse_cpus(o.after_cpu, &set))
		die(2, "bad --after-cpu list '%s'", o.after_cpu);
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	char *shm = NULL;

	page_sz = sysconf(_SC_PAGESIZE);
	parse(argc, argv);
	/* before the threads: they inherit the name */
	if (o.comm && prctl(PR_SET_NAME, o.comm))
		die(1, "prctl(PR_SET_NAME): %s", strerror(errno));
	if (o.cpu)
		pin(o.cpu);
	if (o.node >= 0)
		set_policy(o.node);
	if (o.interleave) {
		/* every bit: the kernel keeps the nodes that have memory */
		unsigned long mask[MASK_LONGS];

		memset(mask, 0xff, sizeof(mask));
		if (syscall(SYS_set_mempolicy, MPOL_INTERLEAVE, mask, MASK_LONGS * 64))
			die(1, "set_mempolicy(MPOL_INTERLEAVE): %s", strerror(errno));
	}

	pthread_barrier_init(&work_done, NULL, o.threads + 1);
	pthread_barrier_init(&after_done, NULL, o.threads + 1);
	for (long i = 0; i < o.threads; i++)
		if ((errno = pthread_create(&th[i], NULL, worker, (void *)i)))
			die(1, "pthread_create: %s", strerror(errno));
	if (o.walk_s > 0)
		pthread_barrier_wait(&work_done);
	else
		for (int i = 0; i < o.threads; i++)
			pthread_join(th[i], NULL);
	if (o.file_mib && !o.file_exists)
		file_work();
	if (o.shmem_mib)
		shm = map_touch((size_t)o.shmem_mib << 20, MAP_SHARED | MAP_ANONYMOUS);
	if (o.sysv_mib) {
		size_t len = (size_t)o.sysv_mib << 20;
		int id = shmget(IPC_PRIVATE, len, IPC_CREAT | 0600);
		char *p = id < 0 ? (char *)-1 : shmat(id, NULL, 0);

		if (p == (char *)-1)
			die(1, "shmget/shmat(%zu bytes): %s", len, strerror(errno));
		shmctl(id, IPC_RMID, NULL);	/* freed once detached (at exit) */
		if (o.node >= 0)
			bind_region(p, len, o.node);
		for (size_t off = 0; off < len; off += page_sz)
			p[off] = 1;
		touched_pages += len / page_sz;
	}

	if (o.after_cpu)
		pin(o.after_cpu);
	if (o.after_default) {
		set_policy(-1);
		for (int t = 0; t < o.threads; t++)
			if (keep_len[t])
				bind_region(keep_anon[t], keep_len[t], -1);
	}
	if (o.passes) {
		if (o.wait_file) {
			write_ready();
			wait_file();
		}
		passes();
	}
	if (o.pageout)
		for (int t = 0; t < o.threads; t++)
			if (keep_len[t] && madvise(keep_anon[t], keep_len[t], 21 /* MADV_PAGEOUT */))
				die(1, "madvise(MADV_PAGEOUT): %s", strerror(errno));
	/* asked before the ready file: a test may change the memory afterwards */
	unsigned long anon_nodes[MATRIX_NODES] = { 0 };
	int anon_seen = o.page_nodes ? count_anon_nodes(anon_nodes) : 0;

	write_ready();
	if (o.walk_s > 0) {
		/* Several processes walk at once only if they start at once:
		 * started one after another on a slow guest, the first walked
		 * for seconds beside idle nodes. */
		if (o.wait_file)
			wait_file();
		pthread_barrier_wait(&after_done);
		if (o.stop_file) {
			/* poll every 500 ms while the walkers run (never past --walk): the
			 * main thread shares their CPUs, so it wakes seldom */
			double end = now_s() + o.walk_s;
			struct timespec ts = { 0, 500 * 1000 * 1000 };

			while (now_s() < end && access(o.stop_file, F_OK))
				nanosleep(&ts, NULL);
			__atomic_store_n(&walk_stop, 1, __ATOMIC_RELAXED);
		}
		for (int i = 0; i < o.threads; i++)
			pthread_join(th[i], NULL);
	}
	if (o.hold_s > 0) {
		struct timespec ts = { (time_t)o.hold_s,
				       (long)((o.hold_s - (time_t)o.hold_s) * 1e9) };
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	(void)shm;
	printf("nlwork pid=%d anon_mib=%ld touched_pages=%ld cpu=%s node=",
	       (int)getpid(), o.anon_mib, touched_pages, o.cpu ? o.cpu : "-");
	if (o.node >= 0)
		printf("%d", o.node);
	else
		fputs("-", stdout);
	printf(" threads=%d repeat=%d file_mib=%ld shmem_mib=%ld spin_s=%g",
	       o.threads, o.repeat, o.file_mib, o.shmem_mib, o.spin_s);
	if (o.passes)
		printf(" passes=%d", o.passes);
	long long spun = 0;
	for (int t = 0; t < o.threads; t++)
		spun += spin_cpu_ns[t];
	printf(" cpu_ns=%lld spin_cpu_ns=%lld", clock_ns(CLOCK_PROCESS_CPUTIME_ID), spun);
	if (o.life_s > 0)
		printf(" life_min_ns=%lld life_max_ns=%lld", life_min_ns, life_max_ns);
	/* Work done per thread, for throughput and fairness ratios. */
	if (o.walk_s > 0)
		for (int t = 0; t < o.threads; t++)
			printf("%s%lu", t ? "," : " walked=", walked[t]);
	if (o.walk_s > 0)
		for (int t = 0; t < o.threads; t++)
			printf("%s%lld", t ? "," : " walk_cpu_ns=", walk_cpu_ns[t]);
	if (o.walk_s > 0 && o.access_stats)
		for (int t = 0; t < o.threads; t++)
			printf("%s%lu", t ? "," : " walked_remote=", walked_remote[t]);
	if (o.walk_s > 0 && o.access_stats && o.node >= 0)
		for (int t = 0; t < o.threads; t++)
			printf("%s%lu", t ? "," : " walked_home=", walked_home[t]);
	if (o.page_nodes)
		for (int k = 0; k < (anon_seen ? anon_seen : 1); k++)
			printf("%s%lu", k ? "," : " anon_nodes=", anon_nodes[k]);
	if (o.walk_s > 0 && o.access_stats) {
		fputs(" walked_matrix=", stdout);
		for (int c = 0; c < matrix_nodes; c++)
			for (int k = 0; k < matrix_nodes; k++)
				printf("%lu%s", walked_matrix[c][k], k + 1 < matrix_nodes ? "," : c + 1 < matrix_nodes ? "/" : "");
		if (!matrix_nodes)
			putchar('-');
	}
	putchar('\n');
	return 0;
}
