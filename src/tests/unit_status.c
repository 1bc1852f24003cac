/* The one map from a status to its exception class (docs/errors.md's
 * table is checked against it by scripts/check-errors.sh). */
#include "unit.h"
#include "../base/rl_status.h"

UNIT_TEST(test_status_class)
{
    CHECK(rl_status_class_of(RL_E_NODES) == RL_CLASS_LOCK, "9: several nodes, not all unreachable");
    CHECK(rl_status_class_of(RL_E_NODES_UNREACHABLE) == RL_CLASS_CONNECTION, "18: several nodes, each unreachable");
    CHECK(rl_status_class_of(RL_E_NOMEM) == RL_CLASS_LOCK, "7: out of memory, the plain class");
    CHECK(rl_status_class_of(RL_E_NOT_ACQUIRED) == RL_CLASS_TIMEOUT, "10: synchronized() not acquired");
    CHECK(rl_status_class_of(RL_E_TIMEOUT) == RL_CLASS_CONNECTION, "2: timed out");
    CHECK(rl_status_class_of(RL_E_REPLY) == RL_CLASS_LOCK, "6: an error reply");
    CHECK(rl_status_is_connection(RL_E_NODES_UNREACHABLE), "18 is a connection failure");
}
