/* lockMany() and unlockMany() of both classes (rl_method_many.c): their
 * bodies are declared by the list, with their signatures. */
#ifndef RL_METHOD_MANY_H
#define RL_METHOD_MANY_H
#include "rl_method_list.h"

#endif
