/*
 * nlchurn: process and cgroup churn for the export soak test, and a reader
 * of another process's BPF map fill.
 *
 *   nlchurn --cgroup DIR [--secs S] [--rate N] [--period S] [--kib K]
 *     Forks N short-lived children a second (default 100). Each moves itself
 *     into the current child cgroup DIR/c<seq>, touches K KiB of anonymous
 *     memory (default 128), unmaps it and exits. Every --period seconds
 *     (default 0.25) a new child cgroup is made and the previous one is
 *     removed once its children are gone. DIR must exist (the caller owns
 *     it); every cgroup made under it is removed again at the end, also on
 *     SIGTERM/SIGINT. A fork missed because the host was too busy to keep
 *     the schedule is skipped, never made up in a burst.
 *     Output, one line at the end:
 *       nlchurn forks=F skipped=S cgroups_made=M cgroups_removed=R
 *               rmdir_retries=X left=L cpu_ns=C children_cpu_ns=D
 *     (cpu_ns: this process; children_cpu_ns: its reaped children).
 *
 *   nlchurn --map-fill PID
 *     For each hash-type BPF map PID holds an fd of (found through
 *     /proc/PID/fdinfo), the number of keys it holds now and its size, one
 *     line:  total=T maps=name:entries/max,name:entries/max,...
 *     (array maps are left out: they are full by construction). Keys are
 *     walked with BPF_MAP_GET_NEXT_KEY only, no values are read, so the walk
 *     is cheap next to a dump.
 *
 * Exit: 0 done; 1 a syscall failed (said on stderr); 2 bad arguments.
 * Raw syscalls only (no libbpf), like the other workloads: linked static.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PENDING 4096 /* removed-but-busy cgroups waiting for rmdir */
#define MAX_KIDS 4096    /* children forked and not reaped yet */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t tv_ns(struct timeval t)
{
	return (int64_t)t.tv_sec * 1000000000 + (int64_t)t.tv_usec * 1000;
}

/* child: join the cgroup, touch kib KiB, leave; never returns */
static void child(const char *cg, long kib)
{
	char path[4200], pid[32];
	int fd, n;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, pid, (size_t)n) != n)
		_exit(3);
	close(fd);
	size_t len = (size_t)kib * 1024;
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		_exit(4);
	for (size_t o = 0; o < len; o += (size_t)pg)
		p[o] = 1;
	munmap(p, len);
	_exit(0);
}

struct churn {
	const char *dir;
	double secs, period;
	long rate, kib;
	long forks, skipped, made, removed, retries, child_fail;
	char *pending[MAX_PENDING];
	int npending;
	struct kid { pid_t pid; char *cg; } kids[MAX_KIDS];
	int nkids;
};

/* children not reaped yet that joined (or will join) cg: a cgroup is only
 * removed once none is left, else a child could find it gone */
static int kids_in(const struct churn *c, const char *cg)
{
	int n = 0;

	for (int i = 0; i < c->nkids; i++)
		n += c->kids[i].cg == cg;
	return n;
}

/* try to remove every pending cgroup; keep those still busy */
static void sweep(struct churn *c, int last)
{
	int k = 0;

	for (int i = 0; i < c->npending; i++) {
		if (kids_in(c, c->pending[i])) {
			c->pending[k++] = c->pending[i];
			continue;
		}
		if (rmdir(c->pending[i]) == 0 || errno == ENOENT) {
			c->removed++;
			free(c->pending[i]);
			continue;
		}
		if (errno != EBUSY)
			fprintf(stderr, "nlchurn: rmdir %s: %s\n", c->pending[i], strerror(errno));
		if (!last)
			c->retries++;
		c->pending[k++] = c->pending[i];
	}
	c->npending = k;
}

static void reap(struct churn *c, int block)
{
	int st;
	pid_t p;

	while ((p = waitpid(-1, &st, block ? 0 : WNOHANG)) > 0) {
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			c->child_fail++;
		for (int i = 0; i < c->nkids; i++)
			if (c->kids[i].pid == p) {
				c->kids[i] = c->kids[--c->nkids];
				break;
			}
	}
}

static int run_churn(struct churn *c)
{
	char *cur = NULL;
	int64_t t0 = now_ns(), tick = 1000000000 / c->rate;
	int64_t per = (int64_t)(c->period * 1e9), next_cg = t0, next_fork = t0;
	int64_t end = t0 + (int64_t)(c->secs * 1e9);
	long seq = 0;

	while (!stop && (c->secs <= 0 || now_ns() < end)) {
		int64_t t = now_ns();

		if (t >= next_cg) {
			char *n;

			if (asprintf(&n, "%s/c%ld", c->dir, seq++) < 0)
				return 1;
			if (mkdir(n, 0755) != 0) {
				fprintf(stderr, "nlchurn: cannot create %s: %s\n", n, strerror(errno));
				free(n);
				break;
			}
			c->made++;
			if (cur) {
				if (c->npending >= MAX_PENDING - 1) {
					fprintf(stderr, "nlchurn: %d cgroups will not go away\n", MAX_PENDING);
					c->pending[c->npending++] = cur;
					cur = n;
					break;
				}
				c->pending[c->npending++] = cur;
			}
			cur = n;
			next_cg += per;
			if (next_cg <= t)	/* late: no burst of cgroups */
				next_cg = t + per;
		}
		if (t >= next_fork && c->nkids == MAX_KIDS)
			reap(c, 1);	/* children pile up: a stalled host */
		if (t >= next_fork) {
			pid_t p = fork();

			if (p == 0)
				child(cur, c->kib);
			if (p < 0) {
				fprintf(stderr, "nlchurn: fork: %s\n", strerror(errno));
				break;
			}
			c->forks++;
			c->kids[c->nkids++] = (struct kid){ p, cur };
			next_fork += tick;
			if (next_fork <= t) {	/* late: skip, not catch up */
				int64_t miss = (t - next_fork) / tick + 1;

				c->skipped += miss;
				next_fork += miss * tick;
			}
		}
		reap(c, 0);
		sweep(c, 0);
		int64_t wake = next_fork < next_cg ? next_fork : next_cg;
		int64_t d = wake - now_ns();

		if (d > 0) {
			struct timespec ts = { d / 1000000000, d % 1000000000 };

			nanosleep(&ts, NULL);	/* EINTR on a signal: the loop checks stop */
		}
	}
	reap(c, 1);
	if (cur)
		c->pending[c->npending++] = cur;
	/* the last children are gone; a memcg may still be busy for a moment */
	for (int i = 0; i < 50 && c->npending; i++) {
		sweep(c, 1);
		if (c->npending)
			usleep(100000);
	}
	for (int i = 0; i < c->npending; i++)
		fprintf(stderr, "nlchurn: could not remove %s\n", c->pending[i]);

	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	printf("nlchurn forks=%ld skipped=%ld cgroups_made=%ld cgroups_removed=%ld rmdir_retries=%ld "
	       "left=%d child_failures=%ld cpu_ns=%lld children_cpu_ns=%lld\n",
	       c->forks, c->skipped, c->made, c->removed, c->retries, c->npending, c->child_fail,
	       (long long)(tv_ns(self.ru_utime) + tv_ns(self.ru_stime)),
	       (long long)(tv_ns(kids.ru_utime) + tv_ns(kids.ru_stime)));
	return c->npending || c->child_fail ? 1 : 0;
}

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

static int is_hash(uint32_t type)
{
	return type == BPF_MAP_TYPE_HASH || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

/* keys in map id, or -1; name/max/type filled from the map's info */
static long count_keys(uint32_t id, char *name, uint32_t *max, uint32_t *type)
{
	union bpf_attr a;
	struct bpf_map_info info;
	long n = 0;
	int fd;

	memset(&a, 0, sizeof(a));
	a.map_id = id;
	fd = (int)sys_bpf(BPF_MAP_GET_FD_BY_ID, &a);
	if (fd < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) < 0) {
		close(fd);
		return -1;
	}
	snprintf(name, BPF_OBJ_NAME_LEN, "%s", info.name);
	*max = info.max_entries;
	*type = info.type;
	if (is_hash(info.type)) {
		char *k = calloc(2, info.key_size ? info.key_size : 1);
		char *cur = NULL;

		if (!k) {
			close(fd);
			return -1;
		}
		/* a key deleted under the walk restarts it: the bound keeps a
		 * map that churns fast from holding us forever */
		for (long lim = 2L * info.max_entries + 2; n < lim; n++) {
			memset(&a, 0, sizeof(a));
			a.map_fd = (uint32_t)fd;
			a.key = (uint64_t)(uintptr_t)cur;
			a.next_key = (uint64_t)(uintptr_t)(k + (n % 2 ? 0 : info.key_size));
			if (sys_bpf(BPF_MAP_GET_NEXT_KEY, &a) < 0)
				break;
			cur = k + (n % 2 ? 0 : info.key_size);
		}
		free(k);
	}
	close(fd);
	return n;
}

static int run_map_fill(const char *pid)
{
	char dirp[64], path[512], line[256];
	uint32_t ids[256];
	int nids = 0;
	long total = 0;
	DIR *d;
	struct dirent *e;

	snprintf(dirp, sizeof(dirp), "/proc/%s/fdinfo", pid);
	d = opendir(dirp);
	if (!d) {
		fprintf(stderr, "nlchurn: cannot read %s: %s\n", dirp, strerror(errno));
		return 1;
	}
	while ((e = readdir(d)) && nids < 256) {
		FILE *f;
		unsigned id;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dirp, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "map_id: %u", &id) == 1) {
				int dup = 0;

				for (int i = 0; i < nids; i++)
					dup |= ids[i] == id;
				if (!dup)
					ids[nids++] = id;
			}
		fclose(f);
	}
	closedir(d);
	printf("maps=");
	int first = 1;

	for (int i = 0; i < nids; i++) {
		char name[BPF_OBJ_NAME_LEN];
		uint32_t max, type;
		long n = count_keys(ids[i], name, &max, &type);

		if (n < 0 || !is_hash(type))
			continue;
		printf("%s%s:%ld/%u", first ? "" : ",", name, n, max);
		first = 0;
		total += n;
	}
	printf(" total=%ld\n", total);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: nlchurn --cgroup DIR [--secs S] [--rate N] [--period S] [--kib K]\n"
			"       nlchurn --map-fill PID\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "cgroup", required_argument, 0, 'c' }, { "secs", required_argument, 0, 's' },
		{ "rate", required_argument, 0, 'r' },   { "period", required_argument, 0, 'p' },
		{ "kib", required_argument, 0, 'k' },    { "map-fill", required_argument, 0, 'm' },
		{ "help", no_argument, 0, 'h' },         { 0, 0, 0, 0 },
	};
	struct churn c = { .period = 0.25, .rate = 100, .kib = 128 };
	const char *mapfill = NULL;
	char *end;
	int o;

	while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (o) {
		case 'c': c.dir = optarg; break;
		case 's': c.secs = strtod(optarg, &end); if (*end || c.secs < 0) usage(); break;
		case 'r': c.rate = strtol(optarg, &end, 10); if (*end || c.rate < 1 || c.rate > 10000) usage(); break;
		case 'p': c.period = strtod(optarg, &end); if (*end || c.period < 0.01) usage(); break;
		case 'k': c.kib = strtol(optarg, &end, 10); if (*end || c.kib < 0) usage(); break;
		case 'm': mapfill = optarg; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (mapfill)
		return run_map_fill(mapfill);
	if (!c.dir)
		usage();
	struct stat st;

	if (stat(c.dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "nlchurn: %s is not a directory: make the parent cgroup first\n", c.dir);
		return 2;
	}
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	return run_churn(&c);
}
