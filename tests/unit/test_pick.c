/*
 * test_pick.c - shared picking: round-robin order, busy entries skipped,
 * `indexed`, existent/absent transitions, "none" versus "all busy",
 * open files skipped for deletion, and two forked processes hammering one
 * set without ever holding the same entry at once.
 */
#include <check.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/fileset/pick.h"

#include "tests/unit/check_main.h"

static void *shared_zero(size_t len)
{
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);

	ck_assert(m != MAP_FAILED);
	return m;
}

/* A set of n files, all existing if `all`. */
static void make_set(struct pick_set *s, uint64_t n, bool all)
{
	pick_set_init(s, shared_zero(pick_set_bytes(n, true, true)), n, true, true);
	for (uint64_t e = 0; all && e < n; e++)
		pick_set_exists(s, e, true);
}

START_TEST(test_round_robin)
{
	struct pick_set s;
	uint64_t e;

	make_set(&s, 10, true);
	for (int round = 0; round < 3; round++) {
		for (uint64_t want = 0; want < 10; want++) {
			ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, NULL, &e),
					 PICK_OK);
			ck_assert_uint_eq(e, want);
			pick_release(&s, e);
		}
	}
}
END_TEST

START_TEST(test_busy_skipped)
{
	struct pick_set s;
	uint64_t e, e2;

	make_set(&s, 10, true);
	ck_assert(pick_claim(&s, 0));
	ck_assert(!pick_claim(&s, 0));
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, NULL, &e), PICK_OK);
	ck_assert_uint_eq(e, 1);
	/* e stays busy: the next pick moves on */
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, NULL, &e2), PICK_OK);
	ck_assert_uint_eq(e2, 2);
	pick_release(&s, 0);
	pick_release(&s, 1);
	pick_release(&s, 2);
	ck_assert(pick_claim(&s, 0));
}
END_TEST

START_TEST(test_none_or_busy)
{
	struct pick_set s;
	uint64_t e;

	make_set(&s, 3, false);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, NULL, &e), PICK_NONE);
	pick_set_exists(&s, 1, true);
	ck_assert(pick_claim(&s, 1));
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, NULL, &e), PICK_BUSY);
	pick_release(&s, 1);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, NULL, &e), PICK_OK);
	ck_assert_uint_eq(e, 1);
}
END_TEST

START_TEST(test_transitions)
{
	struct pick_set s;
	uint64_t e;

	make_set(&s, 4, false);
	ck_assert_uint_eq(pick_count(&s, PICK_WANT_ABSENT), 4);
	/* create all four, as createfile does */
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(pick_next(&s, PICK_WANT_ABSENT, 0, NULL, &e), PICK_OK);
		ck_assert_uint_eq(e, (uint64_t)i);
		pick_set_exists(&s, e, true);
		pick_release(&s, e);
	}
	ck_assert_int_eq(pick_next(&s, PICK_WANT_ABSENT, 0, NULL, &e), PICK_NONE);
	ck_assert_uint_eq(pick_count(&s, PICK_WANT_EXISTING), 4);
	/* delete one: the existing rotor skips it, the absent one finds it */
	pick_set_exists(&s, 2, false);
	ck_assert(!pick_exists(&s, 2));
	ck_assert_int_eq(pick_indexed(&s, PICK_WANT_EXISTING, 0, 2, &e), PICK_OK);
	ck_assert_uint_eq(e, 3);
	pick_release(&s, e);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_ABSENT, 0, NULL, &e), PICK_OK);
	ck_assert_uint_eq(e, 2);
	pick_release(&s, e);
}
END_TEST

/* indexed: index mod n, then the nearest entry >= it, wrapping; rotor untouched. */
START_TEST(test_indexed)
{
	struct pick_set s;
	uint64_t e;

	make_set(&s, 130, false);
	pick_set_exists(&s, 5, true);
	pick_set_exists(&s, 129, true);
	ck_assert_int_eq(pick_indexed(&s, PICK_WANT_EXISTING, 0, 6, &e), PICK_OK);
	ck_assert_uint_eq(e, 129);
	pick_release(&s, e);
	ck_assert_int_eq(pick_indexed(&s, PICK_WANT_EXISTING, 0, 130 + 5, &e), PICK_OK);
	ck_assert_uint_eq(e, 5);
	pick_release(&s, e);
	ck_assert_int_eq(pick_indexed(&s, PICK_WANT_EXISTING, 0, 129 + 1, &e), PICK_OK);
	ck_assert_uint_eq(e, 5);     /* 130 mod 130 = 0 -> 5 */
	pick_release(&s, e);
	ck_assert_uint_eq(atomic_load(s.rotor[0]), 0);
	/* the rotor wraps across words */
	atomic_store(s.rotor[0], 100);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, NULL, &e), PICK_OK);
	ck_assert_uint_eq(e, 129);
	pick_release(&s, e);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, NULL, &e), PICK_OK);
	ck_assert_uint_eq(e, 5);
	pick_release(&s, e);
}
END_TEST

/* A private rotor (opennext) leaves the shared one alone. */
START_TEST(test_own_rotor)
{
	struct pick_set s;
	uint64_t e, own = 7;

	make_set(&s, 10, true);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, 0, &own, &e), PICK_OK);
	ck_assert_uint_eq(e, 7);
	ck_assert_uint_eq(own, 8);
	ck_assert_uint_eq(atomic_load(s.rotor[0]), 0);
	pick_release(&s, e);
}
END_TEST

START_TEST(test_not_open)
{
	struct pick_set s;
	uint64_t e;

	make_set(&s, 3, true);
	pick_open_inc(&s, 0);
	pick_open_inc(&s, 1);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, PICK_NOT_OPEN, NULL, &e),
			 PICK_OK);
	ck_assert_uint_eq(e, 2);
	pick_release(&s, e);
	pick_open_inc(&s, 2);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, PICK_NOT_OPEN, NULL, &e),
			 PICK_NONE);
	pick_open_dec(&s, 1);
	ck_assert_int_eq(pick_next(&s, PICK_WANT_EXISTING, PICK_NOT_OPEN, NULL, &e),
			 PICK_OK);
	ck_assert_uint_eq(e, 1);
	pick_release(&s, e);
}
END_TEST

/*
 * Two processes pick, create or delete, and release 200000 times each on
 * 197 entries (a partial last word).  A shared holder count per entry
 * must never exceed one.
 */
START_TEST(test_two_processes)
{
	enum { N = 197, ROUNDS = 200000 };
	struct pick_set s;
	_Atomic uint32_t *holders = shared_zero(N * sizeof(*holders));
	_Atomic uint64_t *picks = shared_zero(sizeof(*picks));
	pid_t pid[2];

	make_set(&s, N, true);
	for (int c = 0; c < 2; c++) {
		pid[c] = fork();
		ck_assert_int_ge(pid[c], 0);
		if (pid[c] == 0) {
			int bad = 0;

			for (int i = 0; i < ROUNDS; i++) {
				enum pick_want w = i % 3 == 2 ? PICK_WANT_ABSENT :
								PICK_WANT_EXISTING;
				uint64_t e;
				enum pick_rc rc = pick_next(&s, w, 0, NULL, &e);

				if (rc != PICK_OK)
					continue;
				if (atomic_fetch_add(&holders[e], 1) != 0)
					bad = 1;
				if (pick_exists(&s, e) != (w == PICK_WANT_EXISTING))
					bad = 1;
				if (i % 5 == 0)
					pick_set_exists(&s, e, w != PICK_WANT_EXISTING);
				atomic_fetch_add(picks, 1);
				atomic_fetch_sub(&holders[e], 1);
				pick_release(&s, e);
			}
			_exit(bad);
		}
	}
	for (int c = 0; c < 2; c++) {
		int st;

		ck_assert_int_eq(waitpid(pid[c], &st, 0), pid[c]);
		ck_assert(WIFEXITED(st));
		ck_assert_msg(WEXITSTATUS(st) == 0, "an entry was held twice at once");
	}
	ck_assert_uint_gt(atomic_load(picks), ROUNDS);
	for (uint64_t e = 0; e < N; e++)
		ck_assert(pick_claim(&s, e));
}
END_TEST

static Suite *pick_suite(void)
{
	Suite *s = suite_create("pick");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_round_robin);
	tcase_add_test(tc, test_busy_skipped);
	tcase_add_test(tc, test_none_or_busy);
	tcase_add_test(tc, test_transitions);
	tcase_add_test(tc, test_indexed);
	tcase_add_test(tc, test_own_rotor);
	tcase_add_test(tc, test_not_open);
	tcase_add_test(tc, test_two_processes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(pick_suite)
