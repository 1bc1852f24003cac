/* The core's unit-test harness: CHECK counts a pass or prints a failure;
 * UNIT_TEST(name) defines a test that registers itself, so each area keeps
 * its tests in a file of its own and no list has to be edited. */
#ifndef RL_UNIT_H
#define RL_UNIT_H
#include <stddef.h>
#include <stdio.h>

extern int unit_passed, unit_failed;

#define CHECK(cond, ...)                                \
    do {                                                \
        if (cond) {                                     \
            unit_passed++;                              \
        } else {                                        \
            unit_failed++;                              \
            printf("FAIL %s:%d: ", __FILE__, __LINE__); \
            printf(__VA_ARGS__);                        \
            printf("\n");                               \
        }                                               \
    } while (0)

void unit_register(const char *name, void (*fn)(void));

/* unit_support.c: a redisReply * parsed from RESP (NULL if it does not
 * parse; free it with freeReplyObject), and a closed connection to the
 * endpoint with these user, password (NULL: none) and database. */
void *unit_reply(const char *resp, size_t len);
#define UNIT_REPLY(lit) unit_reply(lit, sizeof(lit) - 1)
struct rl_conn;
struct rl_conn *unit_conn(const char *user, const char *password, long database);

/* Whether c's output buffer holds exactly want_len bytes of want. */
int unit_out_is(const struct rl_conn *c, const char *want, size_t want_len);
#define UNIT_OUT_IS(c, lit) unit_out_is(c, lit, sizeof(lit) - 1)

#define UNIT_TEST(name)                                            \
    static void name(void);                                        \
    __attribute__((constructor)) static void name##_register(void) \
    {                                                              \
        unit_register(#name, name);                                \
    }                                                              \
    static void name(void)

#endif
