/* The core's unit-test harness: CHECK counts a pass or prints a failure;
 * UNIT_TEST(name) defines a test that registers itself, so each area keeps
 * its tests in a file of its own and no list has to be edited. */
#ifndef RL_UNIT_H
#define RL_UNIT_H
#include <stdio.h>

extern int unit_passed, unit_failed;

#define CHECK(cond, ...) do { \
    if (cond) { unit_passed++; } else { unit_failed++; \
        printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
} while (0)

void unit_register(const char *name, void (*fn)(void));

#define UNIT_TEST(name) \
    static void name(void); \
    __attribute__((constructor)) static void name##_register(void) { unit_register(#name, name); } \
    static void name(void)

#endif
