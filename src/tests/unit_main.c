/* Runs every registered unit test; prints "core unit tests: N passed, M failed". */
#include <stdlib.h>
#include "unit.h"

int unit_passed, unit_failed;

#define MAX_TESTS 128
static struct { const char *name; void (*fn)(void); } tests[MAX_TESTS];
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

int main(void)
{
    int i;
    for (i = 0; i < ntests; i++) {
        tests[i].fn();
    }
    printf("core unit tests: %d passed, %d failed\n", unit_passed, unit_failed);
    return unit_failed != 0;
}
