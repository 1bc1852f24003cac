/* The login a fresh connection sends (AUTH with the endpoint's user and
 * password, SELECT of its database), how their replies are judged, and
 * which refusals mean a login is wanted. */
#include <string.h>
#include <hiredis/hiredis.h>
#include "unit.h"
#include "../transport/rl_handshake.h"
#include "../base/rl_status.h"

/* The commands and the count rl_handshake_append gives for an endpoint. */
#define LOGIN_IS(user, pass, db, n, lit) login_is(user, pass, db, n, lit, sizeof(lit) - 1)
static void login_is(const char *user, const char *pass, long db, int n, const char *want, size_t want_len)
{
    rl_conn *c = unit_conn(user, pass, db);
    int got = rl_handshake_append(c, 1);
    CHECK(got == n && c->owed == n && unit_out_is(c, want, want_len), "login of %s/%s/%ld: %d commands",
          user ? user : "-", pass ? "***" : "-", db, got);
    rl_conn_free(c);
}

/* What rl_handshake_judge says of the nth reply on a connection to the endpoint. */
static int judged(const char *pass, long db, int nth, const char *resp, char *err, size_t errlen)
{
    rl_conn *c = unit_conn(NULL, pass, db);
    redisReply *r = unit_reply(resp, strlen(resp));
    int rc = r ? rl_handshake_judge(c, nth, r, err, errlen) : 99;
    freeReplyObject(r);
    rl_conn_free(c);
    return rc;
}

static int wants_login(const char *resp, char *err, size_t errlen)
{
    redisReply *r = unit_reply(resp, strlen(resp));
    int v = r ? rl_reply_wants_login(r, err, errlen) : 99;
    freeReplyObject(r);
    return v;
}

UNIT_TEST(test_handshake_commands)
{
    LOGIN_IS(NULL, NULL, 0, 0, "");
    LOGIN_IS(NULL, "secret", 0, 1, "*2\r\n$4\r\nAUTH\r\n$6\r\nsecret\r\n");
    LOGIN_IS("alice", "secret", 0, 1, "*3\r\n$4\r\nAUTH\r\n$5\r\nalice\r\n$6\r\nsecret\r\n");
    LOGIN_IS("alice", NULL, 0, 0, ""); /* a user without a password logs in as nobody */
    LOGIN_IS("default", "secret", 0, 1, "*2\r\n$4\r\nAUTH\r\n$6\r\nsecret\r\n"); /* Redis before 6 too */
    LOGIN_IS("Default", "secret", 0, 1,
             "*3\r\n$4\r\nAUTH\r\n$7\r\nDefault\r\n$6\r\nsecret\r\n"); /* ACL names are case-sensitive */
    LOGIN_IS(NULL, NULL, 3, 1, "*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n");
    LOGIN_IS("alice", "secret", 15, 2,
             "*3\r\n$4\r\nAUTH\r\n$5\r\nalice\r\n$6\r\nsecret\r\n*2\r\n$6\r\nSELECT\r\n$2\r\n15\r\n");
}

UNIT_TEST(test_handshake_judged)
{
    char err[128];

    CHECK(judged("secret", 2, 0, "+OK\r\n", err, sizeof err) == 0, "AUTH accepted");
    CHECK(judged("secret", 2, 1, "+OK\r\n", err, sizeof err) == 0, "SELECT accepted");
    CHECK(judged("secret", 2, 0, "-WRONGPASS invalid username-password pair\r\n", err, sizeof err) == RL_E_AUTH
              && strcmp(err, "AUTH refused: WRONGPASS invalid username-password pair") == 0,
          "AUTH refused: %s", err);
    CHECK(judged("secret", 99, 1, "-ERR DB index is out of range\r\n", err, sizeof err) == RL_E_REPLY
              && strcmp(err, "SELECT refused: ERR DB index is out of range") == 0,
          "SELECT refused after AUTH: %s", err);
    CHECK(judged(NULL, 99, 0, "-ERR DB index is out of range\r\n", err, sizeof err) == RL_E_REPLY
              && strncmp(err, "SELECT refused", 14) == 0,
          "SELECT first without a password: %s", err);
}

UNIT_TEST(test_handshake_login_wanted)
{
    char err[64] = "as the judge wrote it";

    CHECK(wants_login("-NOAUTH Authentication required.\r\n", err, sizeof err) == 1
              && strcmp(err, "as the judge wrote it") == 0,
          "NOAUTH, err untouched");
    CHECK(wants_login("-WRONGPASS invalid username-password pair\r\n", err, sizeof err) == 1, "WRONGPASS");
    CHECK(wants_login("-ERR Protocol error: unauthenticated multibulk length\r\n", err, sizeof err) == 1
              && strcmp(err, "NOAUTH Authentication required.") == 0,
          "a long command refused unauthenticated: %s", err);
    CHECK(wants_login("-ERR unknown command\r\n", err, sizeof err) == 0, "another error");
    CHECK(wants_login("-NOSCRIPT No matching script\r\n", err, sizeof err) == 0, "NOSCRIPT");
    CHECK(wants_login("+NOAUTH\r\n", err, sizeof err) == 0, "a status is no refusal");
}

/* The name a connection gives itself: LIB-NAME, then LIB-VER once a
 * version is set (only up to a space or a line break: it is one argument);
 * then the MSETEX probe, whose reply is read among the discards. */
#define PROBE                                                                                       \
    "*5\r\n$7\r\nCOMMAND\r\n$4\r\nLIST\r\n$8\r\nFILTERBY\r\n$7\r\nPATTERN\r\n$10\r\n[dm]*e[xq]\r\n" \
    "*3\r\n$6\r\nCONFIG\r\n$3\r\nGET\r\n$10\r\nmaxmemory*\r\n"                                      \
    "*3\r\n$7\r\nEVALSHA\r\n$40\r\n0000000000000000000000000000000000000000\r\n$1\r\n0\r\n"
UNIT_TEST(test_handshake_identify)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    rl_handshake_set_version("");
    CHECK(rl_identify_append(c, 1) == 4
              && UNIT_OUT_IS(c, "*4\r\n$6\r\nCLIENT\r\n$7\r\nSETINFO\r\n$8\r\nLIB-NAME\r\n$9\r\nredislock\r\n" PROBE)
              && c->probe_in[RL_PROBE_COMMANDS] == 1 && c->probe_in[RL_PROBE_EVICT] == 2
              && c->probe_in[RL_PROBE_SCRIPTS] == 3,
          "no version: the name alone, then the probes");
    rl_conn_free(c);
    c = unit_conn(NULL, NULL, 0);
    rl_handshake_set_version("1.2.3 extra\r\nFLUSHALL");
    CHECK(rl_identify_append(c, 1) == 5
              && UNIT_OUT_IS(c, "*4\r\n$6\r\nCLIENT\r\n$7\r\nSETINFO\r\n$8\r\nLIB-NAME\r\n$9\r\nredislock\r\n"
                                "*4\r\n$6\r\nCLIENT\r\n$7\r\nSETINFO\r\n$7\r\nLIB-VER\r\n$5\r\n1.2.3\r\n" PROBE)
              && c->probe_in[RL_PROBE_COMMANDS] == 2 && c->probe_in[RL_PROBE_EVICT] == 3
              && c->probe_in[RL_PROBE_SCRIPTS] == 4,
          "the name and the version, cut at the space");
    rl_handshake_set_version("");
    rl_conn_free(c);
}

/* A connection that owes two discards, the second the reply to probe
 * which, and has read the first. */
static rl_conn *conn_past_one_discard(rl_probe which)
{
    rl_conn *c = unit_conn(NULL, NULL, 0);
    void *before = unit_reply("+OK\r\n", 5);
    c->probe_in[which] = 1;
    rl_conn_owe_discards(c, 2);
    rl_conn_discard_one(c, before);
    freeReplyObject(before);
    return c;
}

/* The probe's reply, read as a discard after those before it: each name
 * listed says the server has that command (any case, in any order, among
 * others the glob matches); an empty list, an error or another shape that
 * it has none of them. */
UNIT_TEST(test_handshake_caps_probe)
{
    static const struct {
        const char *reply;
        int msetex, delex, delifeq;
    } cases[] = {
        {"*1\r\n$6\r\nmsetex\r\n", 1, 0, 0},
        {"*1\r\n$6\r\nMSETEX\r\n", 1, 0, 0},
        {"*2\r\n$5\r\ndelex\r\n$6\r\nmsetex\r\n", 1, 1, 0},                  /* Redis 8.4+ */
        {"*3\r\n$7\r\ndelifeq\r\n$6\r\nmsetex\r\n$5\r\nDELEX\r\n", 1, 1, 1}, /* Valkey 9.2 */
        {"*2\r\n$7\r\nDelIfEq\r\n$9\r\ndumpindex\r\n", 0, 0, 1},             /* an unknown name: ignored */
        {"*0\r\n", 0, 0, 0},
        {"-ERR unknown subcommand 'LIST'\r\n", 0, 0, 0},
        {"-NOPERM this user has no permissions to run the 'command|list' command\r\n", 0, 0, 0},
        {"*1\r\n$5\r\nmsetx\r\n", 0, 0, 0},
        {"*2\r\n$8\r\ndelifeqx\r\n$4\r\ndele\r\n", 0, 0, 0}, /* prefixes, longer names */
        {"*1\r\n*1\r\n$5\r\ndelex\r\n", 0, 0, 0},            /* nested: not a name */
        {":1\r\n", 0, 0, 0},
        {"$5\r\ndelex\r\n", 0, 0, 0}, /* a string, not a list */
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_conn *c = conn_past_one_discard(RL_PROBE_COMMANDS);
        void *probe = unit_reply(cases[i].reply, strlen(cases[i].reply));
        CHECK(c->caps.msetex == -1 && c->caps.delex == -1 && c->caps.delifeq == -1
                  && c->probe_in[RL_PROBE_COMMANDS] == 0,
              "case %zu: not before its reply", i);
        rl_conn_discard_one(c, probe);
        CHECK(c->caps.msetex == cases[i].msetex && c->caps.delex == cases[i].delex
                  && c->caps.delifeq == cases[i].delifeq && c->probe_in[RL_PROBE_COMMANDS] == -1 && c->discard == 0,
              "case %zu: %d %d %d", i, c->caps.msetex, c->caps.delex, c->caps.delifeq);
        freeReplyObject(probe);
        rl_conn_close(c);
        CHECK(c->caps.msetex == -1 && c->caps.delex == -1 && c->caps.delifeq == -1,
              "case %zu: closed, forgotten (the next socket may reach another server)", i);
        rl_conn_free(c);
    }
}

/* The scripts probe's reply (EVALSHA of a SHA1 no script has): NOSCRIPT
 * says scripts run; a refusal keeps the server's words, cut before their
 * echo of the arguments; anything else is not known. A lock could not be
 * released only where scripts are refused and no native release exists. */
UNIT_TEST(test_handshake_scripts_probe)
{
    static const struct {
        const char *reply;
        int scripts;
        const char *words;
    } cases[] = {
        {"-NOSCRIPT No matching script. Please use EVAL.\r\n", 1, ""},
        {"-NOPERM User u has no permissions to run the 'evalsha' command\r\n", 0,
         "NOPERM User u has no permissions to run the 'evalsha' command"},
        {"-ERR unknown command 'EVALSHA', with args beginning with: '0000' \r\n", 0, "ERR unknown command 'EVALSHA'"},
        {"-ERR Could not find scripting engine 'lua'\r\n", 0, "ERR Could not find scripting engine 'lua'"},
        {"-BUSY Redis is busy running a script.\r\n", -1, ""},
        {"-NOPERM this user has no permissions to access one of the keys\r\n", -1, ""},
        {"+OK\r\n", -1, ""},
        {":1\r\n", -1, ""},
        {"*0\r\n", -1, ""},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_conn *c = conn_past_one_discard(RL_PROBE_SCRIPTS);
        void *probe = unit_reply(cases[i].reply, strlen(cases[i].reply));
        CHECK(c->caps.scripts == -1 && c->probe_in[RL_PROBE_SCRIPTS] == 0, "case %zu: not before its reply", i);
        rl_conn_discard_one(c, probe);
        CHECK(c->caps.scripts == cases[i].scripts && strcmp(c->caps.scripts_refusal, cases[i].words) == 0
                  && c->probe_in[RL_PROBE_SCRIPTS] == -1,
              "case %zu: %d '%s'", i, c->caps.scripts, c->caps.scripts_refusal);
        c->caps.delex = c->caps.delifeq = 0;
        CHECK(rl_caps_cannot_release(&c->caps) == (cases[i].scripts == 0), "case %zu: no native release", i);
        c->caps.delifeq = 1;
        CHECK(!rl_caps_cannot_release(&c->caps), "case %zu: DELIFEQ releases", i);
        c->caps.delifeq = 0;
        c->caps.delex = 1;
        CHECK(!rl_caps_cannot_release(&c->caps), "case %zu: DELEX releases", i);
        freeReplyObject(probe);
        rl_conn_close(c);
        CHECK(c->caps.scripts == -1 && c->caps.scripts_refusal[0] == '\0' && !rl_caps_cannot_release(&c->caps),
              "case %zu: closed, forgotten", i);
        rl_conn_free(c);
    }
}
