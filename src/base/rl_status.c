#include "rl_status.h"

const char *rl_status_name(int status)
{
    switch (status) {
    case RL_OK:
        return "ok";
    case RL_E_CONNECT:
        return "connect failed";
    case RL_E_TIMEOUT:
        return "timed out";
    case RL_E_AUTH:
        return "authentication failed";
    case RL_E_IO:
        return "connection lost";
    case RL_E_PROTOCOL:
        return "protocol error";
    case RL_E_REPLY:
        return "error reply";
    case RL_E_NOMEM:
        return "out of memory";
    case RL_E_SKIPPED:
        return "not asked";
    case RL_E_NODES:
        return "nodes failed";
    case RL_E_NOT_ACQUIRED:
        return "not acquired in time";
    case RL_E_RANDOM:
        return "no random bytes";
    case RL_E_REPLICAS:
        return "not acknowledged by enough replicas";
    case RL_E_TLS:
        return "TLS failed";
    case RL_E_NO_MASTER:
        return "no master";
    case RL_E_NO_SLOT_MAP:
        return "no slot map";
    case RL_E_REDIRECTS:
        return "too many redirections";
    case RL_E_KIND:
        return "held as another kind";
    case RL_E_NODES_UNREACHABLE:
        return "nodes unreachable";
    case RL_E_DEADLOCK:
        return "deadlock";
    case RL_E_LOST:
        return "lock lost";
    }
    return "unknown error";
}

int rl_status_is_connection(int status)
{
    return status == RL_E_CONNECT || status == RL_E_TIMEOUT || status == RL_E_AUTH || status == RL_E_IO
           || status == RL_E_TLS || status == RL_E_NO_MASTER || status == RL_E_NO_SLOT_MAP
           || status == RL_E_NODES_UNREACHABLE;
}

rl_status_class rl_status_class_of(int status)
{
    if (status == RL_E_NOT_ACQUIRED) {
        return RL_CLASS_TIMEOUT;
    }
    if (status == RL_E_DEADLOCK) {
        return RL_CLASS_DEADLOCK;
    }
    if (status == RL_E_LOST) {
        return RL_CLASS_LOST;
    }
    return rl_status_is_connection(status) ? RL_CLASS_CONNECTION : RL_CLASS_LOCK;
}
