/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 234a6717ccc427ab0dc2edd4856f1d44b327e4ee */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedisLock___construct, 0, 0, 0)
	ZEND_ARG_OBJ_TYPE_MASK(0, server, Redis|RedisCluster, MAY_BE_STRING|MAY_BE_ARRAY, "\'127.0.0.1:6379\'")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_acquireLock, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_LONG, 0, "10")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_releaseLock, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_lock, 0, 2, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, wait, IS_DOUBLE, 0, "0.0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, token, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_lockShared arginfo_class_RedisLock_lock

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_acquirePermit, 0, 3, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, limit, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, wait, IS_DOUBLE, 0, "0.0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_unlock, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, token, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_lockMany, 0, 2, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, resources, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, wait, IS_DOUBLE, 0, "0.0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, token, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_unlockMany, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, resources, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, token, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_extend, 0, 3, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, token, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_synchronized, 0, 2, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "10000")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, wait, IS_DOUBLE, 0, "10.0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_once, 0, 2, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, rebuild, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "10000")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, wait, IS_DOUBLE, 0, "10.0")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(1, value, IS_MIXED, 0, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_getValidity, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_fencingToken, 0, 1, IS_LONG, 1)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_isHeld arginfo_class_RedisLock_releaseLock

#define arginfo_class_RedisLock_holds arginfo_class_RedisLock_unlock

#define arginfo_class_RedisLock_isLocked arginfo_class_RedisLock_releaseLock

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_inspect, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_locks, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pattern, IS_STRING, 0, "\'*\'")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, limit, IS_LONG, 0, "1000")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_watch, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, timeout, IS_DOUBLE, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RedisLock_forceUnlock arginfo_class_RedisLock_releaseLock

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedisLock_metrics, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RedLock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, servers, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, retryDelay, IS_LONG, 0, "200")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, retryCount, IS_LONG, 0, "3")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RedLock_lock, 0, 2, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, resource, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, ttl, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, wait, IS_DOUBLE, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, token, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_RedLock_lockShared arginfo_class_RedisLock_lock

#define arginfo_class_RedLock_unlock arginfo_class_RedisLock_unlock

#define arginfo_class_RedLock_lockMany arginfo_class_RedisLock_lockMany

#define arginfo_class_RedLock_unlockMany arginfo_class_RedisLock_unlockMany

#define arginfo_class_RedLock_extend arginfo_class_RedisLock_extend

#define arginfo_class_RedLock_synchronized arginfo_class_RedisLock_synchronized

#define arginfo_class_RedLock_once arginfo_class_RedisLock_once

#define arginfo_class_RedLock_getValidity arginfo_class_RedisLock_getValidity

#define arginfo_class_RedLock_fencingToken arginfo_class_RedisLock_fencingToken

#define arginfo_class_RedLock_isHeld arginfo_class_RedisLock_releaseLock

#define arginfo_class_RedLock_holds arginfo_class_RedisLock_unlock

#define arginfo_class_RedLock_isLocked arginfo_class_RedisLock_releaseLock

#define arginfo_class_RedLock_inspect arginfo_class_RedisLock_inspect

#define arginfo_class_RedLock_locks arginfo_class_RedisLock_locks

#define arginfo_class_RedLock_watch arginfo_class_RedisLock_watch

#define arginfo_class_RedLock_forceUnlock arginfo_class_RedisLock_releaseLock


ZEND_METHOD(RedisLock, __construct);
ZEND_METHOD(RedisLock, acquireLock);
ZEND_METHOD(RedisLock, releaseLock);
ZEND_METHOD(RedisLock, lock);
ZEND_METHOD(RedisLock, lockShared);
ZEND_METHOD(RedisLock, acquirePermit);
ZEND_METHOD(RedisLock, unlock);
ZEND_METHOD(RedisLock, lockMany);
ZEND_METHOD(RedisLock, unlockMany);
ZEND_METHOD(RedisLock, extend);
ZEND_METHOD(RedisLock, synchronized);
ZEND_METHOD(RedisLock, once);
ZEND_METHOD(RedisLock, getValidity);
ZEND_METHOD(RedisLock, fencingToken);
ZEND_METHOD(RedisLock, isHeld);
ZEND_METHOD(RedisLock, holds);
ZEND_METHOD(RedisLock, isLocked);
ZEND_METHOD(RedisLock, inspect);
ZEND_METHOD(RedisLock, locks);
ZEND_METHOD(RedisLock, watch);
ZEND_METHOD(RedisLock, forceUnlock);
ZEND_METHOD(RedisLock, stats);
ZEND_METHOD(RedisLock, metrics);
ZEND_METHOD(RedLock, __construct);
ZEND_METHOD(RedLock, lock);
ZEND_METHOD(RedLock, lockShared);
ZEND_METHOD(RedLock, unlock);
ZEND_METHOD(RedLock, lockMany);
ZEND_METHOD(RedLock, unlockMany);
ZEND_METHOD(RedLock, extend);
ZEND_METHOD(RedLock, synchronized);
ZEND_METHOD(RedLock, once);
ZEND_METHOD(RedLock, getValidity);
ZEND_METHOD(RedLock, fencingToken);
ZEND_METHOD(RedLock, isHeld);
ZEND_METHOD(RedLock, holds);
ZEND_METHOD(RedLock, isLocked);
ZEND_METHOD(RedLock, inspect);
ZEND_METHOD(RedLock, locks);
ZEND_METHOD(RedLock, watch);
ZEND_METHOD(RedLock, forceUnlock);


static const zend_function_entry class_RedisLockException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLockConnectionException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLockTimeoutException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLockDeadlockException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLockLostException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RedisLock_methods[] = {
	ZEND_ME(RedisLock, __construct, arginfo_class_RedisLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, acquireLock, arginfo_class_RedisLock_acquireLock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, releaseLock, arginfo_class_RedisLock_releaseLock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, lock, arginfo_class_RedisLock_lock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, lockShared, arginfo_class_RedisLock_lockShared, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, acquirePermit, arginfo_class_RedisLock_acquirePermit, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, unlock, arginfo_class_RedisLock_unlock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, lockMany, arginfo_class_RedisLock_lockMany, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, unlockMany, arginfo_class_RedisLock_unlockMany, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, extend, arginfo_class_RedisLock_extend, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, synchronized, arginfo_class_RedisLock_synchronized, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, once, arginfo_class_RedisLock_once, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, getValidity, arginfo_class_RedisLock_getValidity, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, fencingToken, arginfo_class_RedisLock_fencingToken, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, isHeld, arginfo_class_RedisLock_isHeld, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, holds, arginfo_class_RedisLock_holds, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, isLocked, arginfo_class_RedisLock_isLocked, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, inspect, arginfo_class_RedisLock_inspect, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, locks, arginfo_class_RedisLock_locks, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, watch, arginfo_class_RedisLock_watch, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, forceUnlock, arginfo_class_RedisLock_forceUnlock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedisLock, stats, arginfo_class_RedisLock_stats, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RedisLock, metrics, arginfo_class_RedisLock_metrics, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_RedLock_methods[] = {
	ZEND_ME(RedLock, __construct, arginfo_class_RedLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, lock, arginfo_class_RedLock_lock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, lockShared, arginfo_class_RedLock_lockShared, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, unlock, arginfo_class_RedLock_unlock, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, lockMany, arginfo_class_RedLock_lockMany, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, unlockMany, arginfo_class_RedLock_unlockMany, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, extend, arginfo_class_RedLock_extend, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, synchronized, arginfo_class_RedLock_synchronized, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, once, arginfo_class_RedLock_once, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, getValidity, arginfo_class_RedLock_getValidity, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, fencingToken, arginfo_class_RedLock_fencingToken, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, isHeld, arginfo_class_RedLock_isHeld, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, holds, arginfo_class_RedLock_holds, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, isLocked, arginfo_class_RedLock_isLocked, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, inspect, arginfo_class_RedLock_inspect, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, locks, arginfo_class_RedLock_locks, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, watch, arginfo_class_RedLock_watch, ZEND_ACC_PUBLIC)
	ZEND_ME(RedLock, forceUnlock, arginfo_class_RedLock_forceUnlock, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RedisLockException(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLockException", class_RedisLockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	return class_entry;
}

static zend_class_entry *register_class_RedisLockConnectionException(zend_class_entry *class_entry_RedisLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLockConnectionException", class_RedisLockConnectionException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RedisLockException);

	return class_entry;
}

static zend_class_entry *register_class_RedisLockTimeoutException(zend_class_entry *class_entry_RedisLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLockTimeoutException", class_RedisLockTimeoutException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RedisLockException);

	return class_entry;
}

static zend_class_entry *register_class_RedisLockDeadlockException(zend_class_entry *class_entry_RedisLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLockDeadlockException", class_RedisLockDeadlockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RedisLockException);

	return class_entry;
}

static zend_class_entry *register_class_RedisLockLostException(zend_class_entry *class_entry_RedisLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLockLostException", class_RedisLockLostException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RedisLockException);

	return class_entry;
}

static zend_class_entry *register_class_RedisLock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedisLock", class_RedisLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	zval const_ONCE_TIMED_OUT_value;
	ZVAL_LONG(&const_ONCE_TIMED_OUT_value, 0);
	zend_string *const_ONCE_TIMED_OUT_name = zend_string_init_interned("ONCE_TIMED_OUT", sizeof("ONCE_TIMED_OUT") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_ONCE_TIMED_OUT_name, &const_ONCE_TIMED_OUT_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_ONCE_TIMED_OUT_name);

	zval const_ONCE_RAN_value;
	ZVAL_LONG(&const_ONCE_RAN_value, 1);
	zend_string *const_ONCE_RAN_name = zend_string_init_interned("ONCE_RAN", sizeof("ONCE_RAN") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_ONCE_RAN_name, &const_ONCE_RAN_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_ONCE_RAN_name);

	zval const_ONCE_WAITED_value;
	ZVAL_LONG(&const_ONCE_WAITED_value, 2);
	zend_string *const_ONCE_WAITED_name = zend_string_init_interned("ONCE_WAITED", sizeof("ONCE_WAITED") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_ONCE_WAITED_name, &const_ONCE_WAITED_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_ONCE_WAITED_name);

	zval const_ONCE_VALUE_MAX_value;
	ZVAL_LONG(&const_ONCE_VALUE_MAX_value, 8192);
	zend_string *const_ONCE_VALUE_MAX_name = zend_string_init_interned("ONCE_VALUE_MAX", sizeof("ONCE_VALUE_MAX") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_ONCE_VALUE_MAX_name, &const_ONCE_VALUE_MAX_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_ONCE_VALUE_MAX_name);


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 0, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	return class_entry;
}

static zend_class_entry *register_class_RedLock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RedLock", class_RedLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	zval const_ONCE_TIMED_OUT_value;
	ZVAL_LONG(&const_ONCE_TIMED_OUT_value, 0);
	zend_string *const_ONCE_TIMED_OUT_name = zend_string_init_interned("ONCE_TIMED_OUT", sizeof("ONCE_TIMED_OUT") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_ONCE_TIMED_OUT_name, &const_ONCE_TIMED_OUT_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_ONCE_TIMED_OUT_name);

	zval const_ONCE_RAN_value;
	ZVAL_LONG(&const_ONCE_RAN_value, 1);
	zend_string *const_ONCE_RAN_name = zend_string_init_interned("ONCE_RAN", sizeof("ONCE_RAN") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_ONCE_RAN_name, &const_ONCE_RAN_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_ONCE_RAN_name);

	zval const_ONCE_WAITED_value;
	ZVAL_LONG(&const_ONCE_WAITED_value, 2);
	zend_string *const_ONCE_WAITED_name = zend_string_init_interned("ONCE_WAITED", sizeof("ONCE_WAITED") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_ONCE_WAITED_name, &const_ONCE_WAITED_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_ONCE_WAITED_name);

	zval const_ONCE_VALUE_MAX_value;
	ZVAL_LONG(&const_ONCE_VALUE_MAX_value, 8192);
	zend_string *const_ONCE_VALUE_MAX_name = zend_string_init_interned("ONCE_VALUE_MAX", sizeof("ONCE_VALUE_MAX") - 1, 1);
	zend_declare_class_constant_ex(class_entry, const_ONCE_VALUE_MAX_name, &const_ONCE_VALUE_MAX_value, ZEND_ACC_PUBLIC, NULL);
	zend_string_release(const_ONCE_VALUE_MAX_name);


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 0, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 3, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	return class_entry;
}
