/*
 * prealloc.c - preallocating a fileset's files with one thread per CPU.
 *
 * File creation is dominated by system calls that scale with cores
 * (open, write, close in different directories), so the files are always
 * spread over min(online CPUs, chunks) threads, whatever `paralloc` says;
 * each thread claims chunks of consecutive files with an atomic counter.
 * A chunk is 64 files or about 16 MiB, whichever is fewer (chunk_files()):
 * small files cost one atomic per 64, and big ones still keep every
 * thread busy (20 files of 64 MiB are 20 chunks, not one chunk that a
 * single thread would write while the others wait).  Files are opened
 * relative to the fileset's root directory, never through a symbolic link
 * (runtime/fileset/beneath.h), from a tree flowbench made or checked.
 *
 * The threads run in a child process forked for them, never in the
 * master: glibc marks a process multi-threaded the first time it creates
 * a thread, for good, and a forked child inherits the mark, so a master
 * that had run these threads would fork workers that pay glibc's
 * cancellation bookkeeping (two atomic read-modify-writes and ~45
 * instructions) around every open, close, fsync, read or write, even a
 * worker of one thread (issue 15; tests/e2e/singlethread.sh).  The child
 * leaves SIGINT and SIGTERM to the master, which passes an interrupt on
 * through a word they share (MAP_SHARED), and dies with the master
 * (PR_SET_PDEATHSIG).  The child logs its progress and info lines itself,
 * but hands its first error to the master, which logs it as its own:
 * that is the error a results file keeps (log_first_error()).  The
 * child writes nothing else the master reads: the tree is only read, and
 * the counters feed the child's own log line.  When fork() fails the
 * threads run in the master, as before.
 *
 * A fresh tree (just created or emptied) holds nothing, so each file is
 * one O_CREAT|O_EXCL open, its writes in 1 MiB blocks of a non-zero
 * pattern (no file system may compress or dedupe them away) and a close,
 * with no fsync: the cache step decides what stays cached.  A reused tree
 * is checked file by file: kept if the size matches, truncated if larger,
 * completed if smaller; files that must not exist are removed.  A file is
 * truncated, completed or removed only after the open file (or the entry)
 * was checked to be ours: a regular file with one link, owned by the
 * tree's owner (runtime/fileset/marker.h), so a hard link planted in the tree
 * between the tree's check and this step is refused, not written.  The
 * first failure stops every thread at its next block or file.
 *
 * On a terminal (stderr, TERM not "dumb") the thread that started the
 * others shows a status line on stderr: the phase, the bytes done of the
 * total (a reused file's bytes already there count as done), the rate of
 * the bytes written and the ETA; once at the start, at most every 0.5 s,
 * once at the end, and erased before any other output (a thread logging
 * first erases it under the line's lock).  Even one file is written by a
 * thread of its own so that the status line can be shown meanwhile.
 * Otherwise only the final log line.
 */
#include "runtime/fileset/prealloc.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/fileset/beneath.h"
#include "runtime/base/clock.h"
#include "runtime/base/helper.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"

#define CHUNK_FILES 64              /* files claimed at a time, at most */
#define CHUNK_BYTES (16ull << 20)   /* ... and about this many bytes */
#define PROGRESS_NS 500000000ull    /* status line refresh: at most 2 per second */
#define ERROR_MAX 8192              /* the first error's text, from the child */

/* What the master and the child writing the files share (MAP_SHARED). */
struct prealloc_link {
	_Atomic int stop;               /* the master was interrupted: stop */
	char error[ERROR_MAX];          /* the child's first error, for the master */
};

struct prealloc_run {
	const struct prealloc_job *job;
	uint64_t nfiles;
	uint64_t chunk;                 /* files claimed at a time */
	_Atomic uint64_t next;          /* next chunk's first file */
	_Atomic uint64_t files_done;    /* files made to exist */
	_Atomic uint64_t bytes_done;    /* written */
	_Atomic uint64_t bytes_kept;    /* already there in a reused file */
	_Atomic int failed;
	pthread_mutex_t lock;           /* only for the end-of-thread signal */
	pthread_cond_t cond;
	int running;
	pthread_mutex_t line_lock;      /* the status line and the logs */
	bool shown;                     /* the status line is on the terminal */
	struct prealloc_link *link;     /* in the child: to the master; else NULL */
};

/* Erase the status line, if shown; under line_lock. */
static void line_erase_locked(struct prealloc_run *r)
{
	if (r->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		r->shown = false;
	}
}

/* Before a thread logs: the status line goes first (end_say() after). */
static void begin_say(struct prealloc_run *r)
{
	pthread_mutex_lock(&r->line_lock);
	line_erase_locked(r);
}

static void end_say(struct prealloc_run *r)
{
	pthread_mutex_unlock(&r->line_lock);
}

/* The absolute path of file e, for messages. */
static void msg_path(const struct prealloc_job *job, uint64_t e, char *buf)
{
	size_t n = strlen(job->root);

	memcpy(buf, job->root, n);
	buf[n] = '/';
	tree_file_relpath(job->tree, e, buf + n + 1);
}

/* SIGINT/SIGTERM came: to this process, or to the master (r->link). */
static bool interrupted(const struct prealloc_run *r)
{
	return interrupt_signal() ||
	       (r->link && atomic_load_explicit(&r->link->stop, memory_order_relaxed));
}

/*
 * The run's first error: logged now, or in the child left in the link
 * for the master to log, so that it is the master's first error too (the
 * one a results file keeps).  Called once (r->failed).
 */
static void report_error(struct prealloc_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void report_error(struct prealloc_run *r, const char *fmt, ...)
{
	char msg[ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->link) {
		memcpy(r->link->error, msg, sizeof(msg));
		return;
	}
	begin_say(r);
	log_error("%s", msg);
	end_say(r);
}

/* The first failure of the run is reported; the others only stop it. */
static void fail_file(struct prealloc_run *r, uint64_t e, const char *what, int err)
{
	char *path = malloc(strlen(r->job->root) + 1 + TREE_PATH_MAX);

	if (atomic_exchange(&r->failed, 1) == 0) {
		if (path)
			msg_path(r->job, e, path);
		if (err == ECANCELED) {
			begin_say(r);
			log_info("Preallocation interrupted while writing %s",
				 path ? path : "a file");
			end_say(r);
		} else {
			report_error(r, "cannot preallocate %s: %s: %s",
				     path ? path : "a file", what, strerror(err));
		}
	}
	free(path);
}

/* A file with flowbench's name that is not flowbench's: never touched. */
static void refuse_file(struct prealloc_run *r, uint64_t e, const char *why)
{
	char *path = malloc(strlen(r->job->root) + 1 + TREE_PATH_MAX);

	if (atomic_exchange(&r->failed, 1) == 0) {
		if (path)
			msg_path(r->job, e, path);
		report_error(r, "refusing to preallocate %s: %s; flowbench never "
			     "writes, truncates or removes a file it did not create "
			     "(left untouched)", path ? path : "a file", why);
	}
	free(path);
}

/*
 * Write pattern bytes to [from, to) of fd.  0 or an errno; ECANCELED
 * when SIGINT/SIGTERM came or another file failed (a big file must hold
 * neither up).
 */
static int fill_range(struct prealloc_run *r, int fd, uint64_t from, uint64_t to)
{
	while (from < to) {
		if (interrupted(r) ||
		    atomic_load_explicit(&r->failed, memory_order_relaxed))
			return ECANCELED;
		size_t n = to - from < PREALLOC_BLOCK ? (size_t)(to - from) : PREALLOC_BLOCK;
		ssize_t w = pwrite(fd, r->job->pattern, n, (off_t)from);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		if (w == 0)
			return ENOSPC;
		from += (uint64_t)w;
		atomic_fetch_add_explicit(&r->bytes_done, (uint64_t)w, memory_order_relaxed);
	}
	return 0;
}

/* A new file in a fresh tree: create, write, close. */
static int create_file(struct prealloc_run *r, uint64_t e, const char *rel, uint64_t size)
{
	int fd = beneath_open(r->job->rootfd, rel, O_WRONLY | O_CREAT | O_EXCL, 0644);
	int err;

	if (fd < 0) {
		fail_file(r, e, "create", errno);
		return -1;
	}
	err = fill_range(r, fd, 0, size);
	if (close(fd) < 0 && !err)
		err = errno;
	if (err) {
		fail_file(r, e, "write", err);
		return -1;
	}
	return 0;
}

/*
 * A file that may already exist in a reused tree: keep, trim or complete
 * it.  The size is read with a plain lstat (reading cannot hurt); a file
 * to be changed is opened without following links and checked on the
 * open descriptor before anything is written.
 */
static int reuse_file(struct prealloc_run *r, uint64_t e, const char *rel, uint64_t size)
{
	const struct prealloc_job *job = r->job;
	struct stat st;
	uint64_t have = 0;
	char reason[160];
	const char *why;
	int fd, err = 0;

	if (fstatat(job->rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(st.st_mode)) {
			fail_file(r, e, "not a regular file", EEXIST);
			return -1;
		}
		have = (uint64_t)st.st_size;
		if (have == size) {
			atomic_fetch_add_explicit(&r->bytes_kept, size, memory_order_relaxed);
			if (job->log_each) {
				begin_say(r);
				log_info("Reusing %s/%s: size %llu matches",
					 job->root, rel, (unsigned long long)size);
				end_say(r);
			}
			return 0;
		}
		fd = beneath_open(job->rootfd, rel, O_WRONLY, 0);
	} else if (errno == ENOENT) {
		fd = beneath_open(job->rootfd, rel, O_WRONLY | O_CREAT | O_EXCL, 0644);
	} else {
		fail_file(r, e, "stat", errno);
		return -1;
	}
	if (fd < 0) {
		fail_file(r, e, "open", errno);
		return -1;
	}
	if ((why = fstat(fd, &st) < 0 ? strerror(errno) :
		   marker_foreign(job->marker, &st, reason, sizeof(reason)))) {
		close(fd);
		refuse_file(r, e, why);
		return -1;
	}
	have = (uint64_t)st.st_size;
	atomic_fetch_add_explicit(&r->bytes_kept, have < size ? have : size,
				  memory_order_relaxed);
	if (have > size)
		err = ftruncate(fd, (off_t)size) < 0 ? errno : 0;
	else
		err = fill_range(r, fd, have, size);
	if (close(fd) < 0 && !err)
		err = errno;
	if (err) {
		fail_file(r, e, have > size ? "truncate" : "write", err);
		return -1;
	}
	if (job->log_each && have) {
		begin_say(r);
		log_info("Reusing %s/%s: %s from %llu to %llu bytes", job->root,
			 rel, have > size ? "truncated" : "extended",
			 (unsigned long long)have, (unsigned long long)size);
		end_say(r);
	}
	return 0;
}

/* A file that must not exist (not preallocated) in a reused tree. */
static int remove_file(struct prealloc_run *r, uint64_t e, const char *rel)
{
	const struct prealloc_job *job = r->job;
	char reason[160];
	const char *name, *why;
	struct stat st;
	int pfd = beneath_parent(r->job->rootfd, rel, &name);
	int rc = 0, err = 0;

	if (pfd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		fail_file(r, e, "remove", errno);
		return -1;
	}
	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		err = errno == ENOENT ? 0 : errno;
	} else if ((why = marker_foreign(job->marker, &st, reason, sizeof(reason)))) {
		refuse_file(r, e, why);
		rc = -1;
	} else if (unlinkat(pfd, name, 0) == 0) {
		if (r->job->log_each) {
			begin_say(r);
			log_info("Removed %s/%s (not preallocated)", job->root, rel);
			end_say(r);
		}
	} else if (errno != ENOENT) {
		err = errno;
	}
	beneath_close_parent(r->job->rootfd, pfd);
	if (err) {
		fail_file(r, e, "remove", err);
		return -1;
	}
	return rc;
}

static void do_file(struct prealloc_run *r, uint64_t e, char *rel)
{
	const struct prealloc_job *job = r->job;
	uint64_t size = tree_file_size(job->tree, e);
	int rc;

	tree_file_relpath(job->tree, e, rel);
	if (!pick_exists(job->files, e))
		rc = r->job->fresh ? 0 : remove_file(r, e, rel);
	else if (r->job->fresh)
		rc = create_file(r, e, rel, size);
	else
		rc = reuse_file(r, e, rel, size);
	if (rc == 0 && pick_exists(job->files, e))
		atomic_fetch_add_explicit(&r->files_done, 1, memory_order_relaxed);
}

static void *worker(void *arg)
{
	struct prealloc_run *r = arg;
	char rel[TREE_PATH_MAX];

	while (!atomic_load_explicit(&r->failed, memory_order_relaxed)) {
		uint64_t first = atomic_fetch_add(&r->next, r->chunk);

		if (interrupted(r)) {
			atomic_store(&r->failed, 1);
			begin_say(r);
			log_info("Preallocation of %s interrupted", r->job->name);
			end_say(r);
			break;
		}

		if (first >= r->nfiles)
			break;
		for (uint64_t e = first; e < first + r->chunk && e < r->nfiles &&
		     !atomic_load_explicit(&r->failed, memory_order_relaxed); e++)
			do_file(r, e, rel);
	}
	pthread_mutex_lock(&r->lock);
	r->running--;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* Files per claim: CHUNK_FILES, or fewer so that a chunk is about CHUNK_BYTES. */
static uint64_t chunk_files(uint64_t files, uint64_t bytes)
{
	uint64_t mean = files ? bytes / files : 0;
	uint64_t n = mean ? CHUNK_BYTES / mean : CHUNK_FILES;

	return n < 1 ? 1 : n > CHUNK_FILES ? CHUNK_FILES : n;
}

/* "12 s", "3 min 4 s", "--" (unknown) into buf. */
static const char *eta_text(double s, char *buf, size_t len)
{
	if (s < 0)
		snprintf(buf, len, "--");
	else if (s < 60)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 360000)
		snprintf(buf, len, "%.0f min %.0f s", floor(s / 60), fmod(s, 60));
	else
		snprintf(buf, len, "%.0f h", s / 3600);
	return buf;
}

/*
 * The status line: phase, bytes done of the total, files, rate of the
 * bytes written so far, ETA.  Under line_lock.
 */
static void show_progress(struct prealloc_run *r, uint64_t want_files,
			  uint64_t want_bytes, uint64_t t0)
{
	uint64_t f = atomic_load(&r->files_done), w = atomic_load(&r->bytes_done);
	uint64_t b = w + atomic_load(&r->bytes_kept);
	double s = (double)(clock_now_ns() - t0) / 1e9;
	double rate = s > 0 && w ? (double)w / s : 0;
	double left = b >= want_bytes ? 0 : rate > 0 ? (double)(want_bytes - b) / rate : -1;
	char eta[32];

	fprintf(stderr, "\rpreallocating %s: %.1f of %.1f MiB, %llu of %llu file%s, "
		"%.1f MiB/s, ETA %s\033[K", r->job->name, (double)b / 1048576.0,
		(double)want_bytes / 1048576.0, (unsigned long long)f,
		(unsigned long long)want_files, log_plural(want_files), rate / 1048576.0,
		eta_text(left, eta, sizeof(eta)));
	fflush(stderr);
	r->shown = true;
}

/* show_progress() under the line's lock. */
static void refresh_line(struct prealloc_run *r, uint64_t want_files,
			 uint64_t want_bytes, uint64_t t0)
{
	pthread_mutex_lock(&r->line_lock);
	show_progress(r, want_files, want_bytes, t0);
	pthread_mutex_unlock(&r->line_lock);
}

/* Wait for the threads, refreshing the status line on a terminal. */
static void wait_all(struct prealloc_run *r, bool tty, uint64_t want_files,
		     uint64_t want_bytes, uint64_t t0)
{
	if (tty)
		refresh_line(r, want_files, want_bytes, t0);
	pthread_mutex_lock(&r->lock);
	while (r->running > 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)PROGRESS_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		/* a thread's end wakes it early: the line waits its 0.5 s */
		while (r->running > 0 &&
		       pthread_cond_timedwait(&r->cond, &r->lock, &ts) != ETIMEDOUT)
			;
		if (tty && r->running > 0) {
			pthread_mutex_unlock(&r->lock);
			refresh_line(r, want_files, want_bytes, t0);
			pthread_mutex_lock(&r->lock);
		}
	}
	pthread_mutex_unlock(&r->lock);
	if (tty && !atomic_load(&r->failed))
		refresh_line(r, want_files, want_bytes, t0);   /* the final count */
	pthread_mutex_lock(&r->line_lock);
	line_erase_locked(r);
	pthread_mutex_unlock(&r->line_lock);
}

/* A terminal that can show the status line ("\r", erase to the end). */
static bool status_terminal(void)
{
	const char *term = getenv("TERM");

	return isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
}

/*
 * The whole preallocation, with its threads, in this process; `link`: to
 * the master, in the child.  0, or -1 after reporting the first error.
 */
static int run_threads(const struct prealloc_job *job, struct prealloc_link *link)
{
	const struct fs_tree *tree = job->tree;
	struct prealloc_run r = { .job = job, .nfiles = tree->nfiles, .link = link };
	uint64_t want_files = pick_count(job->files, PICK_WANT_EXISTING), want_bytes = 0;
	uint64_t t0 = clock_now_ns();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t chunks;
	int nthreads = ncpu < 1 ? 1 : ncpu > 1024 ? 1024 : (int)ncpu;
	pthread_t *tids;
	bool tty = status_terminal();
	int started = 0;

	if (tree->sizes) {
		for (uint64_t e = 0; e < r.nfiles; e++)
			if (pick_exists(job->files, e))
				want_bytes += tree->sizes[e];
	} else {
		want_bytes = want_files * tree->size;
	}
	tty = tty && want_files > 0;    /* a tree of leaf directories only: no line */
	r.chunk = chunk_files(want_files, want_bytes);
	chunks = (r.nfiles + r.chunk - 1) / r.chunk;
	if ((uint64_t)nthreads > chunks)
		nthreads = chunks ? (int)chunks : 1;
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.cond, NULL);
	pthread_mutex_init(&r.line_lock, NULL);
	if (!(tids = calloc((size_t)nthreads, sizeof(*tids)))) {
		r.running = 1;
		worker(&r);
	} else {
		r.running = nthreads;
		for (int i = 0; i < nthreads; i++) {
			if (pthread_create(&tids[i], NULL, worker, &r) != 0)
				break;
			started++;
		}
		if (started < nthreads) {
			pthread_mutex_lock(&r.lock);
			r.running -= nthreads - started;
			pthread_mutex_unlock(&r.lock);
			if (started == 0)
				worker((r.running = 1, &r));
		}
		wait_all(&r, tty, want_files, want_bytes, t0);
		for (int i = 0; i < started; i++)
			pthread_join(tids[i], NULL);
		free(tids);
	}
	pthread_cond_destroy(&r.cond);
	pthread_mutex_destroy(&r.lock);
	pthread_mutex_destroy(&r.line_lock);
	if (atomic_load(&r.failed))
		return -1;
	if (!job->is_file)
		log_info("Pre-allocated %llu of %llu file%s (%.3f MB) in %s in %.3f seconds",
			 (unsigned long long)atomic_load(&r.files_done),
			 (unsigned long long)r.nfiles, log_plural(r.nfiles),
			 (double)atomic_load(&r.bytes_done) / 1048576.0,
			 job->name, (double)(clock_now_ns() - t0) / 1e9);
	return 0;
}

/*
 * The child: SIGINT and SIGTERM are the master's (it passes them on
 * through the link), and the child dies with it.  It leaves with _exit():
 * no atexit handler of the master's (MPI's, the results writer's) runs
 * twice.  Entered with the signals held (prealloc_files()).
 */
__attribute__((noreturn))
static void child_main(const struct prealloc_job *job, struct prealloc_link *link,
		       pid_t master, const sigset_t *mask)
{
	struct sigaction sa;
	int rc = 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	interrupt_release(mask);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == master)        /* else the master died before prctl */
		rc = run_threads(job, link) == 0 ? 0 : 1;
	fflush(NULL);
	_exit(rc);
}

/* helper_wait()'s hook: pass the interrupt on to the child's threads. */
static void stop_child(void *arg)
{
	struct prealloc_link *link = arg;

	atomic_store(&link->stop, 1);
}

/*
 * The child's outcome as prealloc_files()'s: its first error is logged
 * here, as the master's own; an interrupt was logged by the child and is
 * the master's already.  0 or -1.
 */
static int child_outcome(const struct prealloc_job *job, struct prealloc_link *link,
			 int status)
{
	link->error[sizeof(link->error) - 1] = '\0';
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (link->error[0])
		log_error("%s", link->error);
	else if (WIFSIGNALED(status) && !interrupt_signal())
		log_error("cannot preallocate %s: the process writing its files was "
			  "killed by signal %d (%s)", job->root, WTERMSIG(status),
			  strsignal(WTERMSIG(status)));
	else if (!interrupt_signal())
		log_error("cannot preallocate %s: the process writing its files "
			  "exited with status %d", job->root, WEXITSTATUS(status));
	return -1;
}

/* fork() (or the shared page) failed: the threads run in the master. */
static int run_in_master(const struct prealloc_job *job, const char *what, int err)
{
	log_info("Pre-allocating %s in this process (%s: %s)", job->name, what,
		 strerror(err));
	return run_threads(job, NULL);
}

int prealloc_files(const struct prealloc_job *job)
{
	struct prealloc_link *link = mmap(NULL, sizeof(*link), PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t master = getpid(), pid;
	sigset_t mask;
	int status, rc, err;

	if (link == MAP_FAILED)
		return run_in_master(job, "mmap", errno);
	fflush(NULL);                   /* nothing buffered is printed twice */
	interrupt_hold(&mask);
	pid = fork();
	if (pid == 0)
		child_main(job, link, master, &mask);
	if (pid < 0) {
		err = errno;
		interrupt_release(&mask);
		munmap(link, sizeof(*link));
		return run_in_master(job, "fork", err);
	}
	if (helper_wait(pid, "the preallocation process", 0, &mask, stop_child, link,
			&status) < 0) {
		/* an interrupt that had to kill the child says so itself */
		if (!interrupt_signal())
			log_error("cannot preallocate %s: waiting for the process "
				  "writing its files: %s", job->root, strerror(errno));
		rc = -1;
	} else {
		rc = child_outcome(job, link, status);
	}
	interrupt_release(&mask);
	munmap(link, sizeof(*link));
	return rc;
}
