<?php
/*
 * A redis-server whose wall clock the test steps forward (clock_shift.c,
 * built here with the C compiler and preloaded into that server only).
 */
require_once __DIR__ . '/../redislock_test.inc';

class RlSafetyClock
{
    private string $dir;
    private int $shiftMs = 0;

    public function __construct()
    {
        $this->dir = rl_mktemp_dir('rl-clock-');
        $cc = rl_which('cc') ?? rl_which('gcc') ?? throw new RuntimeException('clock-jump needs a C compiler (cc)');
        exec(implode(' ', array_map('escapeshellarg', [$cc, '-shared', '-fPIC', '-O2', '-o', "{$this->dir}/clock_shift.so",
                                                      __DIR__ . '/clock_shift.c'])) . ' 2>&1', $out, $code);
        if ($code !== 0) {
            throw new RuntimeException("cannot build clock_shift.so:\n" . implode("\n", $out));
        }
        $this->write();
    }

    /** A redis-server with the shifted clock (the environment is the child's only). */
    public function server(): RlTestServer
    {
        putenv("LD_PRELOAD={$this->dir}/clock_shift.so");
        putenv("RL_CLOCK_SHIFT_FILE={$this->dir}/shift");
        try {
            return new RlTestServer();
        } finally {
            putenv('LD_PRELOAD');
            putenv('RL_CLOCK_SHIFT_FILE');
        }
    }

    /** Steps the server's wall clock forward by $ms, as an NTP step would. */
    public function step(int $ms): void
    {
        $this->shiftMs += $ms;
        $this->write();
    }

    /* Rewritten in place, never truncated: the server reads it at every clock call. */
    private function write(): void
    {
        $f = fopen("{$this->dir}/shift", 'c');
        fwrite($f, str_pad((string)$this->shiftMs, 20) . "\n");
        fclose($f);
    }

    public function stop(): void
    {
        rl_rmtree($this->dir);
    }
}
