#include "rl_error.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void append(rl_error *e, const char *fmt, va_list ap)
{
    size_t len = strlen(e->msg), room = sizeof e->msg - len;
    va_list again;
    int need;

    if (e->cut) {
        return;
    }
    va_copy(again, ap);
    need = vsnprintf(e->msg + len, room, fmt, again);
    va_end(again);
    if (need >= 0 && (size_t)need < room) {
        return;
    }
    /* too long: keep what fits before an ellipsis */
    memcpy(e->msg + sizeof e->msg - 4, "...", 4);
    e->cut = 1;
}

int rl_error_set(rl_error *e, int code, const char *fmt, ...)
{
    va_list ap;
    e->code = code;
    e->msg[0] = '\0';
    e->cut = 0;
    va_start(ap, fmt);
    append(e, fmt, ap);
    va_end(ap);
    return code;
}

void rl_error_append(rl_error *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    append(e, fmt, ap);
    va_end(ap);
}
