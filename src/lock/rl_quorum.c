#include "rl_quorum.h"
#include "../base/rl_status.h"

size_t rl_quorum_of(size_t n)
{
    return n / 2 + 1;
}

static int failed(const rl_vote *v)
{
    return v->err.code != RL_OK && v->err.code != RL_E_SKIPPED;
}

void rl_count_votes(rl_count *c, const rl_vote *votes, size_t n)
{
    size_t i;
    c->n = n;
    c->quorum = rl_quorum_of(n);
    c->yes = c->no = c->failed = c->skipped = 0;
    for (i = 0; i < n; i++) {
        if (votes[i].err.code == RL_OK) {
            votes[i].yes ? c->yes++ : c->no++;
        } else if (votes[i].err.code == RL_E_SKIPPED) {
            c->skipped++;
        } else {
            c->failed++;
        }
    }
}

rl_outcome rl_decide(const rl_count *c, int64_t until_us, int64_t now_us)
{
    if (c->failed > c->n - c->quorum) {
        return RL_NO_QUORUM;
    }
    if (c->yes >= c->quorum && (until_us == 0 || until_us > now_us)) {
        return RL_WON;
    }
    return RL_LOST;
}

int64_t rl_valid_until(int64_t start_us, long long ttl_ms, double drift_factor, int drift)
{
    long long allowance = drift ? (long long)((double)ttl_ms * drift_factor) + 2 : 0;
    return start_us + (int64_t)(ttl_ms - allowance) * 1000;
}

int rl_needs_undo(const rl_vote *v)
{
    return v->sent && !(v->err.code == RL_OK && !v->yes);
}

int rl_granted(const rl_vote *v)
{
    return v->sent && v->err.code == RL_OK && v->yes;
}

int rl_attempt_needs_undo(const rl_count *c)
{
    return c->yes > 0 || c->failed > 0 || c->skipped > 0;
}

long long rl_shortest_pttl(const rl_vote *votes, size_t n)
{
    long long best = -1;
    size_t i;
    for (i = 0; i < n; i++) {
        const rl_vote *v = &votes[i];
        long long p = v->value == -2 ? 0 : v->value; /* -2: expired just now */
        if (v->err.code == RL_OK && !v->yes && p >= 0 && (best < 0 || p < best)) {
            best = p;
        }
    }
    return best;
}

long long rl_fence_of(const rl_vote *votes, size_t n)
{
    long long best = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (votes[i].err.code == RL_OK && votes[i].yes && votes[i].value > best) {
            best = votes[i].value;
        }
    }
    return best;
}

int rl_fence_needs_raise(const rl_vote *v, long long fence)
{
    return v->err.code == RL_OK && v->yes && v->value < fence;
}

int rl_extend_wants_shared(const rl_vote *votes, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (votes[i].err.code == RL_OK && !votes[i].yes && votes[i].value == -1) {
            return 1;
        }
    }
    return 0;
}

int rl_failure_status(const rl_vote *votes, size_t n)
{
    int status = RL_OK;
    size_t i;
    for (i = 0; i < n; i++) {
        if (!failed(&votes[i])) {
            continue;
        }
        if (status != RL_OK && status != votes[i].err.code) {
            return rl_failure_is_connection(votes, n) ? RL_E_NODES_UNREACHABLE : RL_E_NODES;
        }
        status = votes[i].err.code;
    }
    return status;
}

int rl_failure_is_connection(const rl_vote *votes, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (failed(&votes[i]) && !rl_status_is_connection(votes[i].err.code)) {
            return 0;
        }
    }
    return 1;
}

size_t rl_quorum_count(const rl_vote *votes, size_t n, size_t quorum)
{
    long long best = 0;
    size_t i, j;
    for (i = 0; i < n; i++) {
        const rl_vote *a = &votes[i];
        size_t reached = 0;
        if (a->err.code != RL_OK || !a->yes || a->value <= best) {
            continue;
        }
        for (j = 0; j < n; j++) {
            reached += votes[j].err.code == RL_OK && votes[j].yes && votes[j].value >= a->value;
        }
        if (reached >= quorum) {
            best = a->value;
        }
    }
    return (size_t)best;
}
