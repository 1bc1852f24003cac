/* A server given to a constructor (a string, an array, or a phpredis
 * \Redis whose connection it names) as an endpoint (ext/rl_form_address.c). */
#ifndef RL_FORM_ADDRESS_H
#define RL_FORM_ADDRESS_H
#include "rl_form_options.h"

/* One server (string, array or \Redis) to an endpoint, with the options'
 * credentials and database applied. what names it in messages, e.g.
 * "$server" or "$servers[2]". */
zend_result rl_endpoint_from_zval(rl_endpoint *ep, zval *server, const rl_settings *s, uint32_t argnum,
                                  const char *what);

#endif
