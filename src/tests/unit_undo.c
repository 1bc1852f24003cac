/* Deferred undos: a lock that timed out on a node is released, as EVAL,
 * before the next command to that node; at most RL_CONN_MAX_UNDO are kept. */
#include <string.h>
#include "unit.h"
#include "../lock/rl_lock_state.h"
#include "../lock/rl_lockops.h"
#include "../lock/rl_scripts.h"

UNIT_TEST(test_deferred_undos)
{
    rl_endpoint ep = {0};
    rl_conn *c;
    const char *src = rl_script_source(RL_SCRIPT_RELEASE);
    char want[4096];
    int i, len;

    ep.host = "h";
    ep.port = 1;
    c = rl_conn_new(&ep, RL_ROLE_COMMAND);
    rl_undo_defer(c, "lock:a", 6, "tok1", 4);
    CHECK(rl_undos_append(c, 1) == 1 && rl_undos_pending(c) == 0 && c->owed == 1, "one undo appended");
    /* the release script with all its keys: the lock, then its queue,
     * reservation, shared holders and 16 wake streams, each the lock key,
     * NUL, a letter, and the tag of the lock key's slot (6035: "0j4") */
#define W(c) "$13\r\nlock:a_" c "{0j4}\r\n"
    len = snprintf(want, sizeof want,
                   "*24\r\n$4\r\nEVAL\r\n$%zu\r\n%s\r\n$2\r\n20\r\n$6\r\nlock:a\r\n"
                   "$13\r\nlock:a_q{0j4}\r\n$13\r\nlock:a_r{0j4}\r\n$13\r\nlock:a_s{0j4}\r\n" W("A") W("B") W("C")
                       W("D") W("E") W("F") W("G") W("H") W("I") W("J") W("K") W("L") W("M") W("N") W("O")
                           W("P") "$4\r\ntok1\r\n",
                   strlen(src), src);
#undef W
    for (i = 0; i < len; i++) { /* snprintf stops at a NUL: the key separators are written as '_' */
        if (want[i] == '_') {
            want[i] = '\0';
        }
    }
    CHECK(c->out_len == (size_t)len && memcmp(c->out, want, (size_t)len) == 0, "undo encoded as '%.*s'",
          (int)c->out_len, c->out);
    CHECK(rl_undos_append(c, 1) == 0, "undos sent twice");
    for (i = 0; i < RL_CONN_MAX_UNDO + 3; i++) {
        rl_undo_defer(c, "lock:b", 6, "tok2", 4);
    }
    CHECK(rl_undos_pending(c) == RL_CONN_MAX_UNDO, "kept %d undos", rl_undos_pending(c));
    rl_conn_free(c); /* frees what was never sent */
}
