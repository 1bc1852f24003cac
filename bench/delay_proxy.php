<?php
/*
 * A TCP proxy that stands in for a Redis node on another host: every chunk
 * is forwarded DELAY_MS later, both ways.
 *   php delay_proxy.php UPSTREAM_HOST:PORT DELAY_MS MAX_SECONDS PORT_FILE
 * Listens on a free loopback port and writes the port to PORT_FILE once it
 * listens. Each chunk read goes into a queue stamped with its due time (read
 * time + delay) and is written when due; one delay for all keeps the order.
 * A new connection's first bytes wait one more round trip (2 x delay): the
 * TCP handshake a connect to a remote host costs, which a loopback connect
 * does not. Exits after MAX_SECONDS, or when the process that started it is
 * gone, so that a killed run leaves nothing behind.
 */
[, $upstream, $delayMs, $maxSeconds, $portFile] = $argv;
$delay = (int)round((float)$delayMs * 1e6);
$deadline = hrtime(true) + (int)((float)$maxSeconds * 1e9);
$parent = function_exists('posix_getppid') ? posix_getppid() : 0;

$listen = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
if ($listen === false) {
    fwrite(STDERR, "delay_proxy: $errstr\n");
    exit(1);
}
$name = stream_socket_get_name($listen, false);
file_put_contents("$portFile.tmp", substr($name, strrpos($name, ':') + 1));
rename("$portFile.tmp", $portFile);

/** Small chunks must leave at once, not wait for an ACK (Nagle). */
function no_delay($stream): void
{
    stream_set_blocking($stream, false);
    if (function_exists('socket_import_stream') && ($sock = socket_import_stream($stream))) {
        socket_set_option($sock, SOL_TCP, TCP_NODELAY, 1);
    }
}

$streams = [];  // id => stream
$peer = [];     // id => id of the stream on the other side
$out = [];      // id => queue of [due ns, bytes, or null: close], to write to that stream
$eof = [];      // id => true once the other end closed it: read no more
$fresh = [];    // id => true until a new client's first chunk was read

function close_pair(int $id): void
{
    global $streams, $peer, $out, $eof, $fresh;
    foreach ([$id, $peer[$id]] as $i) {
        fclose($streams[$i]);
        unset($streams[$i], $peer[$i], $out[$i], $eof[$i], $fresh[$i]);
    }
}

while (hrtime(true) < $deadline && (!$parent || posix_getppid() === $parent)) {
    $now = hrtime(true);
    $wait = 200000; // µs: look at the deadline and the parent now and then
    $write = $closing = [];
    foreach (array_keys($out) as $id) {
        $queue = &$out[$id];
        while ($queue && $queue[0][0] <= $now) {
            if ($queue[0][1] === null) {
                $closing[] = $id;
                break;
            }
            $n = (int)@fwrite($streams[$id], $queue[0][1]);
            if ($n < strlen($queue[0][1])) { // socket buffer full: the rest when writable
                $queue[0][1] = substr($queue[0][1], $n);
                $write[] = $streams[$id];
                break;
            }
            array_shift($queue);
        }
        if ($queue) {
            $wait = min($wait, max(0, intdiv($queue[0][0] - $now, 1000)));
        }
        unset($queue);
    }
    foreach ($closing as $id) {
        if (isset($streams[$id])) { // both ends may have closed in one pass
            close_pair($id);
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
                no_delay($client);
                no_delay($server);
                [$c, $u] = [(int)$client, (int)$server];
                $streams += [$c => $client, $u => $server];
                $peer += [$c => $u, $u => $c];
                $out += [$c => [], $u => []];
                $fresh[$c] = true;
            } elseif ($client) {
                fclose($client);
            }
            continue;
        }
        $id = (int)$s;
        $data = fread($s, 65536);
        if ($data === '' || $data === false) {
            if (feof($s)) { // pass the close on, after what is still on its way
                $eof[$id] = true;
                $out[$peer[$id]][] = [$now + $delay, null];
            }
            continue;
        }
        $out[$peer[$id]][] = [$now + $delay + (isset($fresh[$id]) ? 2 * $delay : 0), $data];
        unset($fresh[$id]);
    }
}
