<?php
/*
 * A TCP proxy that stands in for a Redis node on another host: every chunk
 * is forwarded DELAY_MS later, both ways, and a new connection's first
 * bytes wait one more round trip (the TCP handshake of a remote connect).
 *   php delay_proxy.php UPSTREAM_HOST:PORT DELAY_MS MAX_SECONDS PORT_FILE
 * Listens on a free loopback port and writes the port to PORT_FILE once it
 * listens. Exits after MAX_SECONDS, or when the process that started it is
 * gone. The proxy itself is the safety suite's (tests/safety/proxy.php),
 * held in its "delay" state.
 */
require __DIR__ . '/../tests/safety/proxy.php';

[, $upstream, $delayMs, $maxSeconds, $portFile] = $argv;
$control = "$portFile.control";
file_put_contents($control, 'delay ' . (float)$delayMs . "\n");
register_shutdown_function(function () use ($control) {
    @unlink($control);
    @unlink("$control.ack");   // the proxy's acknowledgement of it
});
rl_safety_proxy($upstream, $portFile, $control, microtime(true) + (float)$maxSeconds, true,
                function_exists('posix_getppid') ? posix_getppid() : 0);
