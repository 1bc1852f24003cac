/* TLS contexts: one per distinct settings, kept; their identity is exact
 * and holds no passphrase; the pool key tells TLS settings apart. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "../transport/rl_tls.h"
#include "../transport/rl_pool_key.h"

static rl_tls_config base(void)
{
    rl_tls_config c;
    memset(&c, 0, sizeof c);
    c.verify_peer = 1;
    c.verify_peer_name = 1;
    return c;
}

UNIT_TEST(test_tls_ctx_per_settings)
{
    char err[300];
    rl_tls_config a = base(), b = base();
    rl_tls_ctx *ca, *cb, *cc;
    const char *kb;
    size_t lb;

    ca = rl_tls_ctx_get(&a, err, sizeof err);
    CHECK(ca != NULL, "default context: %s", err);
    CHECK(rl_tls_ctx_get(&b, err, sizeof err) == ca, "same settings, another context");
    b.peer_name = "redis.example";
    cb = rl_tls_ctx_get(&b, err, sizeof err);
    CHECK(cb != NULL && cb != ca, "peer_name shares a context");
    b = base();
    b.verify_peer_name = 0;
    cc = rl_tls_ctx_get(&b, err, sizeof err);
    CHECK(cc != NULL && cc != ca && cc != cb, "verify_peer_name shares a context");

    /* a passphrase is part of the identity, as a digest only */
    b = base();
    b.passphrase = "unit-SECRET-passphrase";
    cb = rl_tls_ctx_get(&b, err, sizeof err);
    CHECK(cb != NULL && cb != ca, "passphrase shares a context");
    kb = rl_tls_ctx_key(cb, &lb);
    CHECK(memmem(kb, lb, "unit-SECRET", 11) == NULL, "passphrase in the key");
    b.passphrase = "unit-SECRET-passphrasf";
    CHECK(rl_tls_ctx_get(&b, err, sizeof err) != cb, "two passphrases share a context");

    /* files that do not load are errors naming their key */
    a = base();
    b = base();
    a.cafile = "/x";
    CHECK(rl_tls_ctx_get(&a, err, sizeof err) == NULL, "a missing cafile loaded");
    CHECK(strstr(err, "\"cafile\"") != NULL, "error does not name cafile: %s", err);
    b.local_pk = "/k";
    CHECK(rl_tls_ctx_get(&b, err, sizeof err) == NULL && strstr(err, "local_cert") != NULL,
          "local_pk without local_cert: %s", err);

    /* the pool key carries the context's identity */
    {
        rl_endpoint e1 = {0}, e2 = {0};
        char *k1, *k2;
        size_t l1, l2;
        e1.host = e2.host = "127.0.0.1";
        e1.port = e2.port = 6380;
        e1.tls = e2.tls = 1;
        e1.tls_key = rl_tls_ctx_key(ca, &e1.tls_key_len);
        e2.tls_key = rl_tls_ctx_key(cc, &e2.tls_key_len);
        CHECK(rl_pool_key(&e1, RL_ROLE_COMMAND, NULL, 0, &k1, &l1) == 0
                  && rl_pool_key(&e2, RL_ROLE_COMMAND, NULL, 0, &k2, &l2) == 0,
              "pool key");
        CHECK(l1 != l2 || memcmp(k1, k2, l1) != 0, "TLS settings share a pool key");
        free(k1);
        free(k2);
    }
    rl_tls_shutdown();
}
