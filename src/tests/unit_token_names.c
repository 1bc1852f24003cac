/* Tokens that name their holder (option holder_names): the random part, a
 * space and the name, cut and cleaned; only such a token gives a name back. */
#include <string.h>
#include "unit.h"
#include "../base/rl_token.h"

UNIT_TEST(test_token_named)
{
    char t[RL_NAMED_TOKEN_MAX + 1], long_name[300];
    const char *name;
    size_t len, n;

    n = rl_token_named(t, "web-3 pid=42 GET /cart", 22);
    name = rl_token_holder(t, n, &len);
    CHECK(n == RL_TOKEN_LEN + 1 + 22 && name != NULL && len == 22 && memcmp(name, "web-3 pid=42 GET /cart", 22) == 0,
          "named: %s", t);
    n = rl_token_named(t, "a\nb\x7f", 4);
    name = rl_token_holder(t, n, &len);
    CHECK(name != NULL && len == 4 && memcmp(name, "a?b?", 4) == 0, "control bytes as '?'");
    memset(long_name, 'x', sizeof long_name);
    n = rl_token_named(t, long_name, sizeof long_name);
    CHECK(n == RL_NAMED_TOKEN_MAX && strlen(t) == n, "cut at RL_HOLDER_NAME_MAX");
    memset(long_name, 'x', sizeof long_name);
    memcpy(long_name + RL_HOLDER_NAME_MAX - 1, "\xc3\xa9", 2); /* an e-acute across the cut */
    n = rl_token_named(t, long_name, sizeof long_name);
    CHECK(n == RL_NAMED_TOKEN_MAX - 1 && (unsigned char)t[n - 1] == 'x', "cut before a character the limit splits");
    n = rl_token_named(t, NULL, 0);
    CHECK(n == RL_TOKEN_LEN && rl_token_holder(t, n, &len) == NULL && len == 0, "no name: a plain token");
    CHECK(rl_token_holder("job 7 of the nightly batch, an owner name of the caller", 55, &len) == NULL,
          "an owner's own token is not read as a name");
}

UNIT_TEST(test_token_names_another)
{
    char t[RL_NAMED_TOKEN_MAX + 1], other[RL_NAMED_TOKEN_MAX + 1];
    size_t n = rl_token_named(t, "web-3 pid=42", 12);

    CHECK(n > 0 && !rl_token_names_another(t, n), "a named token this party made may come back");
    memcpy(other, t, n + 1);
    other[0] = other[0] == 'a' ? 'b' : 'a'; /* another party's id */
    CHECK(rl_token_names_another(other, n), "another party's named token, or one made up");
    CHECK(rl_token_names_another("0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f web-1 POST /admin", 50), "a made-up one");
    CHECK(!rl_token_names_another(t, RL_TOKEN_LEN), "a plain token names nobody");
    CHECK(!rl_token_names_another("job-7", 5), "an owner name of another shape");
    CHECK(!rl_token_names_another("0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F web-1", 38), "upper-case hex: not the shape");
}
