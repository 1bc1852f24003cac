/* A lock's derived keys (rl_lock_keys.h) and the wake bucket of a waiter. */
#include "rl_lock_keys.h"
#include "../base/rl_status.h"
#include "../topology/rl_slots.h"
#include <stdlib.h>
#include <string.h>

/* One derivation; the other keys are copies with their letter put in. */
int rl_lock_keys_make(rl_lock_keys *k, const char *key, size_t key_len)
{
    static const char letter[RL_LOCK_NKEYS] = {[RL_KEY_SLOT(RL_KEY_QUEUE)] = 'q',
                                               [RL_KEY_SLOT(RL_KEY_RESERVATION)] = 'r',
                                               [RL_KEY_SLOT(RL_KEY_FENCE)] = 'f',
                                               [RL_KEY_SLOT(RL_KEY_SHARED)] = 's',
                                               [RL_KEY_SLOT(RL_KEY_WAKE)] = 'A',
                                               'B',
                                               'C',
                                               'D',
                                               'E',
                                               'F',
                                               'G',
                                               'H',
                                               'I',
                                               'J',
                                               'K',
                                               'L',
                                               'M',
                                               'N',
                                               'O',
                                               'P'};
    size_t i, len = rl_key_derived(key, key_len, letter[0], NULL, 0); /* the same length for each letter */
    size_t at = rl_key_derived_letter_at(key, key_len);
    for (i = 0; i < RL_LOCK_NKEYS; i++) {
        k->len[i] = len;
        k->buf[i] = len + 1 <= sizeof k->stack[i] ? k->stack[i] : malloc(len + 1);
        if (k->buf[i] == NULL) {
            while (i-- > 0) {
                if (k->buf[i] != k->stack[i]) {
                    free(k->buf[i]);
                }
            }
            return RL_E_NOMEM;
        }
        if (i == 0) {
            rl_key_derived(key, key_len, letter[0], k->buf[0], len + 1);
        } else {
            memcpy(k->buf[i], k->buf[0], len + 1);
            k->buf[i][at] = letter[i];
        }
    }
    return 0;
}

void rl_lock_keys_free(rl_lock_keys *k)
{
    size_t i;
    for (i = 0; i < RL_LOCK_NKEYS; i++) {
        if (k->buf[i] != k->stack[i]) {
            free(k->buf[i]);
        }
    }
}
int rl_wake_bucket(const char *waiter, size_t len)
{
    char c = len > 0 ? waiter[len - 1] : '0';
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : 0;
}
