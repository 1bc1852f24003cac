<?php
/*
 * A TCP proxy in front of one redis-server, steered by a control file, for
 * the safety suite's network faults (loopback only). The control file holds
 * one of:
 *   pass            forward at once, both ways
 *   hold requests   keep what clients send (the server sees nothing)
 *   hold replies    keep what the server sends back (it runs the commands)
 *   hold both       a partition both ways
 *   delay MS        forward everything MS later, both ways
 * Held bytes are delivered, in order, when the hold ends: what TCP does with
 * a partition shorter than its retransmission limit. A client that gave up
 * and closed its connection meanwhile still has its commands delivered, as
 * on a real network where they were already in flight.
 *
 * Run as a child by RlSafetyProxy: rl_safety_proxy(upstream, port file,
 * control file, deadline), and by bench/delay_proxy.php. Exits at the
 * deadline (the run's end), or when $parent (a pid) is gone, so a killed
 * run leaves nothing behind. With $handshake, a new connection's first bytes
 * wait two delays more: the TCP handshake a connect to a remote host costs,
 * which a loopback connect does not.
 */

function rl_safety_proxy(string $upstream, string $portFile, string $control, float $deadline,
                         bool $handshake = false, int $parent = 0): void
{
    $listen = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
    if ($listen === false) {
        fwrite(STDERR, "proxy: $errstr\n");
        exit(1);
    }
    $name = stream_socket_get_name($listen, false);
    file_put_contents("$portFile.tmp", substr($name, strrpos($name, ':') + 1));
    rename("$portFile.tmp", $portFile);

    $streams = [];   // id => stream
    $peer = [];      // id => the stream on the other side
    $toServer = [];  // id => true for the upstream side (what is written to it is a request)
    $queue = [];     // id => [[due ns, bytes or null: close], ...] to write to that stream
    $eof = [];       // id => true once it closed: read no more
    $fresh = [];     // id => true until a new client's first bytes were read (with $handshake)
    $state = 'pass';
    $delay = 0;
    $lastRead = 0;

    $close = function (int $id) use (&$streams, &$peer, &$toServer, &$queue, &$eof, &$fresh) {
        foreach ([$id, $peer[$id]] as $i) {
            @fclose($streams[$i]);
            unset($streams[$i], $peer[$i], $toServer[$i], $queue[$i], $eof[$i], $fresh[$i]);
        }
    };

    while (microtime(true) < $deadline && (!$parent || posix_getppid() === $parent)) {
        $now = hrtime(true);
        if ($now - $lastRead > 5000000) {  // the control file, every 5 ms
            $lastRead = $now;
            $line = trim((string)@file_get_contents($control));
            if ($line !== '' && $line !== $state) {
                $state = $line;
                $delay = str_starts_with($state, 'delay ') ? (int)round((float)substr($state, 6) * 1e6) : 0;
            }
        }
        $held = fn(int $id) => $state === 'hold both'
            || ($state === 'hold requests' && isset($toServer[$id]))
            || ($state === 'hold replies' && !isset($toServer[$id]));
        $write = $closing = [];
        $wait = 5000;
        foreach (array_keys($queue) as $id) {
            if ($held($id)) {
                continue;
            }
            $q = &$queue[$id];
            while ($q && $q[0][0] <= $now) {
                if ($q[0][1] === null) {
                    $closing[] = $id;
                    break;
                }
                $n = @fwrite($streams[$id], $q[0][1]);
                if ($n === false) {          // that side is gone: end the pair
                    $closing[] = $id;
                    break;
                }
                if ($n < strlen($q[0][1])) {
                    $q[0][1] = substr($q[0][1], $n);
                    $write[] = $streams[$id];
                    break;
                }
                array_shift($q);
            }
            if ($q) {
                $wait = min($wait, max(0, intdiv($q[0][0] - $now, 1000)));
            }
            unset($q);
        }
        foreach ($closing as $id) {
            if (isset($streams[$id])) {
                $close($id);
            }
        }
        $read = array_values(array_diff_key($streams, $eof));
        $read[] = $listen;
        $except = null;
        if (@stream_select($read, $write, $except, 0, $wait) === false) {
            break;
        }
        $now = hrtime(true);
        foreach ($read as $s) {
            if ($s === $listen) {
                $client = @stream_socket_accept($listen, 0);
                $server = $client ? @stream_socket_client("tcp://$upstream", $errno, $errstr, 1.0) : false;
                if ($client && $server) {
                    stream_set_blocking($client, false);
                    stream_set_blocking($server, false);
                    [$c, $u] = [(int)$client, (int)$server];
                    $streams += [$c => $client, $u => $server];
                    $peer += [$c => $u, $u => $c];
                    $toServer[$u] = true;
                    $queue += [$c => [], $u => []];
                    $fresh[$c] = $handshake;
                } elseif ($client) {
                    fclose($client);
                }
                continue;
            }
            $id = (int)$s;
            $data = @fread($s, 65536);
            if ($data === '' || $data === false) {
                if (feof($s)) {  // the close goes on after what is still on its way
                    $eof[$id] = true;
                    $queue[$peer[$id]][] = [$now + $delay, null];
                }
                continue;
            }
            $queue[$peer[$id]][] = [$now + $delay + (empty($fresh[$id]) ? 0 : 2 * $delay), $data];
            unset($fresh[$id]);
        }
    }
}

/** The proxy child and its control file. */
class RlSafetyProxy
{
    private RlTestChild $child;
    private string $control;
    private int $port;

    public function __construct(string $upstream, float $deadline)
    {
        $dir = rl_mktemp_dir('rl-proxy-');
        $this->control = "$dir/control";
        file_put_contents($this->control, "pass\n");
        $this->child = rl_php_child_start('require ' . var_export(__FILE__, true) . '; rl_safety_proxy('
            . var_export($upstream, true) . ', ' . var_export("$dir/port", true) . ', '
            . var_export($this->control, true) . ', ' . var_export($deadline, true) . ');');
        if (!rl_wait_until(fn() => is_file("$dir/port"), 10.0)) {
            throw new RuntimeException("proxy for $upstream did not start: " . $this->child->errorOutput());
        }
        $this->port = (int)file_get_contents("$dir/port");
    }

    public function addr(): string { return "127.0.0.1:{$this->port}"; }

    /** 'pass', 'hold requests', 'hold replies', 'hold both' or 'delay MS'; in effect within 10 ms. */
    public function set(string $state): void
    {
        file_put_contents("{$this->control}.tmp", "$state\n");
        rename("{$this->control}.tmp", $this->control);
        usleep(10000);
    }

    public function stop(): void
    {
        $this->child->kill();
        rl_rmtree(dirname($this->control));
    }
}
