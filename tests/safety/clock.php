<?php
/*
 * A redis-server whose wall clock the test steps (forward or backward) and
 * drifts (clock_shift.c, built here with the C compiler and preloaded into
 * that server only). Redis expires keys by its wall clock, so a clock
 * running ahead expires them early, one running behind keeps them longer.
 */
require_once __DIR__ . '/../redislock_test.inc';
require_once __DIR__ . '/now.php';

class RlSafetyClock
{
    /* clock_shift.c's RL_CLOCK_CHECK */
    private const CHECK = 0x5a5a5a5a5a5a;

    private string $dir;
    private float $offsetUs = 0.0;   // the shift at $baseNs
    private int $baseNs = 0;         // CLOCK_MONOTONIC (hrtime)
    /** @var array<string, int> the drifts in effect, by who set them: ppm */
    private array $rates = [];

    public function __construct()
    {
        $this->dir = rl_mktemp_dir('rl-clock-');
        $cc = rl_which('cc') ?? rl_which('gcc') ?? throw new RuntimeException('the clock faults need a C compiler (cc)');
        exec(implode(' ', array_map('escapeshellarg', [$cc, '-shared', '-fPIC', '-O2', '-o', "{$this->dir}/clock_shift.so",
                                                      __DIR__ . '/clock_shift.c'])) . ' 2>&1', $out, $code);
        if ($code !== 0) {
            throw new RuntimeException("cannot build clock_shift.so:\n" . implode("\n", $out));
        }
        $this->baseNs = hrtime(true);
        $this->write();
    }

    /** A redis-server with the shifted clock (the environment is the child's only). */
    public function server(array $args = []): RlTestServer
    {
        return $this->preloaded(fn() => new RlTestServer($args));
    }

    /** $server (made by server()) killed and started again, still shifted. */
    public function restart(RlTestServer $server): void
    {
        $this->preloaded(fn() => $server->restart());
    }

    private function preloaded(callable $f): mixed
    {
        putenv("LD_PRELOAD={$this->dir}/clock_shift.so");
        putenv("RL_CLOCK_SHIFT_FILE={$this->dir}/shift");
        try {
            return $f();
        } finally {
            putenv('LD_PRELOAD');
            putenv('RL_CLOCK_SHIFT_FILE');
        }
    }

    /** Steps the server's wall clock by $ms (negative: backward), as an NTP step would. */
    public function step(int $ms): void
    {
        $this->rebase();
        $this->offsetUs += $ms * 1000;
        $this->write();
    }

    /** From now on the clock also runs $ppm millionths fast (negative: slow), until undrift($id). */
    public function drift(string $id, int $ppm): void
    {
        $this->rebase();
        $this->rates[$id] = $ppm;
        $this->write();
    }

    public function undrift(string $id): void
    {
        $this->rebase();
        unset($this->rates[$id]);
        $this->write();
    }

    /** How far ahead of the real wall clock the server's is now, in ms. */
    public function shiftMs(): float
    {
        return ($this->offsetUs + (hrtime(true) - $this->baseNs) * $this->rate() / 1e9) / 1000;
    }

    private function rate(): int
    {
        return array_sum($this->rates);
    }

    /* The shift so far becomes the offset, from now: a new rate does not jump the clock. */
    private function rebase(): void
    {
        $now = hrtime(true);
        $this->offsetUs += ($now - $this->baseNs) * $this->rate() / 1e9;
        $this->baseNs = $now;
    }

    /* Rewritten in place, never truncated: the server reads it at every clock call. */
    private function write(): void
    {
        $o = (int)round($this->offsetUs);
        $line = sprintf('%d %d %d %d', $o, $this->rate(), $this->baseNs, $o ^ $this->rate() ^ $this->baseNs ^ self::CHECK);
        $f = fopen("{$this->dir}/shift", 'c');
        fwrite($f, str_pad($line, 100) . "\n");
        fclose($f);
    }

    public function stop(): void
    {
        rl_rmtree($this->dir);
    }
}
