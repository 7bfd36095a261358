/*
 * rawloop.c - the baseline for bench/overhead.
 *
 * Why this exists: flowbench's per-op overhead can only be judged against
 * the cheapest loop that does the same I/O.  This is that loop: one thread,
 * one pread() of IOSIZE bytes per op at a uniformly random IOSIZE-aligned
 * offset, one clock_gettime(CLOCK_MONOTONIC) per op (as a benchmark that
 * times every op must do), a cheap inline RNG, nothing else.  bench/overhead
 * runs it alternately with flowbench and fio on the same cached file and
 * reports flowbench's throughput as a ratio of this one.
 *
 * Usage: rawloop FILE SECONDS [IOSIZE [CLOCKS]]
 *   IOSIZE in bytes, default 8192; k/m/g suffixes are accepted.
 *   CLOCKS: clock reads per op, 1 (default: the cheapest loop) or 2 (one
 *   before and one after each pread, as a tool that times every op must:
 *   the floor for flowbench's per-op latencies, issue 15).
 * Prints: ops=<count> seconds=<elapsed> cpu=<user+system seconds of the
 *         loop>, ops/s=<rate>, and with CLOCKS 2 mean_latency_ns=<mean>
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* xoshiro256** (Blackman & Vigna), seeded through splitmix64. */
static uint64_t rng_state[4];

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(void)
{
	const uint64_t result = rotl(rng_state[1] * 5, 7) * 9;
	const uint64_t t = rng_state[1] << 17;

	rng_state[2] ^= rng_state[0];
	rng_state[3] ^= rng_state[1];
	rng_state[1] ^= rng_state[2];
	rng_state[0] ^= rng_state[3];
	rng_state[2] ^= t;
	rng_state[3] = rotl(rng_state[3], 45);
	return result;
}

static void rng_seed(uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		rng_state[i] = z ^ (z >> 31);
	}
}

/* Lemire's multiply-shift: a value in [0, n) from 32 random bits. */
static inline uint64_t rng_below(uint32_t n)
{
	return ((uint64_t)(uint32_t)(rng_next() >> 32) * n) >> 32;
}

static double ts_seconds(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

/* User plus system CPU seconds this process has used. */
static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end != '\0' || v == 0)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t iosize = 8192, nblocks, ops = 0, lat_ns = 0;
	double seconds;
	char *end, *buf;
	struct stat st;
	struct timespec start, now, deadline, before;
	double cpu0;
	bool two_clocks;
	int fd;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: %s FILE SECONDS [IOSIZE [CLOCKS]]\n", argv[0]);
		return 2;
	}
	seconds = strtod(argv[2], &end);
	if (end == argv[2] || *end != '\0' || !(seconds > 0)) {
		fprintf(stderr, "rawloop: bad SECONDS '%s'\n", argv[2]);
		return 2;
	}
	if (argc >= 4 && parse_size(argv[3], &iosize) != 0) {
		fprintf(stderr, "rawloop: bad IOSIZE '%s'\n", argv[3]);
		return 2;
	}
	if (argc == 5 && strcmp(argv[4], "1") != 0 && strcmp(argv[4], "2") != 0) {
		fprintf(stderr, "rawloop: CLOCKS is 1 or 2, not '%s'\n", argv[4]);
		return 2;
	}
	two_clocks = argc == 5 && strcmp(argv[4], "2") == 0;

	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0) {
		fprintf(stderr, "rawloop: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	nblocks = (uint64_t)st.st_size / iosize;
	if (nblocks == 0 || nblocks > UINT32_MAX) {
		fprintf(stderr, "rawloop: %s: %lld bytes is not 1..2^32 blocks "
			"of %" PRIu64 "\n", argv[1], (long long)st.st_size, iosize);
		return 1;
	}
	if (posix_memalign((void **)&buf, 4096, iosize) != 0) {
		fprintf(stderr, "rawloop: out of memory\n");
		return 1;
	}
	memset(buf, 0, iosize);

	cpu0 = cpu_seconds();
	clock_gettime(CLOCK_MONOTONIC, &start);
	rng_seed((uint64_t)start.tv_nsec ^ ((uint64_t)getpid() << 32));
	deadline = start;
	deadline.tv_sec += (time_t)seconds;
	deadline.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}

	for (;;) {
		off_t off = (off_t)(rng_below((uint32_t)nblocks) * iosize);
		ssize_t n;

		if (two_clocks)        /* the op's start (its end is `now` below) */
			clock_gettime(CLOCK_MONOTONIC, &before);
		n = pread(fd, buf, iosize, off);

		if (n != (ssize_t)iosize) {
			fprintf(stderr, "rawloop: pread at %lld: %s\n",
				(long long)off, n < 0 ? strerror(errno)
						      : "short read");
			return 1;
		}
		ops++;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (two_clocks)        /* what a timing tool does with the two reads */
			lat_ns += (uint64_t)((now.tv_sec - before.tv_sec) * 1000000000L +
					     (now.tv_nsec - before.tv_nsec));
		if (now.tv_sec > deadline.tv_sec ||
		    (now.tv_sec == deadline.tv_sec &&
		     now.tv_nsec >= deadline.tv_nsec))
			break;
	}

	seconds = ts_seconds(&now) - ts_seconds(&start);
	printf("ops=%" PRIu64 " seconds=%.6f cpu=%.6f\n", ops, seconds,
	       cpu_seconds() - cpu0);
	printf("ops/s=%.1f\n", (double)ops / seconds);
	if (two_clocks)
		printf("mean_latency_ns=%.1f\n", (double)lat_ns / (double)ops);
	close(fd);
	free(buf);
	return 0;
}
