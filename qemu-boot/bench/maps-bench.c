// SPDX-License-Identifier: GPL-2.0
/*
 * maps-bench: the measurements behind `make bench`, run in the guest on
 * the base kernel and on the patched kernel at vm.rwsem_unfair_maps 0
 * and 1.  Every figure is printed as one CSV row:
 *
 *   KIND,TRIAL,hold_ms,remaining_ms,monitor_ms,uncontended_ms,queued,in_hold_ms
 *	DESIGN.md section 1: a MADV_POPULATE_WRITE read hold, a writer
 *	queued behind it (checked: it sleeps in mmap()), a monitor process
 *	with CAP_SYS_NICE that reads /proc/<pid>/maps (KIND scenario),
 *	/proc/<pid>/cmdline (scenario_cmdline) or runs "ps -eo pid,args"
 *	(scenario_ps), one of them per hold.  in_hold_ms is the same
 *	read during the hold before the writer queues: the cost of the
 *	load the hold puts on the machine, without a queued writer.
 *	Trials run until N of them had the writer queued (at most 2N);
 *	all are printed.
 *   scan,RUN,ops,mean_us,max_us
 *	Paul McKenney's mmap/munmap latency test: two processes scan
 *	/proc/<pid>/maps while this one unmaps and remaps random 4 KiB
 *	pages of a 128 MiB anonymous range; mean and max per 10 s run.
 *   scanlat,RUN,LATENCY_US
 *	every 16th mmap/munmap latency of those runs, for the plot.
 *   writer,K,ops,mean_us,p99_us,max_us
 *	the writer-bound load of the proc-maps-unfair-writer selftest:
 *	mmap/munmap of 4 KiB pages among 32768 mappings in a 128 MiB range
 *	while K readers with CAP_SYS_NICE and one without loop on the maps.
 *	The K = 40 row (more unfair readers than the unfair count holds)
 *	adds a busy fair holder: a thread of the target that loops on
 *	MADV_POPULATE_READ of populated memory, about 5 ms per hold.
 *   fault,RUN,ops_per_s
 *	fair path, no maps readers: two threads each mmap 1 MiB, touch
 *	its 256 pages and munmap it, for 2 s.
 *
 * Usage: maps-bench scenario|scan|writer|fault [-n N] [-s SECONDS]
 *	  [-r maps,cmdline,ps]	(the scenario's readers, default all)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define PAGE 4096UL
#define MIB (1024UL * 1024)
#define RANGE (128 * MIB)
#define MAX_OPS (1 << 21)

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "maps-bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void drop_sys_nice(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		_exit(2);
	data[CAP_SYS_NICE / 32].effective &= ~(1U << (CAP_SYS_NICE % 32));
	data[CAP_SYS_NICE / 32].permitted &= ~(1U << (CAP_SYS_NICE % 32));
	if (syscall(SYS_capset, &hdr, data))
		_exit(2);
}

/* Read an open maps file from the start to the end. */
static ssize_t scan_fd(int fd)
{
	static char buf[64 * 1024];
	ssize_t n, total = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	return n < 0 ? -1 : total;
}

static int open_maps(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	return open(path, O_RDONLY);
}

/* A process that scans @target's maps until killed; fair if !privileged. */
static pid_t start_scanner(pid_t target, bool privileged, int *go)
{
	pid_t pid = fork();
	int fd;
	char c;

	if (pid < 0)
		die("fork");
	if (pid)
		return pid;
	if (!privileged)
		drop_sys_nice();
	fd = open_maps(target);
	if (fd < 0)
		_exit(2);
	if (go && read(*go, &c, 1) != 1)
		_exit(2);
	for (;;)
		if (scan_fd(fd) < 0)
			_exit(2);
}

static void stop(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

/* --- scenario -------------------------------------------------------- */

struct thr {
	int gate[2];
	pid_t tid;
	void *addr;
	size_t size;
	int64_t t_start, t_end;
};

static void *holder_fn(void *arg)
{
	struct thr *h = arg;
	char c;

	__atomic_store_n(&h->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (read(h->gate[0], &c, 1) != 1)
		_exit(3);
	h->t_start = now_ns();
	if (madvise(h->addr, h->size, MADV_POPULATE_WRITE))
		_exit(3);
	__atomic_store_n(&h->t_end, now_ns(), __ATOMIC_RELEASE);
	return NULL;
}

static void *writer_fn(void *arg)
{
	struct thr *w = arg;
	char c;

	__atomic_store_n(&w->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	if (read(w->gate[0], &c, 1) != 1)
		_exit(3);
	w->t_start = now_ns();
	w->addr = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w->t_end = now_ns();
	return NULL;
}

static bool writer_queued(pid_t tid)
{
	int64_t deadline = now_ns() + 1000000000LL;
	char path[96], buf[512], *p;
	ssize_t n;
	int fd;

	do {
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buf[n] = 0;
			p = strrchr(buf, ')');
			if (p && p[1] == ' ' && p[2] == 'D')
				return true;
		}
		usleep(1000);
	} while (now_ns() < deadline);
	return false;
}

/* Read /proc/<pid>/cmdline whole. */
static ssize_t read_cmdline(pid_t pid)
{
	char path[64];
	ssize_t ret;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ret = scan_fd(fd);
	close(fd);
	return ret;
}

/* Run "ps -eo pid,args", output to /dev/null; 0 if it succeeded. */
static int run_ps(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execlp("ps", "ps", "-eo", "pid,args", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

/*
 * The monitor: one timed read per command byte: 'r' the target's maps,
 * 'c' its cmdline, 'p' a whole ps run.
 */
static pid_t start_monitor(int *cmd, int *res)
{
	int c[2], r[2];
	pid_t target = getpid(), pid;
	int64_t t[2];
	char x;
	int fd, ok;

	if (pipe(c) || pipe(r))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		fd = open_maps(target);
		while (read(c[0], &x, 1) == 1) {
			t[0] = now_ns();
			ok = x == 'r' ? scan_fd(fd) >= 0 :
			     x == 'c' ? read_cmdline(target) > 0 : !run_ps();
			t[1] = now_ns();
			if (!ok)
				_exit(2);
			if (write(r[1], t, sizeof(t)) != sizeof(t))
				_exit(2);
		}
		_exit(0);
	}
	close(c[0]);
	close(r[1]);
	*cmd = c[1];
	*res = r[0];
	return pid;
}

static void monitor_read(int cmd, int res, char how, int64_t *t)
{
	if (write(cmd, &how, 1) != 1 || read(res, t, 2 * sizeof(*t)) != 2 * sizeof(*t))
		die("monitor (for ps: is procps installed?)");
}

static size_t populate_size(int target_ms)
{
	size_t sz = 16 * MIB;
	int64_t t0, dt;
	void *p;

	p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	t0 = now_ns();
	if (madvise(p, sz, MADV_POPULATE_WRITE))
		die("madvise");
	dt = now_ns() - t0;
	munmap(p, sz);
	sz = (double)sz * target_ms * 1e6 / (dt > 0 ? dt : 1);
	sz &= ~(MIB - 1);
	return sz < 32 * MIB ? 32 * MIB : sz > 768 * MIB ? 768 * MIB : sz;
}

static const struct {
	const char *name, *kind;
	char how;
} readers[] = {
	{ "maps", "scenario", 'r' },
	{ "cmdline", "scenario_cmdline", 'c' },
	{ "ps", "scenario_ps", 'p' },
};

static void scenario_one(int cmd, int res, size_t size, int trials, int k);

static void scenario(int trials, const char *which)
{
	size_t size = populate_size(1000);
	int cmd, res, k;
	char list[64];
	pid_t mon;

	snprintf(list, sizeof(list), ",%s,", which);
	mon = start_monitor(&cmd, &res);
	for (k = 0; k < sizeof(readers) / sizeof(readers[0]); k++) {
		char name[16];

		snprintf(name, sizeof(name), ",%s,", readers[k].name);
		if (strstr(list, name))
			scenario_one(cmd, res, size, trials, k);
	}
	close(cmd);
	close(res);
	stop(mon);
}

static void scenario_one(int cmd, int res, size_t size, int trials, int k)
{
	int i, j, g, ok = 0;
	int64_t t[2], unc[5], in_hold[2];

	/* a trial counts if the writer was seen queued; give up at 2x */
	for (i = 0; ok < trials && i < 2 * trials; i++) {
		struct thr h = { .size = size }, w = {};
		pthread_t th, tw;
		bool queued;

		for (j = 0; j < 5; j++) {
			monitor_read(cmd, res, readers[k].how, t);
			unc[j] = t[1] - t[0];
		}
		qsort(unc, 5, sizeof(unc[0]), cmp_i64);
		h.addr = mmap(NULL, size, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (h.addr == MAP_FAILED || pipe(h.gate) || pipe(w.gate))
			die("setup");
		if (pthread_create(&th, NULL, holder_fn, &h) ||
		    pthread_create(&tw, NULL, writer_fn, &w))
			die("pthread_create");
		while (!__atomic_load_n(&h.tid, __ATOMIC_ACQUIRE) ||
		       !__atomic_load_n(&w.tid, __ATOMIC_ACQUIRE))
			usleep(100);
		g = write(h.gate[1], "g", 1);
		usleep(20000);
		monitor_read(cmd, res, readers[k].how, in_hold);
		g += write(w.gate[1], "g", 1);
		if (g != 2)
			die("gate");
		queued = writer_queued(w.tid) && !__atomic_load_n(&h.t_end, __ATOMIC_ACQUIRE);
		ok += queued;
		monitor_read(cmd, res, readers[k].how, t);
		pthread_join(th, NULL);
		pthread_join(tw, NULL);
		printf("%s,%d,%.3f,%.3f,%.3f,%.3f,%d,%.3f\n", readers[k].kind, i,
		       (h.t_end - h.t_start) / 1e6, (h.t_end - t[0]) / 1e6,
		       (t[1] - t[0]) / 1e6, unc[2] / 1e6, queued,
		       (in_hold[1] - in_hold[0]) / 1e6);
		fflush(stdout);
		munmap(w.addr, PAGE);
		munmap(h.addr, size);
		close(h.gate[0]);
		close(h.gate[1]);
		close(w.gate[0]);
		close(w.gate[1]);
	}
}

/* --- scan: mmap/munmap latency under two maps scanners ------------------ */

static int64_t *lat;

static void scan(int runs, int secs)
{
	unsigned int seed = 1;
	pid_t s[2];
	char *range;
	int r, i;

	range = mmap(NULL, RANGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (range == MAP_FAILED)
		die("mmap");
	s[0] = start_scanner(getpid(), true, NULL);
	s[1] = start_scanner(getpid(), true, NULL);
	for (r = 0; r < runs; r++) {
		int64_t t0, t1, deadline = now_ns() + secs * 1000000000LL, sum = 0;
		long ops = 0;
		char *p;

		while (now_ns() < deadline && ops < MAX_OPS - 1) {
			p = range + (rand_r(&seed) % (RANGE / PAGE)) * PAGE;
			t0 = now_ns();
			if (munmap(p, PAGE))
				die("munmap");
			t1 = now_ns();
			lat[ops++] = t1 - t0;
			if (mmap(p, PAGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != p)
				die("mmap");
			lat[ops++] = now_ns() - t1;
		}
		for (i = 0; i < ops; i++)
			sum += lat[i];
		for (i = 0; i < ops; i += 16)
			printf("scanlat,%d,%.2f\n", r, lat[i] / 1e3);
		qsort(lat, ops, sizeof(lat[0]), cmp_i64);
		printf("scan,%d,%ld,%.2f,%.2f\n", r, ops, sum / 1e3 / ops, lat[ops - 1] / 1e3);
		fflush(stdout);
	}
	stop(s[0]);
	stop(s[1]);
	munmap(range, RANGE);
}

/* --- writer: the selftest's writer-bound load ---------------------------- */

#define MAX_K 40

struct busy {
	void *addr;
	size_t size;
	int stop;
};

static void *busy_fn(void *arg)
{
	struct busy *b = arg;

	while (!__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE))
		if (madvise(b->addr, b->size, MADV_POPULATE_READ))
			die("madvise(MADV_POPULATE_READ)");
	return NULL;
}

/* A populated range that MADV_POPULATE_READ walks in about @target_ms. */
static void setup_busy(struct busy *b, int target_ms)
{
	size_t sz = 16 * MIB;
	int64_t t0, dt;
	void *p;

	p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || madvise(p, sz, MADV_POPULATE_WRITE))
		die("populate");
	t0 = now_ns();
	if (madvise(p, sz, MADV_POPULATE_READ))
		die("madvise(MADV_POPULATE_READ)");
	dt = now_ns() - t0;
	munmap(p, sz);
	sz = (double)sz * target_ms * 1e6 / (dt > 0 ? dt : 1);
	sz &= ~(MIB - 1);
	b->size = sz < MIB ? MIB : sz > 256 * MIB ? 256 * MIB : sz;
	b->addr = mmap(NULL, b->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->addr == MAP_FAILED || madvise(b->addr, b->size, MADV_POPULATE_WRITE))
		die("populate");
}

static void writer(int secs)
{
	static const int ks[] = { 1, 4, 16, MAX_K };
	pid_t sc[MAX_K + 1], self = getpid();
	int gate[2], k, i, n;
	unsigned int seed = 1;
	struct busy busy = {};
	pthread_t tb;
	char *range;

	setup_busy(&busy, 5);
	range = mmap(NULL, RANGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (range == MAP_FAILED)
		die("mmap");
	for (k = 0; k < (int)(sizeof(ks) / sizeof(ks[0])); k++) {
		int64_t t0, t1, deadline, sum = 0;
		bool with_busy = ks[k] == MAX_K;
		long ops = 0;
		char *p;

		/* scanners first: fork() of 32768 mappings would be slow */
		munmap(range, RANGE);
		if (pipe(gate))
			die("pipe");
		n = ks[k] + 1;
		for (i = 0; i < n; i++)
			sc[i] = start_scanner(self, i < ks[k], &gate[0]);
		if (mmap(range, RANGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) != range)
			die("mmap");
		for (i = 0; i < (int)(RANGE / PAGE); i += 2)
			if (mprotect(range + i * PAGE, PAGE, PROT_READ))
				die("mprotect");
		for (i = 0; i < n; i++)
			if (write(gate[1], "g", 1) != 1)
				die("gate");
		__atomic_store_n(&busy.stop, 0, __ATOMIC_RELEASE);
		if (with_busy && pthread_create(&tb, NULL, busy_fn, &busy))
			die("pthread_create");
		usleep(100000);
		deadline = now_ns() + secs * 1000000000LL;
		while (now_ns() < deadline && ops < MAX_OPS - 1) {
			p = range + 2 * (rand_r(&seed) % (RANGE / PAGE / 2)) * PAGE;
			t0 = now_ns();
			if (munmap(p, PAGE))
				die("munmap");
			t1 = now_ns();
			lat[ops++] = t1 - t0;
			if (mmap(p, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				 -1, 0) != p)
				die("mmap");
			lat[ops++] = now_ns() - t1;
		}
		if (with_busy) {
			__atomic_store_n(&busy.stop, 1, __ATOMIC_RELEASE);
			pthread_join(tb, NULL);
		}
		for (i = 0; i < n; i++)
			stop(sc[i]);
		close(gate[0]);
		close(gate[1]);
		for (i = 0; i < ops; i++)
			sum += lat[i];
		qsort(lat, ops, sizeof(lat[0]), cmp_i64);
		printf("writer,%d,%ld,%.2f,%.2f,%.2f\n", ks[k], ops, sum / 1e3 / ops,
		       lat[ops * 99 / 100] / 1e3, lat[ops - 1] / 1e3);
		fflush(stdout);
	}
	munmap(range, RANGE);
	munmap(busy.addr, busy.size);
}

/* --- fault: fair-path throughput, no maps readers --------------------- */

static int64_t fault_deadline;

static void *fault_fn(void *arg)
{
	long *ops = arg;
	size_t i;
	char *p;

	while (now_ns() < fault_deadline) {
		p = mmap(NULL, MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		for (i = 0; i < MIB; i += PAGE)
			p[i] = 1;
		munmap(p, MIB);
		(*ops)++;
	}
	return NULL;
}

static void fault(int runs, int secs)
{
	pthread_t t[2];
	long ops[2];
	int r, i;

	for (r = 0; r < runs; r++) {
		int64_t t0 = now_ns();

		fault_deadline = t0 + secs * 1000000000LL;
		for (i = 0; i < 2; i++) {
			ops[i] = 0;
			if (pthread_create(&t[i], NULL, fault_fn, &ops[i]))
				die("pthread_create");
		}
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		printf("fault,%d,%.1f\n", r, (ops[0] + ops[1]) / ((now_ns() - t0) / 1e9));
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	const char *what, *which = "maps,cmdline,ps";
	int opt, n = 0, secs = 0;

	while ((opt = getopt(argc, argv, "n:s:r:")) != -1) {
		switch (opt) {
		case 'r':
			which = optarg;
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 's':
			secs = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: maps-bench scenario|scan|writer|fault [-n N] [-s S]\n");
		return 2;
	}
	what = argv[optind];
	lat = mmap(NULL, MAX_OPS * sizeof(*lat), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (lat == MAP_FAILED)
		die("mmap");
	if (!strcmp(what, "scenario"))
		scenario(n ? n : 20, which);
	else if (!strcmp(what, "scan"))
		scan(n ? n : 3, secs ? secs : 10);
	else if (!strcmp(what, "writer"))
		writer(secs ? secs : 3);
	else if (!strcmp(what, "fault"))
		fault(n ? n : 5, secs ? secs : 2);
	else
		return 2;
	return 0;
}
