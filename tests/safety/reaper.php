<?php
/*
 * Leaves nothing behind a run that was killed (SIGKILL, or a SIGTERM that
 * skips PHP's shutdown functions): a child that waits while the process
 * that started it lives, then SIGKILLs the redis-servers it was given, by
 * the pid file RlTestServer keeps in each server's directory (so a server
 * restarted since is found; a server stopped has none, so no pid reused
 * since is hit). The topology stops it at its own end.
 */
require_once __DIR__ . '/../redislock_test.inc';

function rl_safety_reaper(array $dirs, int $parent): void
{
    while (posix_getppid() === $parent) {
        usleep(100000);
    }
    foreach ($dirs as $d) {
        $pid = (int)@file_get_contents("$d/rl-server.pid");
        if ($pid > 0) {
            posix_kill($pid, SIGKILL);
        }
    }
}

class RlSafetyReaper
{
    private RlTestChild $child;

    /** @param RlTestServer[] $servers */
    public function __construct(array $servers)
    {
        $this->child = rl_php_child_start('require ' . var_export(__FILE__, true) . '; rl_safety_reaper('
            . var_export(array_map(fn($s) => $s->dir(), $servers), true) . ', ' . getmypid() . ');');
    }

    public function pid(): int { return $this->child->pid(); }

    public function stop(): void
    {
        $this->child->kill();
    }
}
