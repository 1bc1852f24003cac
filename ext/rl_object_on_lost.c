/*
 * Option on_lost. The watchdog thread never touches PHP: it sets the
 * holder thread's EG(vm_interrupt) (the flag's address is that thread's,
 * stable for the thread's life; every watch that may set it is gone once
 * its request ends, fatal error included, under the watchdog's lock). The
 * engine then calls zend_interrupt_function at the next opcode on that
 * thread, where this file takes the thread's lost locks from the watchdog
 * and tells each object with on_lost. A forked child has none of its
 * parent's watches, and no lock of its parent's counts as its own.
 */
#include "config.h"
#include "rl_object_on_lost.h"
#include "php_redislock.h"
#include "rl_object.h"
#include "rl_module_observe.h"
#include "rl_class_errors.h"
#include "src/base/rl_pid.h"
#include "src/base/rl_status.h"
#include "zend_exceptions.h"

static void (*previous_interrupt)(zend_execute_data *execute_data);
ZEND_TLS int quiet;     /* the extension's own logger runs: nothing told there */
ZEND_TLS bool telling;  /* a callable of ours runs: the next loss waits for it */
ZEND_TLS bool deferred; /* an interrupt came while quiet or telling: armed again after */

/* The watchdog thread's only act: sets a thread's interrupt flag. */
static void arm(void *flag)
{
#if PHP_VERSION_ID >= 80200
    zend_atomic_bool_store((zend_atomic_bool *)flag, true);
#else
    *(volatile zend_bool *)flag = 1;
#endif
}

static void arm_this_thread(void)
{
    arm((void *)&EG(vm_interrupt));
}

void rl_on_lost_watch(rl_watch_spec *spec)
{
    spec->on_lost = arm;
    spec->on_lost_arg = (void *)&EG(vm_interrupt);
}

void rl_on_lost_quiet(bool on)
{
    quiet += on ? 1 : -1;
    if (quiet == 0 && !telling && deferred) {
        deferred = false;
        arm_this_thread();
    }
}

zend_result rl_on_lost_parse(zval *v, zval *out, uint32_t argnum)
{
    if (Z_TYPE_P(v) == IS_NULL) {
        zval_ptr_dtor(out);
        ZVAL_UNDEF(out);
        return SUCCESS;
    }
    if (!(Z_TYPE_P(v) == IS_STRING && zend_string_equals_literal(Z_STR_P(v), "throw"))
        && !zend_is_callable(v, 0, NULL)) {
        if (Z_TYPE_P(v) == IS_STRING) {
            zend_argument_value_error(argnum, "option \"on_lost\" must be null, 'throw' or a callable");
        } else {
            zend_argument_type_error(argnum, "option \"on_lost\" must be null, 'throw' or a callable, %s given",
                                     zend_zval_type_name(v));
        }
        return FAILURE;
    }
    if (!RL_HAVE_WATCHDOG) {
        zend_argument_value_error(argnum, "option \"on_lost\" needs the watchdog thread, "
                                          "and this build has none (no POSIX threads)");
        return FAILURE;
    }
    zval_ptr_dtor(out);
    ZVAL_COPY(out, v);
    return SUCCESS;
}

static const char *why_name(int why)
{
    return why == RL_WATCH_WHY_LOST ? "lost" : why == RL_WATCH_WHY_QUORUM ? "quorum" : "expired";
}

static const char *why_text(int why)
{
    switch (why) {
    case RL_WATCH_WHY_LOST:
        return "the node no longer holds it (the key is gone or another's)";
    case RL_WATCH_WHY_QUORUM:
        return "a quorum of the nodes no longer holds it";
    default:
        return "its validity ran out before it was extended or released";
    }
}

/* This thread's record of the lock watched as id (an object with on_lost
 * that this process holds it on), or NULL. */
static rl_held *find_held(uint64_t id, rl_object **o_out, zend_string **key_out)
{
    rl_object *o;
    zend_string *key;
    rl_held *h;

    for (o = RLG(live); o != NULL; o = o->next) {
        if (Z_TYPE(o->on_lost) == IS_UNDEF) {
            continue;
        }
        ZEND_HASH_FOREACH_STR_KEY_PTR(&o->held, key, h) {
            for (; h != NULL; h = h->next) {
                if (h->watch == id && h->pid == rl_pid()) {
                    *o_out = o;
                    *key_out = key;
                    return h;
                }
            }
        }
        ZEND_HASH_FOREACH_END();
    }
    return NULL;
}

/* The exception's message names the resource: its first 100 bytes, each
 * byte that is not printable ASCII as '?', and its length when cut. */
static void throw_lost(const char *res, size_t len, int why)
{
    char shown[101];
    size_t i, n = len < 100 ? len : 100;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)res[i];
        shown[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    shown[n] = '\0';
    if (n < len) {
        rl_throw_status(RL_E_LOST, "lock \"%s...\" (%zu bytes) lost (%s): %s", shown, len, why_name(why),
                        why_text(why));
    } else {
        rl_throw_status(RL_E_LOST, "lock \"%s\" lost (%s): %s", shown, why_name(why), why_text(why));
    }
}

/* Tells o that the lock h on key is lost: throws, or calls the callable
 * (its exception propagates). An exception already thrown (by the
 * previous loss told, say) becomes the new one's getPrevious(); the
 * callable runs all the same. */
static void tell(rl_object *o, zend_string *key, rl_held *h, int why)
{
    size_t len;
    const char *res = rl_resource_of(key, ZSTR_LEN(o->prefix), &len);
    zval fn, args[3], ret;
    zend_object *pending;

    if (Z_TYPE(o->on_lost) == IS_STRING) {
        throw_lost(res, len, why);
        return;
    }
    /* copies: the callable may drop the object, its locks and itself */
    ZVAL_COPY(&fn, &o->on_lost);
    ZVAL_STRINGL(&args[0], res, len);
    ZVAL_STR_COPY(&args[1], h->token);
    ZVAL_STRING(&args[2], why_name(why));
    ZVAL_UNDEF(&ret);
    telling = true;
    /* EG(exception) aside while the callable runs, chained again after (as
     * zend_exception_save()/restore() did; PHP 8.6 has them no more) */
    pending = EG(exception);
    EG(exception) = NULL;
    call_user_function(NULL, NULL, &fn, &ret, 3, args);
    if (pending != NULL) {
        if (EG(exception) == NULL) {
            EG(exception) = pending;
        } else if (zend_is_unwind_exit(EG(exception))) {
            OBJ_RELEASE(pending); /* exit() in the callable: the script ends, nothing to chain */
        } else {
            zend_exception_set_previous(EG(exception), pending);
        }
    }
    telling = false;
    zval_ptr_dtor(&ret);
    zval_ptr_dtor(&args[0]);
    zval_ptr_dtor(&args[1]);
    zval_ptr_dtor(&args[2]);
    zval_ptr_dtor(&fn);
}

/* The engine looks at the interrupt flag right after a call returns, at
 * the opline that takes the call's result. Nothing else can throw between
 * the two, so no live range covers that temporary there: an exception
 * thrown here (at that opline, before it runs) leaves it to no one, and the
 * value the call returned leaked (valgrind: RedisLock::stats()'s array in
 * "stats()['auto_extended']" in test onlost/712, the token of lock() in
 * "$tf = $two->lock()" in 713). Frees it, as that opline
 * would have: only the result of the call just before, only when that
 * opline takes it and no live range frees it on the way out. */
static void free_call_result(zend_execute_data *ex, const zend_op *at)
{
    const zend_op_array *ops;
    const zend_op *call;
    uint32_t var, num;
    uint32_t i;

    if (ex == NULL || ex->func == NULL || !ZEND_USER_CODE(ex->func->type)) {
        return;
    }
    ops = &ex->func->op_array;
    if (at <= ops->opcodes || at >= ops->opcodes + ops->last) {
        return; /* a function's first opline, or no opline of this code */
    }
    call = at - 1;
    if ((call->opcode != ZEND_DO_FCALL && call->opcode != ZEND_DO_ICALL && call->opcode != ZEND_DO_UCALL
         && call->opcode != ZEND_DO_FCALL_BY_NAME)
        || !(call->result_type & (IS_TMP_VAR | IS_VAR))) {
        return;
    }
    /* only consumers whose operands nothing else frees once they are
     * skipped: not a SEND (the unfinished call's cleanup counts its argument
     * as sent), not PHP 8.4's frameless calls (they free their operands
     * before their own interrupt check) */
    switch (at->opcode) {
    case ZEND_ASSIGN:
    case ZEND_QM_ASSIGN:
    case ZEND_FETCH_DIM_R:
    case ZEND_IS_IDENTICAL:
    case ZEND_IS_NOT_IDENTICAL:
    case ZEND_IS_EQUAL:
    case ZEND_IS_NOT_EQUAL:
    case ZEND_IS_SMALLER:
    case ZEND_IS_SMALLER_OR_EQUAL:
    case ZEND_BOOL:
    case ZEND_BOOL_NOT:
    case ZEND_JMPZ:
    case ZEND_JMPNZ:
    case ZEND_ECHO:
    case ZEND_FREE:
    case ZEND_CONCAT:
    case ZEND_FAST_CONCAT:
        break;
    default:
        return; /* left to the engine: a leak at worst, never a double free */
    }
    var = call->result.var;
    if (!((at->op1_type & (IS_TMP_VAR | IS_VAR)) && at->op1.var == var)
        && !((at->op2_type & (IS_TMP_VAR | IS_VAR)) && at->op2.var == var)) {
        return;
    }
    num = (uint32_t)(at - ops->opcodes);
    for (i = 0; i < (uint32_t)ops->last_live_range; i++) { /* int before PHP 8.6, uint32_t since */
        const zend_live_range *r = &ops->live_range[i];
        if ((r->var & ~ZEND_LIVE_MASK) == var && r->start <= num && num < r->end) {
            return; /* the engine frees it */
        }
    }
    zval_ptr_dtor_nogc(ZEND_CALL_VAR(ex, var));
    ZVAL_UNDEF(ZEND_CALL_VAR(ex, var));
}

/* Every loss waiting is told here, at once (several exceptions chained):
 * this never arms the interrupt again itself, as the engine looks at the
 * flag again right after an exception thrown here. */
static void on_interrupt(zend_execute_data *execute_data)
{
    uint64_t id;
    int why;
    zend_execute_data *ex;
    const zend_op *at;
    bool thrown;

    if (previous_interrupt) {
        previous_interrupt(execute_data); /* first: a pcntl signal handler never runs beside our exception */
    }
    if (quiet > 0 || telling) {
        deferred = true; /* armed again after the logger; a callable's loop below takes it */
        return;
    }
    if (EG(exception) && zend_is_unwind_exit(EG(exception))) {
        return; /* exit(): its locks are released at the request's end */
    }
    ex = EG(current_execute_data);
    at = ex != NULL && ex->func != NULL && ZEND_USER_CODE(ex->func->type) ? ex->opline : NULL;
    thrown = EG(exception) != NULL;
    while (rl_watch_take_lost(RL_THREAD_OWNER, &id, &why, 1) == 1) {
        rl_object *o;
        zend_string *key;
        rl_held *h = find_held(id, &o, &key);
        if (h != NULL) {
            tell(o, key, h, why);
        }
        if (EG(exception) && zend_is_unwind_exit(EG(exception))) {
            break; /* a callable called exit() */
        }
    }
    if (!thrown && EG(exception) != NULL && at != NULL) {
        free_call_result(ex, at);
    }
    deferred = false;
}

void rl_on_lost_reset(void)
{
    quiet = 0; /* a logger or a callable that ended in a fatal error never came back */
    telling = false;
    deferred = false;
}

void rl_on_lost_init(void)
{
    previous_interrupt = zend_interrupt_function;
    zend_interrupt_function = on_interrupt;
}
