/* tests/lint/test_main_stack.c -- el_main_stack_take (lint/engine/
 * main_stack.h) lets only the main thread lint on its own stack, raises
 * the soft stack limit to what is asked and no further than the hard
 * limit (tests/lint/test_robust.c: an 8 MiB hard limit), refuses what
 * the room below the stack cannot hold, and el_main_stack_give_back puts
 * the limit back. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "lint_test.h"
#include "main_stack.h"

#define MIB (1u << 20)

static struct rlimit stack_limit(void)
{
    struct rlimit rl;
    assert_int_equal(getrlimit(RLIMIT_STACK, &rl), 0);
    return rl;
}

static void set_soft(rlim_t soft)
{
    struct rlimit rl = stack_limit();
    rl.rlim_cur = soft;
    assert_int_equal(setrlimit(RLIMIT_STACK, &rl), 0);
}

static void test_raised_then_put_back(void **state)
{
    (void)state;
    struct rlimit before = stack_limit();
    if (before.rlim_max != RLIM_INFINITY && before.rlim_max < 64 * MIB)
        skip(); /* the hard limit leaves nothing to test */
    set_soft(8 * MIB);
    el_main_stack s;
    assert_true(el_main_stack_take(&s, 64 * MIB));
    assert_true(s.raised);
    assert_int_equal(stack_limit().rlim_cur, 64 * MIB);
    el_main_stack_give_back(&s);
    assert_int_equal(stack_limit().rlim_cur, 8 * MIB);
    assert_int_equal(stack_limit().rlim_max, before.rlim_max);
    /* enough already: nothing raised, nothing to put back */
    assert_true(el_main_stack_take(&s, 4 * MIB));
    assert_false(s.raised);
    el_main_stack_give_back(&s);
    assert_int_equal(stack_limit().rlim_cur, 8 * MIB);
    set_soft(before.rlim_cur);
}

static void test_more_than_the_room(void **state)
{
    (void)state;
    struct rlimit before = stack_limit();
    if (before.rlim_max != RLIM_INFINITY)
        skip(); /* (the hard limit would refuse first) */
    el_main_stack s;
    /* 64 TiB: more than the address space below any stack */
    assert_false(el_main_stack_take(&s, (size_t)1 << 46));
    assert_false(s.raised);
    assert_int_equal(stack_limit().rlim_cur, before.rlim_cur);
}

static void *take_on_a_thread(void *arg)
{
    el_main_stack *s = arg;
    return el_main_stack_take(s, 16 * MIB) ? s : NULL;
}

static void test_not_on_another_thread(void **state)
{
    (void)state;
    struct rlimit before = stack_limit();
    el_main_stack s;
    pthread_t t;
    void *got = &s;
    assert_int_equal(pthread_create(&t, NULL, take_on_a_thread, &s), 0);
    assert_int_equal(pthread_join(t, &got), 0);
    assert_null(got);
    assert_false(s.raised);
    assert_int_equal(stack_limit().rlim_cur, before.rlim_cur);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raised_then_put_back),
        cmocka_unit_test(test_more_than_the_room),
        cmocka_unit_test(test_not_on_another_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
