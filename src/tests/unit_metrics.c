/* Pool-wide metrics (src/base/rl_metrics.h): counts and buckets, shared
 * with a child forked after open (php-fpm's workers), and the Prometheus
 * text. */
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "unit.h"
#include "../base/rl_metrics.h"

static int has(const char *text, const char *line)
{
    return strstr(text, line) != NULL;
}

UNIT_TEST(test_metrics_counts_and_buckets)
{
    rl_metrics_view v;
    rl_metrics_close();
    rl_metrics_count(RL_M_ACQUIRED, 1); /* closed: a no-op */
    rl_metrics_read(&v);
    CHECK(v.counters[RL_M_ACQUIRED] == 0 && !rl_metrics_shared(), "closed: zeros");
    CHECK(rl_metrics_open() == 0 && rl_metrics_open() == 0 && rl_metrics_shared(), "open, twice, shared");
    rl_metrics_count(RL_M_ACQUIRED, 2);
    rl_metrics_count(RL_M_ACQUIRED, 0);
    rl_metrics_count(RL_M_COUNT, 5); /* out of range: ignored */
    rl_metrics_error(RL_E_TIMEOUT);
    rl_metrics_error(RL_E_TIMEOUT);
    rl_metrics_error(99); /* an unknown code: not counted */
    rl_metrics_count(RL_M_FAILED, 1);
    rl_metrics_observe(RL_H_WAITED, 500);      /* on the first bound: its bucket */
    rl_metrics_observe(RL_H_WAITED, 501);      /* just past: the next */
    rl_metrics_observe(RL_H_WAITED, -3);       /* a clock step back: 0 */
    rl_metrics_observe(RL_H_WAITED, 60000000); /* past the last bound: +Inf */
    rl_metrics_observe(RL_H_COUNT, 1);
    rl_metrics_read(&v);
    CHECK(v.counters[RL_M_ACQUIRED] == 2, "acquired %llu", (unsigned long long)v.counters[RL_M_ACQUIRED]);
    CHECK(v.counters[RL_M_FAILED] == 1 && v.errors[RL_E_TIMEOUT] == 2, "failed 1, timed out 2");
    CHECK(v.hist[RL_H_WAITED].buckets[0] == 2 && v.hist[RL_H_WAITED].buckets[1] == 1
              && v.hist[RL_H_WAITED].buckets[RL_METRICS_BUCKETS] == 1 && v.hist[RL_H_WAITED].count == 4
              && v.hist[RL_H_WAITED].sum_us == 500 + 501 + 60000000 && v.hist[RL_H_HELD].count == 0,
          "buckets");
    rl_metrics_close();
}

/* A child forked after open adds to the parent's numbers (php-fpm's
 * workers, forked by the master after the module started). */
UNIT_TEST(test_metrics_shared_with_forked_children)
{
    rl_metrics_view v;
    int i, status, ok = 1;
    rl_metrics_close();
    CHECK(rl_metrics_open() == 0, "open");
    for (i = 0; i < 3; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            int k;
            for (k = 0; k < 1000; k++) {
                rl_metrics_count(RL_M_HANDOFFS, 1);
                rl_metrics_observe(RL_H_HELD, 2000);
            }
            _exit(0);
        }
        ok = ok && pid > 0;
    }
    while (wait(&status) > 0) {
        ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    rl_metrics_read(&v);
    CHECK(ok && v.counters[RL_M_HANDOFFS] == 3000 && v.hist[RL_H_HELD].count == 3000
              && v.hist[RL_H_HELD].buckets[2] == 3000,
          "3 children's 1000 each: %llu", (unsigned long long)v.counters[RL_M_HANDOFFS]);
    rl_metrics_close();
}

UNIT_TEST(test_metrics_prometheus_text)
{
    rl_metrics_view v;
    char small[16], *text;
    size_t need;
    memset(&v, 0, sizeof v);
    v.counters[RL_M_ACQUIRED] = 7;
    v.errors[RL_E_CONNECT] = 4;
    v.hist[RL_H_WAITED].buckets[0] = 1;
    v.hist[RL_H_WAITED].buckets[3] = 2;
    v.hist[RL_H_WAITED].buckets[RL_METRICS_BUCKETS] = 1;
    v.hist[RL_H_WAITED].sum_us = 12345678;
    need = rl_metrics_prometheus(&v, NULL, 0);
    text = malloc(need + 1);
    CHECK(text != NULL && rl_metrics_prometheus(&v, text, need + 1) == need && strlen(text) == need, "length");
    CHECK(has(text, "# TYPE redislock_acquired_total counter\nredislock_acquired_total 7\n"), "a counter");
    CHECK(has(text, "redislock_errors_total{code=\"1\",reason=\"connect failed\"} 4\n")
              && has(text, "redislock_errors_total{code=\"2\",reason=\"timed out\"} 0\n") && !has(text, "code=\"8\""),
          "errors by code, never-thrown 8 left out:\n%s", text);
    CHECK(has(text, "# TYPE redislock_wait_seconds histogram\n"
                    "redislock_wait_seconds_bucket{le=\"0.000500\"} 1\n"
                    "redislock_wait_seconds_bucket{le=\"0.001000\"} 1\n"
                    "redislock_wait_seconds_bucket{le=\"0.002500\"} 1\n"
                    "redislock_wait_seconds_bucket{le=\"0.005000\"} 3\n"),
          "cumulative buckets");
    CHECK(has(text, "redislock_wait_seconds_bucket{le=\"+Inf\"} 4\nredislock_wait_seconds_sum 12.345678\n"
                    "redislock_wait_seconds_count 4\n"),
          "+Inf, sum, count");
    CHECK(has(text, "redislock_held_seconds_count 0\n"), "an empty histogram");
    CHECK(rl_metrics_prometheus(&v, small, sizeof small) == need && strlen(small) == sizeof small - 1,
          "a short buffer: cut and terminated, the full length returned");
    free(text);
    CHECK(strcmp(rl_metric_name(RL_M_AUTO_RELEASED), "auto_released") == 0
              && strcmp(rl_metric_name(RL_M_COUNT), "unknown") == 0,
          "names");
}
