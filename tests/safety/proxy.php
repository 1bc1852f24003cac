<?php
/*
 * A TCP proxy in front of one redis-server, steered by a control file, for
 * the safety suite's network faults (loopback only). It listens on one
 * port shared by anyone, and with $clients on one port more per client
 * (client w: the w-th), so that a fault can hit some clients only. The
 * control file holds rules, one a line, all in effect together:
 *   [@W,W,...] ACTION     the clients named (none named: every client)
 * ACTION, DIR being requests (what clients send), replies or both:
 *   pass                  nothing (a file of "pass" or of nothing: forward at once)
 *   hold DIR              keep those bytes (hold requests: the server sees
 *                         nothing; hold replies: it runs the commands, the
 *                         client hears nothing); delivered, in order, when the
 *                         hold ends: what TCP does with a partition shorter
 *                         than its retransmission limit
 *   delay [DIR] MS        forward those bytes MS later (no DIR: both ways)
 *   drop DIR              throw those bytes away; a connection that lost
 *                         some is broken (reset) when the drop ends, as TCP
 *                         breaks it when its retransmissions fail
 *   reset                 reset (abortive close, RST) the clients'
 *                         connections, and every new one at once while it lasts
 * A client that gave up and closed its connection meanwhile still has its
 * held commands delivered, as on a real network where they were in flight.
 * The proxy acknowledges a new control file (its crc32 in "CONTROL.ack")
 * once it is in effect.
 *
 * Run as a child by RlSafetyProxy: rl_safety_proxy(upstream, port file,
 * control file, deadline, parent: that process's pid, clients), and by
 * bench/delay_proxy.php. The port file lists the ports, the shared one
 * first. Exits at the deadline (the run's end), or when $parent (a pid) is
 * gone, so a killed run leaves nothing behind. With $handshake, a new
 * connection's first bytes wait two delays more: the TCP handshake a
 * connect to a remote host costs, which a loopback connect does not.
 */

/** [who: null (all) or client ids, act, dir, delay ns] of each line of $text. */
function rl_safety_proxy_rules(string $text): array
{
    $rules = [];
    foreach (preg_split('/\R/', $text) as $line) {
        $words = preg_split('/\s+/', trim($line), -1, PREG_SPLIT_NO_EMPTY);
        $who = null;
        if ($words && $words[0][0] === '@') {
            $who = array_map('intval', explode(',', substr(array_shift($words), 1)));
        }
        $act = array_shift($words);
        if ($act === null || $act === 'pass') {
            continue;
        }
        $dir = in_array($words[0] ?? '', ['requests', 'replies', 'both'], true) ? array_shift($words) : 'both';
        $ms = (float)($words[0] ?? 0);
        $rules[] = [$who, $act, $dir, (int)round($ms * 1e6)];
    }
    return $rules;
}

/** What the rules do to client $w's bytes going $dir: [held, dropped, delay ns, reset]. */
function rl_safety_proxy_effect(array $rules, int $w, string $dir): array
{
    $e = [false, false, 0, false];
    foreach ($rules as [$who, $act, $d, $ns]) {
        if ($who !== null && !in_array($w, $who, true)) {
            continue;
        }
        if ($act === 'reset') {
            $e[3] = true;
        } elseif ($d === 'both' || $d === $dir) {
            match ($act) {
                'hold' => $e[0] = true,
                'drop' => $e[1] = true,
                'delay' => $e[2] = max($e[2], $ns),
                default => null,
            };
        }
    }
    return $e;
}

/**
 * Sends each forwarded chunk at once (TCP_NODELAY), as Redis and the
 * extension do on their own sockets: without it, a small chunk behind an
 * unacknowledged one waits for the peer's delayed ACK (about 40 ms), a stall
 * no real path between them has.
 */
function rl_safety_proxy_nodelay($stream): void
{
    if (function_exists('socket_import_stream') && defined('TCP_NODELAY')) {
        $sock = @socket_import_stream($stream);
        if ($sock !== false && $sock !== null) {
            @socket_set_option($sock, SOL_TCP, TCP_NODELAY, 1);
        }
    }
}

/** Closes $stream with a reset (RST) rather than a FIN. */
function rl_safety_proxy_abort($stream): void
{
    if (function_exists('socket_import_stream') && ($sock = @socket_import_stream($stream))) {
        @socket_set_option($sock, SOL_SOCKET, SO_LINGER, ['l_onoff' => 1, 'l_linger' => 0]);
    }
    @fclose($stream);
}

function rl_safety_proxy(string $upstream, string $portFile, string $control, float $deadline,
                         bool $handshake = false, int $parent = 0, int $clients = 0): void
{
    $listens = [];   // client id (-1: the shared port) => listening stream
    $ports = [];
    for ($w = -1; $w < $clients; $w++) {
        $listens[$w] = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        if ($listens[$w] === false) {
            fwrite(STDERR, "proxy: $errstr\n");
            exit(1);
        }
        $name = stream_socket_get_name($listens[$w], false);
        $ports[] = substr($name, strrpos($name, ':') + 1);
    }
    file_put_contents("$portFile.tmp", implode(' ', $ports));
    rename("$portFile.tmp", $portFile);

    $streams = [];   // id => stream
    $peer = [];      // id => the stream on the other side
    $who = [];       // id => the client id of its pair
    $toServer = [];  // id => true for the upstream side (what is written to it is a request)
    $queue = [];     // id => [[due ns, bytes or null: close], ...] to write to that stream
    $eof = [];       // id => true once it closed: read no more
    $fresh = [];     // id => true until a new client's first bytes were read (with $handshake)
    $lost = [];      // client side id => true once a drop threw some of its pair's bytes away
    $text = null;
    $rules = [];
    $effects = [];   // "w dir" => rl_safety_proxy_effect(), for the rules now
    $lastRead = 0;

    $close = function (int $id, bool $abort = false) use (&$streams, &$peer, &$who, &$toServer, &$queue, &$eof, &$fresh, &$lost) {
        foreach ([$id, $peer[$id]] as $i) {
            $abort ? rl_safety_proxy_abort($streams[$i]) : @fclose($streams[$i]);
            unset($streams[$i], $peer[$i], $who[$i], $toServer[$i], $queue[$i], $eof[$i], $fresh[$i], $lost[$i]);
        }
    };
    $effect = function (int $w, string $dir) use (&$effects, &$rules) {
        return $effects["$w $dir"] ??= rl_safety_proxy_effect($rules, $w, $dir);
    };
    // the direction of the bytes written to stream $id, and read from it
    $into = function (int $id) use (&$toServer) { return isset($toServer[$id]) ? 'requests' : 'replies'; };
    $from = function (int $id) use (&$toServer) { return isset($toServer[$id]) ? 'replies' : 'requests'; };

    while (microtime(true) < $deadline && (!$parent || posix_getppid() === $parent)) {
        $now = hrtime(true);
        if ($now - $lastRead > 5000000) {  // the control file, every 5 ms
            $lastRead = $now;
            $new = (string)@file_get_contents($control);
            if ($new !== $text) {
                $text = $new;
                $rules = rl_safety_proxy_rules($text);
                $effects = [];
                // resets now; a drop that ended breaks what it lost bytes of
                foreach (array_keys($streams) as $id) {
                    if (isset($streams[$id]) && !isset($toServer[$id])
                        && ($effect($who[$id], 'both')[3]
                            || (isset($lost[$id]) && !$effect($who[$id], 'requests')[1] && !$effect($who[$id], 'replies')[1]))) {
                        $close($id, true);
                    }
                }
                file_put_contents("$control.ack.tmp", (string)crc32($text));
                rename("$control.ack.tmp", "$control.ack");
            }
        }
        $write = $closing = [];
        $wait = 5000;
        foreach (array_keys($queue) as $id) {
            if ($effect($who[$id], $into($id))[0]) {
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
        array_push($read, ...array_values($listens));
        $except = null;
        if (@stream_select($read, $write, $except, 0, $wait) === false) {
            break;
        }
        $now = hrtime(true);
        foreach ($read as $s) {
            $w = array_search($s, $listens, true);
            if ($w !== false) {
                $client = @stream_socket_accept($s, 0);
                if ($client && $effect($w, 'both')[3]) {
                    rl_safety_proxy_abort($client);
                    continue;
                }
                $server = $client ? @stream_socket_client("tcp://$upstream", $errno, $errstr, 1.0) : false;
                if ($client && $server) {
                    stream_set_blocking($client, false);
                    stream_set_blocking($server, false);
                    rl_safety_proxy_nodelay($client);
                    rl_safety_proxy_nodelay($server);
                    [$c, $u] = [(int)$client, (int)$server];
                    $streams += [$c => $client, $u => $server];
                    $peer += [$c => $u, $u => $c];
                    $who += [$c => $w, $u => $w];
                    $toServer[$u] = true;
                    $queue += [$c => [], $u => []];
                    $fresh[$c] = $handshake;
                } elseif ($client) {
                    fclose($client);
                }
                continue;
            }
            $id = (int)$s;
            if (!isset($streams[$id])) {
                continue;
            }
            $data = @fread($s, 65536);
            if ($data === '' || $data === false) {
                if (feof($s)) {  // the close goes on after what is still on its way
                    $eof[$id] = true;
                    $queue[$peer[$id]][] = [$now + $effect($who[$id], $from($id))[2], null];
                }
                continue;
            }
            [, $dropped, $delay] = $effect($who[$id], $from($id));
            if ($dropped) {
                $lost[isset($toServer[$id]) ? $peer[$id] : $id] = true;
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
    /** @var int[] the shared port, then one per client */
    private array $ports;
    /** @var array<string, string> the rules in effect, by who set them */
    private array $rules = [];

    /** A proxy to $upstream until $deadline, with a port for each of $clients clients. */
    public function __construct(string $upstream, float $deadline, int $clients = 0)
    {
        $dir = rl_mktemp_dir('rl-proxy-');
        $this->control = "$dir/control";
        file_put_contents($this->control, "pass\n");
        $this->child = rl_php_child_start('require ' . var_export(__FILE__, true) . '; rl_safety_proxy('
            . var_export($upstream, true) . ', ' . var_export("$dir/port", true) . ', '
            . var_export($this->control, true) . ', ' . var_export($deadline, true) . ', false, '
            . getmypid() . ", $clients);");
        if (!rl_wait_until(fn() => is_file("$dir/port"), 10.0)) {
            throw new RuntimeException("proxy for $upstream did not start: " . $this->child->errorOutput());
        }
        $this->ports = array_map('intval', explode(' ', (string)file_get_contents("$dir/port")));
    }

    public function pid(): int { return $this->child->pid(); }

    /** The shared port: only rules for every client reach it. */
    public function addr(): string { return "127.0.0.1:{$this->ports[0]}"; }

    /** Client $w's own port. */
    public function addrFor(int $w): string
    {
        isset($this->ports[$w + 1]) || throw new ValueError("proxy: no port for client $w (" . (count($this->ports) - 1) . ' clients)');
        return "127.0.0.1:{$this->ports[$w + 1]}";
    }

    /**
     * Puts rule $id in effect ('hold replies', 'delay requests 200', 'drop both',
     * 'reset', ...: see the file's head) for $clients (null: every client),
     * beside the others; in effect when this returns.
     */
    public function add(string $id, string $action, ?array $clients = null): void
    {
        $this->rules[$id] = ($clients === null ? '' : '@' . implode(',', $clients) . ' ') . $action;
        $this->write();
    }

    /** Ends rule $id (held bytes go, a drop breaks what lost bytes); in effect when this returns. */
    public function remove(string $id): void
    {
        unset($this->rules[$id]);
        $this->write();
    }

    private function write(): void
    {
        $text = implode("\n", $this->rules) . "\n";
        file_put_contents("{$this->control}.tmp", $text);
        rename("{$this->control}.tmp", $this->control);
        // the proxy reads it within 5 ms; longer on a loaded machine
        rl_wait_until(fn() => @file_get_contents("{$this->control}.ack") === (string)crc32($text) || !$this->child->isRunning(),
                      5.0, 0.002) || throw new RuntimeException('proxy did not take its new rules');
    }

    public function stop(): void
    {
        $this->child->kill();
        rl_rmtree(dirname($this->control));
    }
}
