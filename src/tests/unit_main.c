/* Runs every registered unit test; prints "core unit tests: N passed, M failed"
 * counting tests (a test passes when all its checks do), with the checks'
 * count before it. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"

int unit_passed, unit_failed;

#define MAX_TESTS 256
static struct {
    const char *name;
    void (*fn)(void);
} tests[MAX_TESTS];
static int ntests;

void unit_register(const char *name, void (*fn)(void))
{
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "too many unit tests: raise MAX_TESTS\n");
        exit(2);
    }
    tests[ntests].name = name;
    tests[ntests++].fn = fn;
}

/* argv[1], when given: run only the tests whose name contains it. */
int main(int argc, char **argv)
{
    int i, passed = 0, failed = 0;
    for (i = 0; i < ntests; i++) {
        int before = unit_failed;
        if (argc > 1 && strstr(tests[i].name, argv[1]) == NULL) {
            continue;
        }
        tests[i].fn();
        if (unit_failed == before) {
            passed++;
        } else {
            failed++;
            printf("FAILED %s\n", tests[i].name);
        }
    }
    printf("core unit checks: %d passed, %d failed\n", unit_passed, unit_failed);
    printf("core unit tests: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
